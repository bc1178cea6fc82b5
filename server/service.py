"""What the tools do, independent of MCP: plan, pick, confirm, execute, cancel, list, audit.

Every decision is written to the audit log. Replies built here never carry exception text from
below the boundary: errors are mapped to short messages for the person.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from drafts import Draft, Executor, SqliteStore
from planner import Outcome, Planner, PlanRequest, is_no, is_yes
from planner.core import MAX_TEXT
from planner.models import Voice
from server.render import draft_message, execution_message, query_message, t
from server.replies import Reply
from server.settings import Settings
from toolkits.base import Backend
from toolkits.errors import ToolkitError

__all__ = ["Service"]

log = logging.getLogger("planner.service")
_ID = re.compile(r"^[A-Za-z0-9_\-.:]{1,128}$")


class Service:
    def __init__(
        self, settings: Settings, store: SqliteStore, backend: Backend, planner: Planner, executor: Executor
    ) -> None:
        self.settings = settings
        self.store = store
        self.backend = backend
        self.planner = planner
        self.executor = executor

    # ---- callback replay -----------------------------------------------------------------------
    async def once(
        self, user: str, callback_id: str | None, tool: str, fn: Callable[[], Awaitable[Reply]]
    ) -> Reply:
        """Run `fn` once per (user, callback_id); a repeated id gets the stored reply and does nothing."""
        if not callback_id:
            return await fn()
        if len(callback_id) > 200:
            return Reply(
                ok=False, status="failed", user_message="callback_id is too long (200 characters at most)."
            )
        owner, stored = await self.store.callback_begin(user, callback_id, tool)
        if stored is None and not owner:
            stored = await self.store.callback_wait(user, callback_id, timeout_s=30)
        if stored is not None:
            return Reply.model_validate(stored)
        try:
            reply = await fn()
        except BaseException:
            await self.store.callback_abandon(user, callback_id)
            raise
        await self.store.callback_finish(user, callback_id, reply.model_dump(mode="json"))
        return reply

    # ---- plan ---------------------------------------------------------------------------------
    async def plan(
        self,
        user: str,
        *,
        text: str | None,
        command: Any,
        voice: Voice | None,
        language: str | None,
        now: str | None,
        timezone: str | None,
        conversation_id: str | None,
    ) -> Reply:
        lang = language if language in ("ru", "en") else None
        given = [x for x in (text, command, voice) if x is not None and x != ""]
        if len(given) != 1:
            return self._bad(
                lang,
                "Нужен ровно один из параметров: text, command или voice.",
                "Pass exactly one of text, command or voice.",
            )
        if text is not None and len(text) > MAX_TEXT:
            return self._bad(
                lang or _lang_of(text),
                f"Слишком длинный запрос ({len(text)} символов, максимум {MAX_TEXT}).",
                f"The request is too long ({len(text)} characters, at most {MAX_TEXT}).",
            )
        if text is not None and not text.strip():
            return self._bad(
                lang, "Пустой запрос: напишите, что сделать.", "The request is empty: say what to do."
            )
        try:
            tz_name = timezone or self.settings.timezone
            tz = ZoneInfo(tz_name)
        except (ZoneInfoNotFoundError, ValueError):
            return self._bad(
                lang,
                f"Неизвестный часовой пояс «{str(timezone)[:40]}».",
                f"Unknown timezone '{str(timezone)[:40]}'.",
            )
        moment = _parse_now(now, tz)
        if now is not None and moment is None:
            return self._bad(
                lang, "Параметр now должен быть датой-временем ISO 8601.", "now must be an ISO 8601 datetime."
            )
        if voice is not None and voice.confidence is not None and voice.confidence < 0.40:
            lang2 = lang or _lang_of(voice.transcript)
            return Reply(
                ok=False,
                status="safe_fail",
                user_message=t(
                    lang2,
                    f"Не уверен, что расслышал: «{voice.transcript[:200]}». Повторите, пожалуйста.",
                    f"I'm not sure I heard you right: '{voice.transcript[:200]}'. Please say it again.",
                ),
            )
        spoken = text if text is not None else (voice.transcript if voice else None)
        if spoken is not None and conversation_id:
            pending = await self._pending_answer(user, conversation_id, spoken, lang or _lang_of(spoken))
            if pending is not None:
                return pending
        request = PlanRequest(
            text=text, command=command, voice=voice, language=lang, now=moment, timezone=tz_name
        )
        plan_id = "p_" + secrets.token_urlsafe(12)
        outcome = await self.planner.plan(request, plan_id)
        state = {
            "text": text,
            "command": command,
            "voice": voice.model_dump() if voice else None,
            "language": lang,
            "now": outcome.plan.now,
            "timezone": tz_name,
            "conversation_id": conversation_id,
            "answers": {},
        }
        return await self._respond(
            user, conversation_id, outcome, state, input_text=spoken or _cmd_text(command)
        )

    async def _pending_answer(self, user: str, conversation_id: str, text: str, lang: str) -> Reply | None:
        """Seed 004 rule 1: a pending draft in this conversation is confirmed by yes, cancelled by no;
        any other message cancels it and is planned as a new request."""
        pending = await self.store.pending_in_conversation(user, conversation_id)
        number = re.fullmatch(r"\s*(\d{1,4})\s*", text)
        if pending is None:
            if is_yes(text) or is_no(text):
                return Reply(
                    ok=False,
                    status="answered",
                    user_message=t(
                        lang,
                        "Нет черновика, который ждёт подтверждения.",
                        "There is no draft waiting for confirmation.",
                    ),
                )
            return None
        if is_yes(text) or (number and pending.status == "awaiting_bulk_confirmation"):
            count = int(number.group(1)) if number else None
            reply = await self.confirm(user, pending.id, confirm_count=count, conversation_id=conversation_id)
            if reply.status == "confirmed":
                return await self.execute(user, pending.id, dry_run=False)
            return reply
        if is_no(text):
            return await self.cancel(user, pending.id)
        await self.store.transition(pending.id, user, {"pending", "awaiting_bulk_confirmation"}, "cancelled")
        await self._audit(
            user,
            conversation_id,
            text,
            "CANCEL_PENDING",
            "CANCEL_PENDING",
            None,
            f"draft {pending.id} cancelled by a new request",
        )
        return None

    async def pick(
        self, user: str, *, plan_id: str, question_id: str, value: str | None, text: str | None
    ) -> Reply:
        if not _ID.match(plan_id or "") or not _ID.match(question_id or ""):
            return self._bad(None, "Неверный plan_id или question_id.", "Invalid plan_id or question_id.")
        state = await self.store.load_plan(plan_id, user)
        if state is None or not state.get("open_question"):
            return Reply(
                ok=False,
                status="failed",
                user_message=t(
                    (state or {}).get("language") or "en",
                    "Этот вопрос уже закрыт или не найден. Повторите запрос.",
                    "That question is not open (answered, expired or unknown). Please ask again.",
                ),
            )
        lang = state.get("lang") or "en"
        q = state["open_question"]
        if q["id"] != question_id:
            return Reply(
                ok=False,
                status="needs_clarification",
                clarifying_question=q["question"],
                question_id=q["id"],
                choices=q.get("choices", []),
                user_message=t(lang, "Сейчас открыт другой вопрос.", "A different question is open now."),
            )
        answer = value if value not in (None, "") else text
        if answer is None or not str(answer).strip():
            return self._bad(
                lang,
                "Нужен value (вариант) или text (свой ответ).",
                "Pass value (a choice) or text (your answer).",
            )
        answer = str(answer).strip()[:MAX_TEXT]
        allowed = {c["value"] for c in q.get("choices", [])}
        if value not in (None, "") and allowed and answer not in allowed and not q.get("free_text_allowed"):
            return Reply(
                ok=False,
                status="needs_clarification",
                clarifying_question=q["question"],
                question_id=q["id"],
                choices=q.get("choices", []),
                user_message=t(
                    lang, "Такого варианта нет — выберите из списка.", "That is not one of the choices."
                ),
            )
        if allowed and answer not in allowed and not q.get("free_text_allowed"):
            match = [c["value"] for c in q["choices"] if c["label"].lower().startswith(answer.lower())]
            if len(match) != 1:
                return Reply(
                    ok=False,
                    status="needs_clarification",
                    clarifying_question=q["question"],
                    question_id=q["id"],
                    choices=q.get("choices", []),
                    user_message=t(lang, "Выберите один из вариантов.", "Please pick one of the choices."),
                )
            answer = match[0]
        answers = dict(state.get("answers") or {})
        answers[question_id] = answer
        state["answers"] = answers
        voice = Voice.model_validate(state["voice"]) if state.get("voice") else None
        tz = ZoneInfo(state.get("timezone") or self.settings.timezone)
        request = PlanRequest(
            text=state.get("text"),
            command=state.get("command"),
            voice=voice,
            language=state.get("language") or lang,
            now=_parse_now(state.get("now"), tz),
            timezone=state.get("timezone") or self.settings.timezone,
        )
        outcome = await self.planner.plan(request, plan_id, answers)
        return await self._respond(
            user, state.get("conversation_id"), outcome, state, input_text=f"[pick] {answer}"
        )

    async def _respond(
        self,
        user: str,
        conversation_id: str | None,
        outcome: Outcome,
        state: dict[str, Any],
        *,
        input_text: str,
    ) -> Reply:
        plan = outcome.plan
        lang = plan.language
        state["lang"] = lang
        if outcome.status in ("invalid", "safe_fail"):
            reply = Reply(ok=False, status="safe_fail", user_message=outcome.user_message, plan=plan)
            await self._audit(
                user, conversation_id, input_text, "AMBIGUOUS", "RESPOND_ONLY", None, reply.user_message
            )
            return reply
        if outcome.status == "needs_clarification":
            assert outcome.question is not None
            state["open_question"] = outcome.question.model_dump()
            await self.store.save_plan(plan.plan_id, user, conversation_id, state, self.settings.plan_ttl_s)
            reply = Reply(
                ok=False,
                status="needs_clarification",
                user_message=outcome.user_message,
                clarifying_question=outcome.question.question,
                question_id=outcome.question.id,
                choices=outcome.question.choices,
                plan=plan,
            )
            await self._audit(
                user,
                conversation_id,
                input_text,
                plan.intent.upper(),
                "ASK_CLARIFICATION",
                None,
                outcome.question.question,
            )
            return reply
        if state.get("open_question") is not None:
            state["open_question"] = None
            await self.store.save_plan(plan.plan_id, user, conversation_id, state, 60)
        writes = plan.write_actions()
        if not writes:
            results = await self._run_reads(plan)
            message = "\n".join(
                x for x in (outcome.user_message, query_message(plan, results) if results else "") if x
            )
            message = message or t(lang, "Изменений не нужно.", "Nothing needs to change.")
            if outcome.already_done:
                results = [*results, *({"status": "already_done", **d} for d in outcome.already_done)]
            reply = Reply(ok=True, status="answered", user_message=message, plan=plan, results=results)
            await self._audit(
                user,
                conversation_id,
                input_text,
                "QUERY",
                "INVOKE_TOOL",
                [_call(a) for a in plan.actions],
                message,
            )
            return reply
        bulk = len(writes) if "bulk" in plan.risk_kinds() else None
        draft = await self.store.create_draft(
            user_id=user,
            conversation_id=conversation_id,
            plan_id=plan.plan_id,
            summary=plan.summary,
            language=lang,
            actions=plan.actions,
            bulk_count=bulk,
            ttl_s=self.settings.draft_ttl_s,
            now=datetime.now(ZoneInfo("UTC")),
        )
        message = draft_message(plan, draft, outcome.user_message)
        reply = Reply(
            ok=True,
            status="draft_pending",
            user_message=message,
            plan=plan,
            draft=draft,
            results=[{"status": "already_done", **d} for d in outcome.already_done] or None,
        )
        await self._audit(
            user,
            conversation_id,
            input_text,
            "MUTATE",
            "REQUEST_CONFIRMATION",
            [_call(a) for a in plan.actions],
            message,
        )
        return reply

    async def _run_reads(self, plan: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for a in plan.actions:
            try:
                res = await self.backend.execute(a.tool_slug, a.args)
            except ToolkitError as exc:
                out.append(
                    {"operation": a.operation, "tool_slug": a.tool_slug, "ok": False, "error": str(exc)[:300]}
                )
                continue
            entry = {
                "operation": a.operation,
                "tool_slug": a.tool_slug,
                "ok": bool(res.get("successful")),
                "data": res.get("data"),
            }
            if not res.get("successful"):
                entry["error"] = str(res.get("error") or "failed")[:300]
            out.append(entry)
        return out

    # ---- drafts -------------------------------------------------------------------------------
    async def _draft_or_missing(self, user: str, draft_id: str) -> Draft | Reply:
        draft = await self.store.get_draft(draft_id, user) if _ID.match(draft_id or "") else None
        if draft is None:
            return Reply(ok=False, status="failed", user_message="Черновик не найден. / Draft not found.")
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
        n = d.bulk_count
        q = t(lang, f"Создать {n} изменений? Подтвердите: {n}", f"Make {n} changes? Confirm: {n}")
        if wrong:
            q = t(lang, f"Число не совпало. Подтвердите: {n}", f"The number did not match. Confirm: {n}")
        await self._audit(
            user,
            conversation_id or d.conversation_id,
            f"confirm {draft_id}",
            "CONFIRM_YES",
            "REQUEST_CONFIRMATION",
            None,
            q,
        )
        return Reply(
            ok=False,
            status="needs_bulk_confirmation",
            clarifying_question=q,
            user_message=q,
            choices=[{"label": t(lang, f"Подтвердить {n}", f"Confirm {n}"), "value": str(n)}],  # type: ignore[list-item]
            draft=d,
        )

    async def execute(self, user: str, draft_id: str, *, dry_run: bool) -> Reply:
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
        was_confirmed = d.status == "confirmed"
        result = await self.executor.execute(d.id, user)
        if result is None:
            return Reply(ok=False, status="failed", user_message="Черновик не найден. / Draft not found.")
        self.planner.directory.invalidate()
        if was_confirmed and result.status in ("executed", "partially_executed", "failed"):
            await self._audit(
                user,
                result.conversation_id,
                f"execute {d.id}",
                "MUTATE",
                "EXECUTE",
                [_call(a) for a in result.actions],
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

    async def list_drafts(self, user: str, *, open_only: bool) -> Reply:
        drafts = await self.store.list_drafts(user, open_only=open_only)
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
        lang = drafts[0].language if drafts else "en"
        msg = "\n".join(f"• {r['id']} [{r['status']}] {r['summary']}" for r in rows) or t(
            lang, "Открытых черновиков нет.", "No open drafts."
        )
        return Reply(ok=True, status="answered", user_message=msg, results=rows)

    async def audit_log(self, user: str, limit: int) -> Reply:
        rows = await self.store.read_audit(user, limit=limit)
        return Reply(ok=True, status="answered", user_message=f"{len(rows)} records", results=rows)

    # ---- helpers ------------------------------------------------------------------------------
    def _bad(self, lang: str | None, ru: str, en: str) -> Reply:
        return Reply(ok=False, status="safe_fail", user_message=t(lang or "en", ru, en))

    async def _audit(
        self,
        user: str,
        conversation_id: str | None,
        text: str,
        intent: str,
        decision: str,
        calls: list[dict[str, Any]] | None,
        preview: str | None,
    ) -> None:
        try:
            await self.store.audit(
                user_id=user,
                conversation_id=conversation_id,
                input_message=text[:1000],
                intent=intent,
                decision=decision,
                tool_calls=calls,
                response_preview=preview,
            )
        except Exception:  # the audit must never turn a good answer into an error
            log.exception("audit write failed")


def _call(a: Any) -> dict[str, Any]:
    return {"tool_slug": a.tool_slug, "operation": a.operation, "idempotency_scope": a.idempotency_scope}


def _lang_of(text: str) -> str:
    from planner.text import detect_language

    return detect_language(text[:500])


def _cmd_text(command: Any) -> str:
    import json

    try:
        return "[command] " + json.dumps(command, ensure_ascii=False)[:500]
    except (TypeError, ValueError):
        return "[command]"


def _parse_now(now: str | None, tz: ZoneInfo) -> datetime | None:
    if now is None:
        return None
    try:
        dt = datetime.fromisoformat(str(now).replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt.replace(tzinfo=tz) if dt.tzinfo is None else dt.astimezone(tz)
