"""The MCP boundary: the tools, their descriptions (prompts for the model) and who is asking."""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, TypeVar

from mcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitationResult,
)
from mcp.server.mcpserver import Context, MCPServer, Resolve
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field, WithJsonSchema

from planner.intents import intents_schema
from planner.models import Voice
from server._storage import guarded
from server.card import CARD_URI, card_apps, hide_app_tools_without_apps
from server.content import tool_result
from server.elicit import PersonConfirms, PersonCounts, ask_person, ask_person_on_yes
from server.identity import Who, resolve_user
from server.observe import observed
from server.replies import Reply, known_secrets, neutralise, neutralise_text, redact, redact_text
from server.resources import PlannerServer, register_resources
from server.sandbox_mode import mark
from server.service import Service
from server.settings import Settings

__all__ = ["build_server", "resolve_user"]

log = logging.getLogger("planner.server")

INSTRUCTIONS = """\
Manage the person's CRM (Attio), issue tracker (Linear) and calendar by what they say, in Russian or English.
Call `plan` with their words. Reads are answered at once. Every change comes back as a Draft: show the
person its preview and risks, and call `confirm_draft` ONLY after they said yes in this conversation, then
`execute_draft`. When a reply has `clarifying_question`, ask the person exactly that (offer `choices`) and pass
their answer to `pick`. Never invent ids; never confirm on the person's behalf."""

# Client plumbing: a model leaves these out (the descriptions say so, so it does not invent values).
UserId = Annotated[
    str,
    Field(
        max_length=200,
        description="Leave out: the server knows who is asking. Only a client acting for several "
        "people (a bot) passes its person's id.",
    ),
]
CallbackId = Annotated[
    str | None,
    Field(
        max_length=200,
        description="Client plumbing, leave out: a bot's button-press id (tg:callback:<id>); "
        "a repeated id replays the first reply and does nothing else.",
    ),
]
DraftId = Annotated[str, Field(max_length=128, description="draft.id of the reply that showed the draft")]

_Fn = TypeVar("_Fn", bound=Callable[..., Any])


def _answered_form(person: Any) -> bool:
    """Whether the person was shown the confirmation form (a resolver that did not ask yields an
    accepted outcome carrying NOT_ASKED)."""
    if isinstance(person, DeclinedElicitation | CancelledElicitation):
        return True
    return isinstance(person, AcceptedElicitation) and isinstance(person.data, PersonConfirms | PersonCounts)


