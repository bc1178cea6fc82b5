"""Resources and a prompt: the person's drafts as `planner://drafts` (the open ones) and
`planner://drafts/{draft_id}` (one), and the "review my drafts" prompt.

A resource is read by the client, not called by the model, so it carries no `user_id`: the reader is
whoever the transport says (the bearer token over HTTP, the process owner over stdio), exactly as for
the tools. Another user's draft reads exactly like a missing one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from contextvars import ContextVar
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.resources import FunctionResource

from drafts import Draft
from server._drafts import ID_PATTERN
from server.identity import Who
from server.render import draft_steps, t, when
from server.replies import redact_text
from server.service import Service

__all__ = ["DRAFTS_URI", "PlannerServer", "register_resources"]

DRAFTS_URI = "planner://drafts"
_JSON = "application/json"

# The SDK hands a static resource no Context; the reader's identity travels beside the read instead.
_reader: ContextVar[Context[Any, Any] | None] = ContextVar("planner_resource_reader", default=None)


class PlannerServer(MCPServer[Any]):
    """MCPServer that knows who reads a resource, and whose `who` the tools and resolvers share."""

    who: Who | None = None

    async def read_resource(self, uri: Any, context: Context[Any, Any] | None = None) -> Any:
        token = _reader.set(context)
        try:
            return await super().read_resource(uri, context)
        finally:
            _reader.reset(token)


def _draft_json(draft: Draft, lang: str) -> dict[str, Any]:
    return {
        "id": draft.id,
        "uri": f"{DRAFTS_URI}/{draft.id}",
        "status": draft.status,
        "summary": draft.summary,
        "expires_at": draft.expires_at,
        "expires": when(draft.expires_at, lang),
        "bulk_count": draft.bulk_count,
        "steps": draft_steps(draft),
    }


def _dump(data: Any, hidden: Collection[str]) -> str:
    return redact_text(json.dumps(data, ensure_ascii=False, indent=1), hidden)


def register_resources(mcp: PlannerServer, service: Service, who: Who, hidden: Collection[str]) -> None:
    async def pending(ctx: Context[Any, Any] | None) -> list[Draft]:
        return await service.store.list_drafts(who(ctx, ""), open_only=True)

    async def my_drafts() -> str:
        drafts = await pending(_reader.get())
        lang = drafts[0].language if drafts else "en"
        return _dump(
            {
                "user_message": t(
                    lang,
                    f"Черновиков ждут подтверждения: {len(drafts)}.",
                    f"Drafts waiting for confirmation: {len(drafts)}.",
                ),
                "drafts": [_draft_json(d, d.language) for d in drafts],
            },
            hidden,
        )

    mcp.add_resource(
        FunctionResource.from_function(
            my_drafts,
            uri=DRAFTS_URI,
            name="my_drafts",
            title="My pending drafts",
            description="The person's drafts waiting for confirmation: id, summary, steps, expiry.",
            mime_type=_JSON,
        )
    )

    @mcp.resource(
        DRAFTS_URI + "/{draft_id}",
        name="draft",
        title="A draft",
        description="One of the person's drafts: status, every step and its outcome, expiry.",
        mime_type=_JSON,
    )
    async def one_draft(draft_id: str, ctx: Context[Any, Any]) -> str:
        uid = who(ctx, "")
        draft = await service.store.get_draft(draft_id, uid) if ID_PATTERN.match(draft_id) else None
        if draft is None:  # a stranger's draft reads exactly like a missing one
            raise ResourceNotFoundError("Draft not found.")
        return _dump(_draft_json(draft, draft.language), hidden)

    @mcp.prompt(
        name="review_my_drafts",
        title="Review my drafts",
        description="Go through the person's pending drafts with them: confirm or cancel each.",
    )
    async def review_my_drafts(ctx: Context[Any, Any]) -> str:
        drafts = await pending(ctx)
        listed: Iterable[str] = (
            f"- {d.id}: {d.summary} ({len(d.actions)} steps, expires {when(d.expires_at, d.language)})"
            for d in drafts
        )
        return redact_text(
            "Review my pending drafts with me, in my language.\n"
            + ("\n".join(listed) or "(I have no pending drafts: say so and stop.)")
            + "\nFor each draft show its steps and risks (read planner://drafts/<id> or call list_drafts), "
            "and ask me whether to run it. Call confirm_draft only for the ones I say yes to, then "
            "execute_draft; call cancel_draft for the ones I say no to. Never decide for me.",
            hidden,
        )
