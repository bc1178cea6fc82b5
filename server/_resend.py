"""The person's "send it anyway" (DESIGN §7): after an outcome nobody could settle (the person was
told what to check), the changes in doubt become a new draft, each under a new idempotency scope that
supersedes the unknown one. It is confirmed and executed like any draft; the audit log records it."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from drafts import Draft, unsettled
from planner.models import Plan, PlanInputs
from server._parts import ServicePart
from server.render import draft_message, t
from server.replies import Reply

__all__ = ["Resend"]

_RECENT = 20  # how many of the person's latest drafts are searched for one in doubt


class Resend(ServicePart):
    """Mixed into Service."""

    async def _in_doubt(self, user: str, conversation_id: str | None) -> Draft | None:
        """The person's latest finished draft (of this conversation, when one is given) with a change
        whose outcome stayed unknown."""
        for draft in await self.store.list_drafts(user, open_only=False, limit=_RECENT):
            if conversation_id and draft.conversation_id != conversation_id:
                continue
            if draft.status in ("failed", "partially_executed") and any(
                a.status == "unknown" for a in draft.actions
            ):
                return draft
        return None

    async def send_anyway(self, user: str, conversation_id: str | None, said: str, lang: str) -> Reply | None:
        """A new draft that sends again what stayed unknown; None when nothing is in doubt (then the
        words are planned as a request like any other)."""
        earlier = await self._in_doubt(user, conversation_id)
        if earlier is None:
            return None
        actions, lost = unsettled(earlier)
        if not actions:
            return None
        kits = {a.toolkit for a in actions}
        kit = next(iter(kits))
        plan = Plan(
            plan_id="p_" + secrets.token_urlsafe(12),
            intent="mutate",
            domain="mixed" if len(kits) > 1 else ("calendar" if kit == "googlecalendar" else kit),  # type: ignore[arg-type]
            summary=t(lang, "Отправить ещё раз: ", "Send again: ") + actions[0].preview[:200],
            language=lang,  # type: ignore[arg-type]
            inputs=PlanInputs(raw_text=said[:200]),
            actions=actions,
        )
        draft = await self.store.create_draft(
            user_id=user,
            conversation_id=conversation_id,
            plan_id=plan.plan_id,
            summary=plan.summary,
            language=lang,
            actions=actions,
            bulk_count=None,
            ttl_s=self.settings.draft_ttl_s,
            now=datetime.now(UTC),
        )
        warning = t(
            lang,
            "Отправлю заново то, чей результат остался неизвестен. Если первое всё-таки прошло, будет дубликат.",
            "I will send again what stayed unknown. If the first attempt did land, there will be a duplicate.",
        )
        if lost:
            warning += " " + t(
                lang,
                f"Не могу повторить {len(lost)} шаг(а): их исходные данные не сохранились — повторите запрос.",
                f"{len(lost)} step(s) cannot be repeated (their inputs are gone): please ask again.",
            )
        message = draft_message(plan, draft, warning)
        calls = [
            {"operation": a.operation, "idempotency_scope": a.idempotency_scope, "supersedes": a.supersedes}
            for a in draft.actions
        ]
        await self._audit(user, conversation_id, said, "SEND_ANYWAY", "REQUEST_CONFIRMATION", calls, message)
        return Reply(ok=True, status="draft_pending", user_message=message, plan=plan, draft=draft)