def build_server(service: Service, settings: Settings) -> MCPServer[Any]:
    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[Service]:
        await service.start()
        try:
            yield service  # the confirmation resolver finds the service here
        finally:
            await service.stop()

    who = Who(settings)
    hidden = known_secrets(settings)
    sandbox = service.backend.name == "sandbox"
    apps = card_apps(service, who, hidden)  # the draft card (MCP Apps); other clients read the text
    mcp = PlannerServer(
        "planner", version="0.1.0", instructions=INSTRUCTIONS, lifespan=lifespan, extensions=[apps]
    )
    mcp.who = who  # the confirmation resolver (server/elicit.py) asks the same `who`
    hide_app_tools_without_apps(mcp)
    card = {"ui": {"resourceUri": CARD_URI}}  # hosts with MCP Apps show the reply as the draft card

    def tool(annotations: ToolAnnotations, *, ui: bool = True) -> Callable[[_Fn], _Fn]:
        """Register a tool; its docstring, without the source's indentation, is the description."""

        def register(fn: _Fn) -> _Fn:
            mcp.add_tool(
                fn,
                description=inspect.cleandoc(fn.__doc__ or ""),
                annotations=annotations,
                meta=card if ui else None,
            )
            return fn

        return register

    async def decide(uid: str, draft_id: str, person: Any, confirm_count: int | None) -> Reply:
        """The person's answer to the confirmation form when they were asked, else the plain confirm."""
        if isinstance(person, AcceptedElicitation) and isinstance(person.data, PersonCounts):
            await service.confirm(uid, draft_id)  # pending -> awaiting the count
            return await service.confirm(uid, draft_id, confirm_count=person.data.count)
        if isinstance(person, AcceptedElicitation) and isinstance(person.data, PersonConfirms):
            if person.data.confirm:
                return await service.confirm(uid, draft_id)
            return await service.cancel(uid, draft_id)
        if isinstance(person, DeclinedElicitation):
            return await service.cancel(uid, draft_id)
        if isinstance(person, CancelledElicitation):
            return await service.not_confirmed(uid, draft_id)
        return await service.confirm(uid, draft_id, confirm_count=confirm_count)

    async def once(
        user: str, callback_id: str | None, tool: str, fn: Callable[[], Awaitable[Reply]]
    ) -> CallToolResult:
        reply = await observed(tool, user, lambda: guarded(service.once(user, callback_id, tool, fn)))
        return tool_result(mark(redact(neutralise(reply), hidden), sandbox))

    @tool(
        ToolAnnotations(
            title="Plan a request",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=False,
            open_world_hint=True,
        )
    )
    async def plan(
        ctx: Context[Any, Any],
        text: Annotated[
            str | None, Field(description="the person's words, as typed or transcribed (ru/en)")
        ] = None,
        intents: Annotated[
            Any,
            WithJsonSchema(
                {
                    "anyOf": [intents_schema(), {"type": "null"}],
                    "default": None,
                    "description": "what you understood the person wants, as typed intents (see the items); "
                    "send with `text`. Leave out to let the server read `text` itself.",
                }
            ),
        ] = None,
        command: Annotated[
            dict[str, Any] | None,
            Field(
                description="Client plumbing (an upstream ML interpreter), leave out: "
                "{intent: task_create|timeblock_create, confidence: 0..1, entities: {...}, rejected?}"
            ),
        ] = None,
        user_id: UserId = "",
        conversation_id: Annotated[
            str | None,
            Field(
                max_length=200, description="the chat/thread id; enables 'да'/'no' answers to a pending draft"
            ),
        ] = None,
        voice: Annotated[
            Voice | None,
            Field(description="Client plumbing (a bot's voice message), leave out: pass the words as text"),
        ] = None,
        language: Annotated[
            str | None, Field(max_length=16, description="'ru' or 'en'; detected from the text when omitted")
        ] = None,
        now: Annotated[
            str | None,
            Field(
                max_length=64,
                description="Leave out (the server's clock). ISO 8601 moment relative dates resolve against",
            ),
        ] = None,
        timezone: Annotated[
            str | None, Field(max_length=64, description="IANA zone, default Europe/Moscow")
        ] = None,
        callback_id: CallbackId = None,
        person: Annotated[ElicitationResult[Any], Resolve(ask_person_on_yes)] = None,  # type: ignore[assignment]
    ) -> Annotated[CallToolResult, Reply]:
        """Turn what the person said into a plan. Call this first, with their exact words.

        Reads (show, find, what's the status...) run now: status "answered" with `results`.
        Changes are NOT made: they come back as a Draft (status "draft_pending") with a preview of every
        call and its risks. Show the preview; call `confirm_draft` only after the person says yes.
        If status is "needs_clarification", ask the person `clarifying_question` (offer `choices`) and pass
        the answer to `pick`. "safe_fail" means nothing was done; ask them to rephrase.
        In a conversation with a pending draft, the person's plain "да"/"yes" confirms it (status "confirmed",
        a bulk draft first asks for the count) and "нет"/"no" cancels it; a confirmed draft runs only when you
        call `execute_draft`. Any other message cancels the pending draft and the reply says so."""
        uid = who(ctx, user_id)
        if timezone is None and ctx.headers is not None:
            timezone = ctx.headers.get("x-timezone") or None  # DESIGN §9: a bot sends X-Timezone
        if _answered_form(person) and conversation_id:
            # "да" to a pending draft, and the person answered the confirmation form: that decides
            pending = await service.store.pending_in_conversation(uid, conversation_id)
            if pending is not None:
                return await once(uid, callback_id, "plan", lambda: decide(uid, pending.id, person, None))
        return await once(
            uid,
            callback_id,
            "plan",
            lambda: service.plan(
                uid,
                text=text,
                command=command,
                intents=intents,
                voice=voice,
                language=language,
                now=now,
                timezone=timezone,
                conversation_id=conversation_id,
            ),
        )

    @tool(
        ToolAnnotations(
            title="Answer the open question",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=False,
            open_world_hint=True,
        )
    )
    async def pick(
        ctx: Context[Any, Any],
        plan_id: Annotated[str, Field(max_length=128, description="plan.plan_id of the reply that asked")],
        question_id: Annotated[
            str, Field(max_length=128, description="the open question's id (reply.question_id)")
        ],
        value: Annotated[str | None, Field(max_length=64, description="the chosen choice's value")] = None,
        text: Annotated[
            str | None, Field(max_length=4000, description="a free-text answer, when free text is allowed")
        ] = None,
        user_id: UserId = "",
        callback_id: CallbackId = None,
    ) -> Annotated[CallToolResult, Reply]:
        """Answer the clarifying question of a plan with the person's choice (`value`) or words (`text`).

        Returns the next question, or the finished plan: a Draft to confirm, or read results.
        Relative dates in the answer ("завтра в 10:00") resolve against the original request's time.
        Never pick on the person's behalf when they have not answered."""
        uid = who(ctx, user_id)
        return await once(
            uid,
            callback_id,
            "pick",
            lambda: service.pick(uid, plan_id=plan_id, question_id=question_id, value=value, text=text),
        )

    @tool(
        ToolAnnotations(
            title="Confirm a draft",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        )
    )
    async def confirm_draft(
        ctx: Context[Any, Any],
        draft_id: DraftId,
        user_id: UserId = "",
        callback_id: CallbackId = None,
        confirm_count: Annotated[
            int | None,
            Field(
                ge=0,
                le=100000,
                description="bulk drafts only: the number of changes exactly as the person typed it",
            ),
        ] = None,
        person: Annotated[ElicitationResult[Any], Resolve(ask_person)] = None,  # type: ignore[assignment]
    ) -> Annotated[CallToolResult, Reply]:
        """Record the person's yes for a draft. Call ONLY after the person explicitly agreed to the preview
        they were shown (a button press or "да"/"yes"); never on your own initiative.

        A bulk draft (more than 5 changes) first answers "needs_bulk_confirmation" with a question like
        "That is 12 changes at once. To confirm, type the number of changes: 12": ask the person, wait
        for them to type the number, then call again with confirm_count set to what they typed (never
        fill it in yourself). After "confirmed", call `execute_draft`. Where the client can show forms
        (MCP elicitation), the person is asked directly; their answer decides (no -> cancelled)."""
        uid = who(ctx, user_id)
        return await once(
            uid, callback_id, "confirm_draft", lambda: decide(uid, draft_id, person, confirm_count)
        )

    @tool(
        ToolAnnotations(
            title="Execute a confirmed draft",
            read_only_hint=False,
            destructive_hint=True,
            idempotent_hint=True,
            open_world_hint=True,
        )
    )
    async def execute_draft(
        ctx: Context[Any, Any],
        draft_id: DraftId,
        user_id: UserId = "",
        callback_id: CallbackId = None,
        dry_run: Annotated[
            bool,
            Field(description="resolve and validate every call, return the exact requests, change nothing"),
        ] = False,
    ) -> Annotated[CallToolResult, Reply]:
        """Run a confirmed draft: this is when Attio, Linear or the calendar change. Each change runs at most
        once: calling again returns the stored outcome. Returns per-action results with links.
        With dry_run=true nothing changes and the exact requests are returned. A client that sends a
        progress token hears of each action as it finishes (progress = actions done of total)."""
        uid = who(ctx, user_id)

        async def progress(done: int, total: int, line: str) -> None:
            await ctx.report_progress(done, total, neutralise_text(redact_text(line, hidden)))

        return await once(
            uid,
            callback_id,
            "execute_draft",
            lambda: service.execute(uid, draft_id, dry_run=dry_run, progress=progress),
        )

    @tool(
        ToolAnnotations(
            title="Cancel a draft",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
        ui=False,
    )
    async def cancel_draft(
        ctx: Context[Any, Any],
        draft_id: DraftId,
        user_id: UserId = "",
        callback_id: CallbackId = None,
    ) -> Annotated[CallToolResult, Reply]:
        """Cancel a draft that has not run yet (the person said no or changed their mind). Nothing is changed."""
        uid = who(ctx, user_id)
        return await once(uid, callback_id, "cancel_draft", lambda: service.cancel(uid, draft_id))

    @tool(ToolAnnotations(title="List my drafts", read_only_hint=True, open_world_hint=False), ui=False)
    async def list_drafts(
        ctx: Context[Any, Any],
        user_id: UserId = "",
        include_finished: Annotated[
            bool, Field(description="also list executed, cancelled and expired drafts")
        ] = False,
        language: Annotated[
            str | None, Field(description="'ru' or 'en' for the message; default: the drafts' language")
        ] = None,
    ) -> Annotated[CallToolResult, Reply]:
        """List the person's drafts (open ones by default) with their status, summary and expiry."""
        uid = who(ctx, user_id)
        listed = await observed(
            "list_drafts",
            uid,
            lambda: guarded(service.list_drafts(uid, open_only=not include_finished, language=language)),
        )
        return tool_result(mark(redact(neutralise(listed), hidden), sandbox))

    @tool(ToolAnnotations(title="Read my audit log", read_only_hint=True, open_world_hint=False), ui=False)
    async def read_audit_log(
        ctx: Context[Any, Any],
        user_id: UserId = "",
        limit: Annotated[int, Field(ge=1, le=500, description="how many records, newest first")] = 50,
    ) -> Annotated[CallToolResult, Reply]:
        """The person's audit records, newest first: every decision with its input, intent and tool calls."""
        uid = who(ctx, user_id)
        logged = await observed("read_audit_log", uid, lambda: guarded(service.audit_log(uid, limit)))
        return tool_result(mark(redact(neutralise(logged), hidden), sandbox))

    register_resources(mcp, service, who, hidden)
    return mcp
