"""The draft tools behind the MCP boundary: confirm (with the counted bulk step), execute (or dry-run),
cancel, list, and the audit log."""

from __future__ import annotations

import re

from drafts import Draft, Executor, Progress
from planner import Planner
from planner.wording import changes_ru
from server._helpers import call_summary
from server._parts import ServicePart
from server.render import execution_message, t, when
from server.replies import Reply

__all__ = ["BULK_QUESTION_ID", "ID_PATTERN", "NOT_FOUND", "DraftCommands", "not_found"]

NOT_FOUND = "Черновик не найден. / Draft not found (list_drafts shows the open ones)."
ID_PATTERN = re.compile(r"^[A-Za-z0-9_\-.:]{1,128}$")
# The open question of a bulk draft: its answer is `confirm_count`, typed by the person.
BULK_QUESTION_ID = "confirm_count"


def not_found(message: str = NOT_FOUND) -> Reply:
    """A missing draft, plan or question, and another user's: one answer for all (DESIGN §4, §10)."""
    return Reply(ok=False, status="not_found", user_message=message)


_STATUS_WORDS = {
    "pending": ("ждёт подтверждения", "waiting for your yes"),
    "awaiting_bulk_confirmation": ("ждёт числа изменений", "waiting for the count"),
    "confirmed": ("подтверждён", "confirmed"),
    "executing": ("выполняется", "running"),
    "executed": ("выполнен", "done"),
    "partially_executed": ("выполнен частично", "partly done"),
    "failed": ("не выполнен", "failed"),
    "cancelled": ("отменён", "cancelled"),
    "expired": ("истёк", "expired"),
}


