"""`planner-mcp plan "…" [--dry-run]`: a one-shot preview in the terminal.

It prints what a person would read in a chat: the draft's preview (or the answer, or the one open
question with its numbered choices, never the ids), then, with `--dry-run`, every request exactly as
it would be sent, whole. Nothing changes: a dry run only previews, and the draft it made for that is
cancelled, which the output says in so many words.
"""

from __future__ import annotations

import json
from typing import Any

from server.render import t
from server.replies import Reply
from server.sandbox_mode import mark
from server.service import Service

__all__ = ["print_preview"]

USER = "local"


def _question(reply: Reply) -> list[str]:
    lines = [reply.clarifying_question or reply.user_message or ""]
    if (
        reply.user_message
        and reply.clarifying_question
        and reply.clarifying_question not in reply.user_message
    ):
        lines.insert(0, reply.user_message)
    lines += [f"  {n}) {c.label}" for n, c in enumerate(reply.choices, 1)]
    return lines


def _requests(requests: list[dict[str, Any]], lang: str) -> list[str]:
    lines = [t(lang, "Запросы, которые были бы отправлены:", "The requests that would be sent:")]
    for r in requests:
        lines.append(f"{int(r.get('index', 0)) + 1}. {r.get('tool_slug')}")
        body = json.dumps(r.get("arguments"), ensure_ascii=False, indent=2)
        lines.extend(f"   {line}" for line in body.splitlines())
    return lines


async def print_preview(
    service: Service, text: str, *, now: str | None, dry_run: bool, json_out: bool
) -> int:
    reply = await service.plan(
        USER,
        text=text,
        command=None,
        voice=None,
        language=None,
        now=now,
        timezone=None,
        conversation_id=None,
    )
    reply = mark(reply, service.backend.name == "sandbox")
    if reply.status == "needs_clarification":
        print("\n".join(_question(reply)))
    else:
        print(reply.user_message or reply.status)
    shown = [reply]
    if reply.draft is not None and dry_run:
        lang = reply.draft.language
        run = await service.execute(USER, reply.draft.id, dry_run=True)
        print()
        print("\n".join(_requests(list(run.results or []), lang)))
        await service.cancel(USER, reply.draft.id)
        print()
        print(
            t(
                lang,
                "Пробный прогон: ничего не изменено, черновик отменён.",
                "Dry run: nothing changed, the draft was cancelled.",
            )
        )
        shown.append(run)
    if json_out:
        print(json.dumps([r.model_dump(mode="json") for r in shown], ensure_ascii=False, indent=2))
    return 0 if reply.ok or reply.status == "needs_clarification" else 1
