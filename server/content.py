"""What a model reads of a tool result (DESIGN §4): a short text, with the whole reply structured.

The text content is what a model pays for at every turn, so it carries only what the next step
needs: the status, the ids to pass on, the person's message, the open question with its choices and
the links of what was done. `structuredContent` keeps the whole reply (plan, draft, results) for
clients and UIs that read it. `not_found` and `invalid` are errors (`isError`), with the same reply.
"""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult, TextContent

from server.replies import Reply

__all__ = ["ERRORS", "MAX_TEXT_BYTES", "text_content", "tool_result"]

ERRORS = frozenset({"not_found", "invalid"})
# A long read (a list of 15 issues) may pass 2 KB; anything beyond this is only in structuredContent.
MAX_TEXT_BYTES = 4000


def _ids(reply: Reply) -> list[str]:
    out: list[str] = [reply.status]
    if reply.draft is not None:
        out.append(f"draft_id={reply.draft.id}")
    if reply.question_id:
        if reply.plan is not None and reply.status == "needs_clarification":
            out.append(f"plan_id={reply.plan.plan_id}")
        out.append(f"question_id={reply.question_id}")
    return out


def _links(reply: Reply, message: str) -> list[str]:
    """Links of records done earlier (or in this run) that the message does not already show."""
    lines = []
    for r in reply.results or []:
        if not isinstance(r, dict) or r.get("status") != "already_done":
            continue
        link = r.get("link")
        if link and str(link) in message:
            continue
        lines.append(f"✓ {r.get('preview', '')}" + (f" {link}" if link else ""))
    return lines


def text_content(reply: Reply) -> str:
    """The reply as a model should read it: a bracketed line of status and ids, then the message."""
    message = reply.user_message or ""
    lines = [f"[{' '.join(_ids(reply))}]"]
    if message:
        lines.append(message)
    question = reply.clarifying_question
    if question and question not in message:
        lines.append(question)
    if reply.choices:
        lines.append("choices (label -> value for pick):")
        lines.extend(f"- {c.label} -> {c.value}" for c in reply.choices)
    lines.extend(_links(reply, message))
    return _cap("\n".join(lines))


def _cap(text: str) -> str:
    data = text.encode("utf-8")
    if len(data) <= MAX_TEXT_BYTES:
        return text
    cut = data[:MAX_TEXT_BYTES].decode("utf-8", errors="ignore")
    cut = cut.rsplit("\n", 1)[0] if "\n" in cut else cut
    return cut + "\n… (the rest is in the structured reply)"


def tool_result(reply: Reply) -> CallToolResult:
    structured: dict[str, Any] = reply.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(type="text", text=text_content(reply))],
        structured_content=structured,
        is_error=reply.status in ERRORS,
    )