class DraftCommands(ServicePart):
    """Mixed into Service; a stranger's draft id is answered exactly like a missing one."""

    planner: Planner
    executor: Executor

    async def _draft_or_missing(self, user: str, draft_id: str) -> Draft | Reply:
        draft = await self.store.get_draft(draft_id, user) if ID_PATTERN.match(draft_id or "") else None
        if draft is None:
            return not_found()
        return draft

    async def confirm(
        self,
        user: str,
        draft_id: str,
        *,
        confirm_count: int | None = None,
        conversation_id: str | None = None,
    ) -> Reply:
        found = await self._draft_or_missing(user, draft_id)
        if isinstance(found, Reply):
            return found
        d = found
        lang = d.language
        if d.status == "pending" and d.bulk_count:
            await self.store.transition(d.id, user, {"pending"}, "awaiting_bulk_confirmation")
            return await self._bulk_question(user, d.id, lang, conversation_id)
        if d.status == "awaiting_bulk_confirmation":
            if confirm_count != d.bulk_count:
                return await self._bulk_question(
                    user, d.id, lang, conversation_id, wrong=confirm_count is not None
                )
            won = await self.store.transition(d.id, user, {"awaiting_bulk_confirmation"}, "confirmed")
        elif d.status == "pending":
            won = await self.store.transition(d.id, user, {"pending"}, "confirmed")
        else:
            won = False
        current = await self.store.get_draft(d.id, user)
        assert current is not None
        if current.status == "confirmed":
            msg = t(
                lang,
                "Подтверждено — можно выполнять.",
                "Confirmed - ready to run.",
            )
            if won:
                await self._audit(
                    user, current.conversation_id, f"confirm {d.id}", "CONFIRM_YES", "CONFIRMED", None, msg
                )
            return Reply(ok=True, status="confirmed", user_message=msg, draft=current)
        return self._draft_state_reply(current)

    async def _bulk_question(
        self, user: str, draft_id: str, lang: str, conversation_id: str | None, wrong: bool = False
    ) -> Reply:
        d = await self.store.get_draft(draft_id, user)
        assert d is not None
        n = d.bulk_count or len(d.actions)
        q = t(
            lang,
            f"Это {changes_ru(n)} сразу. Чтобы подтвердить, напишите число изменений: {n}.",
            f"That is {n} changes at once. To confirm, type the number of changes: {n}.",
        )
        if wrong:
            q = t(
                lang,
                f"Число не совпало. Чтобы подтвердить, напишите: {n}.",
                f"The number did not match. To confirm, type: {n}.",
            )
        await self._audit(
            user,
            conversation_id or d.conversation_id,
            f"confirm {draft_id}",
            "CONFIRM_YES",
            "REQUEST_CONFIRMATION",
            None,
            q,
        )
        # No choice carries the count: a model must ask the person and pass what they typed.
        return Reply(
            ok=False,
            status="needs_bulk_confirmation",
            clarifying_question=q,
            question_id=BULK_QUESTION_ID,
            user_message=q,
            draft=d,
        )

    async def execute(
        self, user: str, draft_id: str, *, dry_run: bool, progress: Progress | None = None
    ) -> Reply:
        found = await self._draft_or_missing(user, draft_id)
        if isinstance(found, Reply):
            return found
        d = found
        lang = d.language
        if dry_run or self.settings.dry_run:
            if d.status not in ("pending", "awaiting_bulk_confirmation", "confirmed"):
                return self._draft_state_reply(d)
            requests = await self.executor.dry_run(d.id, user)
            msg = t(
                lang,
                "Пробный прогон: ничего не изменено. Будут отправлены запросы:",
                "Dry run: nothing changed. These requests would be sent:",
            )
            lines = [f"{r['index'] + 1}. {r['tool_slug']} {r.get('arguments')}"[:300] for r in requests or []]
            await self._audit(
                user, d.conversation_id, f"execute {d.id} (dry run)", "MUTATE", "DRY_RUN", requests, msg
            )
            return Reply(
                ok=True, status="dry_run", user_message="\n".join([msg, *lines]), draft=d, results=requests
            )
        if d.status in ("pending", "awaiting_bulk_confirmation"):
            return Reply(
                ok=False,
                status="needs_bulk_confirmation"
                if d.status == "awaiting_bulk_confirmation"
                else "draft_pending",
                draft=d,
                user_message=t(
                    lang,
                    "Сначала подтвердите черновик (confirm_draft) — без подтверждения ничего не выполняю.",
                    "Confirm the draft first (confirm_draft): nothing runs without the person's yes.",
                ),
            )
        result, ran = await self.executor.run_once(d.id, user, progress=progress)
        if result is None:
            return not_found()
        self.planner.directory.invalidate()
        if ran and result.status in ("executed", "partially_executed", "failed"):
            await self._audit(
                user,
                result.conversation_id,
                f"execute {d.id}",
                "MUTATE",
                "EXECUTE",
                [call_summary(a) for a in result.actions],
                execution_message(result),
            )
        return self._draft_state_reply(result)

    def _draft_state_reply(self, d: Draft) -> Reply:
        lang = d.language
        results = [
            {
                "index": a.index,
                "operation": a.operation,
                "status": a.status,
                "preview": a.preview,
                "link": a.link,
                "error": a.error,
                "data": a.result,
            }
            for a in d.actions
        ]
        if d.status in ("executed", "partially_executed", "failed"):
            return Reply(
                ok=d.status == "executed",
                status=d.status,
                user_message=execution_message(d),
                draft=d,
                results=results,
            )
        if d.status == "executing":
            return Reply(
                ok=True, status="executing", draft=d, user_message=t(lang, "Выполняется…", "Running…")
            )
        if d.status == "confirmed":
            return Reply(
                ok=True, status="confirmed", draft=d, user_message=t(lang, "Подтверждено.", "Confirmed.")
            )
        if d.status in ("cancelled", "expired"):
            return Reply(
                ok=False,
                status=d.status,
                draft=d,
                user_message=t(
                    lang,
                    "Черновик отменён." if d.status == "cancelled" else "Черновик истёк — повторите запрос.",
                    "The draft was cancelled."
                    if d.status == "cancelled"
                    else "The draft expired - please ask again.",
                ),
            )
        return Reply(ok=True, status="draft_pending", draft=d, user_message=d.summary)

    async def not_confirmed(self, user: str, draft_id: str) -> Reply:
        """The person dismissed the confirmation form: nothing changes, the draft stays open."""
        found = await self._draft_or_missing(user, draft_id)
        if isinstance(found, Reply):
            return found
        return Reply(
            ok=False,
            status="needs_bulk_confirmation"
            if found.status == "awaiting_bulk_confirmation"
            else "draft_pending",
            draft=found,
            user_message=t(
                found.language, "Не подтверждено — черновик ждёт.", "Not confirmed - the draft is waiting."
            ),
        )

    async def cancel(self, user: str, draft_id: str) -> Reply:
        found = await self._draft_or_missing(user, draft_id)
        if isinstance(found, Reply):
            return found
        won = await self.store.transition(
            found.id, user, {"pending", "awaiting_bulk_confirmation", "confirmed"}, "cancelled"
        )
        current = await self.store.get_draft(found.id, user)
        assert current is not None
        if won:
            await self._audit(
                user,
                current.conversation_id,
                f"cancel {found.id}",
                "CONFIRM_NO",
                "CANCEL_PENDING",
                None,
                "cancelled",
            )
        return self._draft_state_reply(current)

    async def list_drafts(self, user: str, *, open_only: bool, language: str | None = None) -> Reply:
        drafts = await self.store.list_drafts(user, open_only=open_only)
        lang = language if language in ("ru", "en") else (drafts[0].language if drafts else "en")
        rows = [
            {
                "id": d.id,
                "status": d.status,
                "summary": d.summary,
                "expires_at": d.expires_at,
                "actions": len(d.actions),
            }
            for d in drafts
        ]
        lines = []
        for d in drafts:
            line = f"• {d.summary} — {t(lang, *_STATUS_WORDS.get(d.status, (d.status, d.status)))}"
            if d.status in ("pending", "awaiting_bulk_confirmation", "confirmed"):
                until = when(d.expires_at, lang, zone=self.settings.timezone)
                line += t(lang, f", до {until}", f", until {until}")
            lines.append(f"{line} (id {d.id})")
        empty = t(lang, "Открытых черновиков нет.", "No open drafts.")
        if not open_only:
            empty = t(lang, "Черновиков нет.", "No drafts.")
        return Reply(ok=True, status="answered", user_message="\n".join(lines) or empty, results=rows)

    async def audit_log(self, user: str, limit: int) -> Reply:
        rows = await self.store.read_audit(user, limit=limit)
        return Reply(ok=True, status="answered", user_message=f"{len(rows)} records", results=rows)
