"""Asking the person directly (MCP elicitation) before a draft is confirmed, where the client can.

A confirmation that the model passes along is only as trustworthy as the model; a form the client
shows to the person is not forgeable by text in a CRM record. Clients without the capability
(Claude Desktop today) keep the two-step flow: the model calls `confirm_draft` after the person's yes.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context, Elicit
from pydantic import BaseModel, Field

from drafts import Draft
from planner import is_yes
from planner.wording import changes_ru
from server.identity import Who, resolve_user
from server.render import t
from server.service import Service

__all__ = ["NOT_ASKED", "PersonConfirms", "PersonCounts", "ask_person", "ask_person_on_yes"]


class PersonConfirms(BaseModel):
    confirm: bool = Field(description="Run these changes? / Выполнить эти изменения?")


class PersonCounts(BaseModel):
    count: int = Field(description="Type the number of changes to confirm / Введите число изменений")


class _NotAsked:
    """The person was not asked (no elicitation support, a replayed callback, a draft not open)."""


NOT_ASKED = _NotAsked()


async def ask_person(draft_id: str, user_id: str, callback_id: str | None, ctx: Context[Any, Any]) -> Any:
    """Resolver for `confirm_draft`: a form for the person when the client supports elicitation."""
    caps = ctx.client_capabilities
    if caps is None or caps.elicitation is None:
        return NOT_ASKED
    service: Service = ctx.request_context.lifespan_context
    who = getattr(ctx.mcp_server, "who", None)  # the server's own (stable over stdio), see app.py
    uid = (
        who(ctx, user_id) if isinstance(who, Who) else resolve_user(ctx, user_id, service.settings.principals)
    )
    if callback_id and await service.store.callback_get(uid, callback_id) is not None:
        return NOT_ASKED
    draft = await service.store.get_draft(draft_id, uid)
    return _form(draft)


async def ask_person_on_yes(
    text: str | None,
    user_id: str,
    conversation_id: str | None,
    callback_id: str | None,
    ctx: Context[Any, Any],
) -> Any:
    """Resolver for `plan`: "да"/"yes" to a pending draft confirms through the same form as
    `confirm_draft` (DESIGN §4), where the client supports elicitation."""
    caps = ctx.client_capabilities
    if caps is None or caps.elicitation is None or text is None or not conversation_id or not is_yes(text):
        return NOT_ASKED
    service: Service = ctx.request_context.lifespan_context
    uid = resolve_user(ctx, user_id, service.settings.principals)
    if callback_id and await service.store.callback_get(uid, callback_id) is not None:
        return NOT_ASKED
    return _form(await service.store.pending_in_conversation(uid, conversation_id))


def _form(draft: Draft | None) -> Any:
    if draft is None or draft.status not in ("pending", "awaiting_bulk_confirmation"):
        return NOT_ASKED
    lang = draft.language
    steps = "\n".join(f"{a.index + 1}. {a.preview}" for a in draft.actions)
    if draft.bulk_count:
        n = draft.bulk_count
        ask = t(
            lang,
            f"Это {changes_ru(n)}. Введите {n}, чтобы подтвердить.",
            f"That is {n} changes. Type {n} to confirm.",
        )
        return Elicit(f"{draft.summary}\n{steps}\n{ask}", PersonCounts)
    return Elicit(f"{draft.summary}\n{steps}\n" + t(lang, "Выполнить?", "Run these changes?"), PersonConfirms)
