"""`planner-mcp chat`: talk to the planner in a terminal, the way a person talks to it in a chat.

Each line goes to `plan` in one conversation, through a real MCP client connected to the server in
memory, so the terminal sees exactly what Claude Desktop or the Telegram bot would. A clarifying
question's choices are numbered: type the number, or answer in words ("the second one", «вторую»);
both go to `pick`. A new request instead of an answer is planned as new and the question is dropped
(said so); "отмена" or `/cancel` leaves the question. A draft waits for "да"/"yes" (it is confirmed,
then the chat runs it with `execute_draft`) or "нет"/"no" (cancel it) — nothing changes before that;
`/cancel` cancels it too. A bulk draft asks for the count; type it. `/drafts` lists your drafts,
`/quit` (or end of input) leaves.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Callable, Iterable
from typing import Any

from mcp import Client

from server.app import build_server
from server.settings import Settings
from server.wiring import build_service

__all__ = ["converse", "run_chat"]

QUIT = {"/quit", "/exit", "/q", "выход"}
_DROPPED = "Вопрос снят. / Question dropped."
_OPEN = ("pending", "awaiting_bulk_confirmation")
_PAD = "    "
_MARKS = {
    "needs_clarification": "❓",
    "draft_pending": "📝",
    "needs_bulk_confirmation": "⚠️",
    "executed": "✅",
    "partially_executed": "⚠️",
    "failed": "⚠️",
    "cancelled": "✖",
    "expired": "⌛",
    "safe_fail": "🤔",
    "not_found": "⚠️",
    "confirmed": "👍",
    "invalid": "⚠️",
}


def _show(reply: dict[str, Any], out: Callable[[str], None]) -> None:
    """The reply as a person should read it: the message, then the question's numbered choices."""
    status = reply.get("status", "")
    message = reply.get("user_message") or ""
    question = reply.get("clarifying_question") or ""
    lines = message.splitlines() if message else []
    if question and question not in message:
        lines.append(question)
    if not lines:
        lines = [str(status)]
    mark = _MARKS.get(str(status))
    out(f"  {mark} {lines[0]}" if mark else f"{_PAD}{lines[0]}")
    for line in lines[1:]:
        out(f"{_PAD}{line}")
    for n, choice in enumerate(reply.get("choices") or [], 1):
        if status == "needs_clarification":
            out(f"{_PAD}{n}) {choice.get('label', '')}")
    if status == "draft_pending":
        out(f"{_PAD}(да / нет — yes / no)")


async def converse(
    client: Client,
    lines: Iterable[str] | None,
    out: Callable[[str], None],
    *,
    user: str = "local",
    now: str | None = None,
    prompt: str = "",
) -> int:
    """Run the conversation over `lines` (None: read standard input). Returns the number of replies
    that were errors the person could not act on (0 for a clean session)."""
    conversation = "chat-" + secrets.token_hex(4)
    question: tuple[str, str, list[dict[str, Any]], bool] | None = None
    waiting: str | None = None  # the draft shown last, while it waits for a yes
    source = iter(lines) if lines is not None else None
    errors = 0
    language: str | None = None  # the person's, from the last reply that showed it (for /drafts)
    while True:
        if source is None:
            try:
                line = await asyncio.to_thread(input, prompt)
            except EOFError:
                break
        else:
            got = next(source, None)
            if got is None:
                break
            line = got
        line = line.strip()
        if not line:
            continue
        if line.lower() in QUIT:
            break
        plan_args: dict[str, Any] = {"text": line, "user_id": user, "conversation_id": conversation}
        if now:
            plan_args["now"] = now
        dropped = False
        if line == "/drafts":
            listing: dict[str, Any] = {"user_id": user}
            if language:
                listing["language"] = language
            result = await client.call_tool("list_drafts", listing)
        elif line == "/cancel":
            if question is not None:
                question = None
                out(f"  ✖ {_DROPPED}")
                continue
            if waiting is None:
                out(f"{_PAD}Нечего отменять. / Nothing to cancel.")
                continue
            result = await client.call_tool("cancel_draft", {"draft_id": waiting, "user_id": user})
        elif question is not None:
            plan_id, question_id, choices, free_text = question
            args: dict[str, Any] = {"plan_id": plan_id, "question_id": question_id, "user_id": user}
            if line.isdecimal() and 1 <= int(line) <= len(choices):
                args["value"] = choices[int(line) - 1]["value"]
            else:
                args["text"] = line
            result = await client.call_tool("pick", args)
            again = result.structured_content if isinstance(result.structured_content, dict) else {}
            if not free_text and "text" in args and again.get("question_id") == question_id:
                # None of the choices: the person moved on to a new request (seed 004)
                result = await client.call_tool("plan", plan_args)
                dropped = True
        else:
            result = await client.call_tool("plan", plan_args)
        if not isinstance(result.structured_content, dict):  # arguments the schema refused
            errors += 1
            text = " ".join(str(getattr(c, "text", "")) for c in result.content)
            out(f"  ⚠️ {text or 'error'}")
            continue
        reply = dict(result.structured_content)
        errors += bool(result.is_error)  # `not_found` / `invalid`: shown, and nothing the person can act on
        if dropped:
            out(f"  ✖ {_DROPPED}")
        draft = reply.get("draft") or {}
        if reply.get("status") == "confirmed" and draft.get("id"):
            _show(reply, out)
            # the person said yes: the chat speaks for them and runs the draft (DESIGN §4)
            result = await client.call_tool("execute_draft", {"draft_id": draft["id"], "user_id": user})
            if not isinstance(result.structured_content, dict):
                errors += 1
                out("  ⚠️ " + " ".join(str(getattr(c, "text", "")) for c in result.content))
                continue
            reply = dict(result.structured_content)
            errors += bool(result.is_error)
        _show(reply, out)
        plan = reply.get("plan") or {}
        language = plan.get("language") or (reply.get("draft") or {}).get("language") or language
        draft = reply.get("draft") or {}
        waiting = str(draft["id"]) if draft.get("status") in _OPEN and draft.get("id") else None
        if reply.get("status") == "needs_clarification" and reply.get("question_id") and plan.get("plan_id"):
            asked = (plan.get("needs_clarification") or [{}])[0]
            question = (
                str(plan["plan_id"]),
                str(reply["question_id"]),
                list(reply.get("choices") or []),
                bool(asked.get("free_text_allowed", True)) or not reply.get("choices"),
            )
        else:
            question = None
    return errors


def run_chat(*, user: str = "local", now: str | None = None) -> int:
    """The interactive session behind `planner-mcp chat` (a prompt only when a person is typing)."""

    async def run() -> int:
        settings = Settings.from_env()
        service = build_service(settings)
        interactive = sys.stdin.isatty()
        if interactive:
            print(
                "planner-mcp chat — напишите, что сделать (/quit — выход). Nothing changes until you say yes."
            )
        async with Client(build_server(service, settings)) as client:
            await converse(client, None, print, user=user, now=now, prompt="› " if interactive else "")
        return 0

    return asyncio.run(run())
