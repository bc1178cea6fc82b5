"""What the tools do, independent of MCP: plan, pick, confirm, execute, cancel, list, audit.

Every decision is written to the audit log. Replies built here never carry exception text from
below the boundary: errors are mapped to short messages for the person.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from drafts import CALLBACK_LEASE_S, DraftStore, Executor
from planner import Outcome, Planner, PlanRequest, is_no, is_yes
from planner.answers import refine
from planner.dialogue import is_cancel, is_send_anyway, looks_like_request
from planner.limits import MAX_TEXT, NOW_RANGE, in_range, oversized
from planner.models import ClarificationQuestion, Voice
from server._drafts import ID_PATTERN, DraftCommands, not_found
from server._helpers import (
    call_summary,
    command_text,
    issue_rows,
    lang_of,
    match_choice,
    parse_now,
    reask,
)
from server._lifecycle import LifeCycle
from server._resend import Resend
from server.render import already_done_lines, count_rows, draft_message, query_message, t
from server.replies import Reply, known_secrets, redact_text
from server.risks import past_date_risks
from server.settings import Settings
from server.toolkit_problems import explain
from toolkits import registry
from toolkits.base import Backend
from toolkits.errors import ToolkitError

__all__ = ["Service"]

log = logging.getLogger("planner.service")
# questions answered in the person's own words, which may read like a request ("Добавить экспорт в PDF"
# as a title): the answer is taken as given, never as a new request
# «Сколько у нас проектов?», "how many people are in the workspace": a count asked of a list
_COUNT_ASKED = re.compile(r"(?i)\bсколько\b|\bhow\s+many\b|\bnumber\s+of\b|\bкол-?во\b|\bколичество\b")
_WORDS_ANSWER = frozenset({"request", "domain", "title", "name", "body", "content", "value", "items"})
# how long a repeated callback id waits for a live first delivery before answering "still running"
CALLBACK_WAIT_S = 300.0
_ID = ID_PATTERN


class Service(DraftCommands, LifeCycle, Resend):
    def __init__(
        self, settings: Settings, store: DraftStore, backend: Backend, planner: Planner, executor: Executor
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
        """Run `fn` once per (user, callback_id); a repeated id gets the stored reply and does nothing.

        A delivery that finds the id still being handled waits for its owner as long as the owner is
        alive (it renews a lease while it works) and then replays the owner's final reply; a dead
        owner's claim is taken over once its lease lapses. A reply that is not final ("executing":
        the draft runs elsewhere) is returned but not stored, so a later delivery asks again."""
        if not callback_id:
            return await fn()
        if len(callback_id) > 200:
            return Reply(
                ok=False, status="invalid", user_message="callback_id is too long (200 characters at most)."
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALLBACK_WAIT_S
        owner, stored = await self.store.callback_begin(user, callback_id, tool)
        while stored is None and not owner:
            stored = await self.store.callback_wait(user, callback_id, timeout_s=deadline - loop.time())
            if stored is None and loop.time() >= deadline:
                return Reply(
                    ok=False,
                    status="executing",
                    user_message="Ещё выполняется — повторите чуть позже. / Still running - ask again shortly.",
                )
            if stored is None:  # the owner died (or gave up): this delivery takes the claim over
                owner, stored = await self.store.callback_begin(user, callback_id, tool)
        if stored is not None:
            return Reply.model_validate(stored)
        lease = asyncio.create_task(self._renew_callback(user, callback_id))
        try:
            reply = await fn()
        except BaseException:
            await self.store.callback_abandon(user, callback_id)
            raise
        finally:
            lease.cancel()
        if reply.status == "executing":
            await self.store.callback_abandon(user, callback_id)
        else:
            await self.store.callback_finish(user, callback_id, reply.model_dump(mode="json"))
        return reply

    async def _renew_callback(self, user: str, callback_id: str) -> None:
        while True:
            await asyncio.sleep(CALLBACK_LEASE_S / 4)
            try:
                await self.store.callback_renew(user, callback_id)
            except Exception:  # a missed renewal only risks a second, idempotent run
                log.warning("could not renew the lease of a callback", exc_info=True)

    # ---- plan ---------------------------------------------------------------------------------
    async def plan(
        self,
        user: str,
        *,
        text: str | None,
        command: Any,
        voice: Voice | None,
        intents: Any = None,
        language: str | None,
        now: str | None,
        timezone: str | None,
        conversation_id: str | None,
    ) -> Reply:
        lang = language if language in ("ru", "en") else None
        if language not in (None, "", "ru", "en"):
            shown = str(language)[:20]
            return self._bad(
                None,
                f"language: «{shown}» — нужен 'ru' или 'en' (или не указывайте).",
                f"language: '{shown}' is not one of 'ru', 'en' (or leave it out).",
            )
        given = [x for x in (text, command, voice) if x is not None and x != ""]
        if intents is not None and command is None:
            given = [intents]  # a client's model sends what it understood, usually with the words
        elif command is not None and text is not None and voice is None and intents is None:
            given = [command]  # seed 001: the CommandEnvelope carries the person's words beside the command
        if len(given) != 1:
            return self._bad(
                lang,
                "Нужен ровно один из параметров: text, intents, command или voice (text можно вместе с intents "
                "или command).",
                "Pass exactly one of text, intents, command or voice (text may come with intents or command).",
            )
        if not _storable(
            text, command, intents, timezone
        ):  # a lone UTF-16 surrogate cannot be stored or sent back
            return self._bad(
                lang,
                "В запросе есть символы, которые нельзя сохранить: перепишите его обычным текстом.",
                "text: the request contains characters that cannot be stored; send it as plain text.",
            )
        too_big = (oversized(command, "command") if command is not None else None) or (
            oversized(intents, "intents") if intents is not None else None
        )
        if too_big is not None:  # DESIGN §10: a structured input is bounded like text, and not echoed
            return Reply(ok=False, status="invalid", user_message=too_big.message(lang or "en"))
        if text is not None and len(text) > MAX_TEXT:
            return self._bad(
                lang or lang_of(text),
                f"Слишком длинный запрос ({len(text)} символов, максимум {MAX_TEXT}).",
                f"text: the request is too long ({len(text)} characters, at most {MAX_TEXT}).",
            )
        if text is not None and not text.strip():
            return self._bad(
                lang,
                "Пустой запрос: напишите, что сделать.",
                "text: the request is empty; pass the person's words.",
            )
        try:
            tz_name = timezone or self.settings.timezone
            tz = ZoneInfo(tz_name)
        except (ZoneInfoNotFoundError, ValueError):
            return self._bad(
                lang,
                f"Неизвестный часовой пояс «{str(timezone)[:40]}»: нужен пояс IANA, например Europe/Moscow.",
                f"timezone: unknown zone '{str(timezone)[:40]}'; pass an IANA zone such as Europe/Moscow.",
            )
        moment = parse_now(now, tz)
        if now is not None and (moment is None or not in_range(moment)):
            lo, hi = NOW_RANGE
            return self._bad(
                lang or lang_of(text or ""),
                f"Параметр now должен быть датой-временем ISO 8601 между {lo} и {hi} годом, например 2026-11-25T12:00:00+03:00.",
                f"now: pass an ISO 8601 datetime between the years {lo} and {hi}, such as 2026-11-25T12:00:00+03:00, or leave it out.",
            )
        if voice is not None and voice.confidence is not None and voice.confidence < 0.40:
            lang2 = lang or lang_of(voice.transcript)
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
        dropped: str | None = None
        if intents is not None:  # a client's model said what the person wants: no yes/no guessing
            spoken = None
        if spoken is not None and is_send_anyway(spoken):
            resent = await self.send_anyway(user, conversation_id, spoken, lang or lang_of(spoken))
            if resent is not None:
                return resent
        if spoken is not None and conversation_id:
            pending, dropped = await self._pending_answer(
                user, conversation_id, spoken, lang or lang_of(spoken)
            )
            if pending is not None:
                return pending
        reply = await self._plan_new(
            user, text, command, voice, lang, moment, tz_name, conversation_id, spoken=spoken, intents=intents
        )
        return _told(reply, dropped)

    async def _plan_new(
        self,
        user: str,
        text: str | None,
        command: Any,
        voice: Voice | None,
        lang: str | None,
        moment: datetime | None,
        tz_name: str,
        conversation_id: str | None,
        *,
        spoken: str | None,
        intents: Any = None,
    ) -> Reply:
        request = PlanRequest(
            text=text,
            command=command,
            intents=intents,
            voice=voice,
            language=lang,
            now=moment,
            timezone=tz_name,
            conversation=await self._memory(user, conversation_id),
        )
        plan_id = "p_" + secrets.token_urlsafe(12)
        outcome = await self._plan_safely(request, plan_id, None)
        if isinstance(outcome, Reply):
            return outcome
        state = {
            "text": text,
            "command": command,
            "intents": intents,
            "voice": voice.model_dump() if voice else None,
            "language": lang,
            "now": outcome.plan.now,
            "timezone": tz_name,
            "conversation_id": conversation_id,
            "answers": {},
            "interpreted": outcome.interpreted,  # the model's reading: answers replay it, never re-ask
        }
        said = (
            spoken
            or text
            or command_text(command)
            or ("[intents] " + json.dumps(intents, ensure_ascii=False)[:900])
        )
        return await self._respond(user, conversation_id, outcome, state, input_text=said)

    async def _pending_answer(
        self, user: str, conversation_id: str, text: str, lang: str
    ) -> tuple[Reply | None, str | None]:
        """Seed 004 rule 1 on a pending draft of this conversation: yes confirms it (through the same
        path as `confirm_draft`: the counted step for bulk; nothing runs before `execute_draft`), no
        cancels it. Any other message cancels it and is planned as a new request; the second value
        is what the reply must then say about the draft (DESIGN §4: never dropped silently)."""
        pending = await self.store.pending_in_conversation(user, conversation_id)
        number = re.fullmatch(r"\s*(\d{1,4})\s*", text)
        if pending is None:
            if is_yes(text) or is_no(text):
                message = t(
                    lang,
                    "Нет черновика, который ждёт подтверждения.",
                    "There is no draft waiting for confirmation.",
                )
                return Reply(ok=False, status="answered", user_message=message), None
            return None, None
        if is_yes(text) or (number and pending.status == "awaiting_bulk_confirmation"):
            count = int(number.group(1)) if number else None
            return await self.confirm(
                user, pending.id, confirm_count=count, conversation_id=conversation_id
            ), None
        if is_no(text):
            return await self.cancel(user, pending.id), None
        if not await self.store.transition(
            pending.id, user, {"pending", "awaiting_bulk_confirmation"}, "cancelled"
        ):
            return None, None  # confirmed or expired meanwhile: nothing of it to report here
        note = t(
            lang,
            f"Предыдущий черновик отменён: {pending.summary[:160]}",
            f"The earlier draft was cancelled: {pending.summary[:160]}",
        )
        await self._audit(user, conversation_id, text, "CANCEL_PENDING", "CANCEL_PENDING", None, note)
        return None, note

    async def pick(
        self, user: str, *, plan_id: str, question_id: str, value: str | None, text: str | None
    ) -> Reply:
        if not _ID.match(plan_id or "") or not _ID.match(question_id or ""):
            return not_found(
                "Вопрос не найден. / Question not found: plan_id and question_id come from the reply that asked."
            )
        state = await self.store.load_plan(plan_id, user)
        if state is None or not state.get("open_question"):
            return not_found(
                t(
                    (state or {}).get("language") or "en",
                    "Этот вопрос уже закрыт или не найден. Повторите запрос.",
                    "That question is not open (answered, expired or unknown). Please ask again.",
                )
            )
        lang = state.get("lang") or "en"
        q = state["open_question"]
        if q["id"] != question_id:
            return reask(state, t(lang, "Сейчас открыт другой вопрос.", "A different question is open now."))
        raw = value if value not in (None, "") else text
        if raw is None or not str(raw).strip():
            return self._bad(
                lang,
                "Нужен value (вариант) или text (свой ответ).",
                "Pass value (one of the choices' values) or text (the person's answer in words).",
            )
        answer = str(raw).strip()[:MAX_TEXT]
        choices = q.get("choices") or []
        chosen = match_choice(answer, choices)
        if chosen is None and is_cancel(answer):  # seed 004: "отмена" leaves the question
            await self._close_question(plan_id, user, state)
            await self._audit(
                user,
                state.get("conversation_id"),
                answer,
                "CONFIRM_NO",
                "CANCEL_PENDING",
                None,
                "question dropped",
            )
            return Reply(
                ok=True,
                status="cancelled",
                user_message=t(
                    lang, "Хорошо, вопрос снят — ничего не делаю.", "OK, question dropped - nothing done."
                ),
            )
        slot = str(q["id"]).rsplit(".", 1)[-1]
        tz = ZoneInfo(state.get("timezone") or self.settings.timezone)
        asked_at = parse_now(state.get("now"), tz)
        if (
            chosen is None
            and value in (None, "")
            and slot not in _WORDS_ANSWER  # a title or a comment may well start with a verb
            and looks_like_request(answer, asked_at or datetime.now(tz))
        ):
            # A new request while a question is open is a new request (seed 004), not an answer.
            await self._close_question(plan_id, user, state)
            reply = await self._plan_new(
                user,
                answer,
                None,
                None,
                state.get("language"),
                asked_at,
                state.get("timezone") or self.settings.timezone,
                state.get("conversation_id"),
                spoken=answer,
            )
            said = lang_of(answer)  # the note speaks the new request's language
            return _told(reply, t(said, "Предыдущий вопрос снят.", "The earlier question was dropped."))
        if chosen is not None:
            answer = chosen
        elif choices and not q.get("free_text_allowed"):
            return reask(state, t(lang, "Выберите один из вариантов.", "Please pick one of the choices."))
        answers = dict(state.get("answers") or {})
        answers[question_id] = answer
        state["answers"] = answers
        voice = Voice.model_validate(state["voice"]) if state.get("voice") else None
        request = PlanRequest(
            text=state.get("text"),
            command=state.get("command"),
            intents=state.get("intents"),
            interpreted=state.get("interpreted"),
            voice=voice,
            language=state.get("language") or lang,
            now=parse_now(state.get("now"), tz),
            timezone=state.get("timezone") or self.settings.timezone,
            conversation=await self._memory(user, state.get("conversation_id")),
        )
        outcome = await self._plan_safely(request, plan_id, answers)
        if isinstance(outcome, Reply):
            return outcome
        return await self._respond(
            user, state.get("conversation_id"), outcome, state, input_text=f"[pick] {answer}"
        )

    async def _close_question(self, plan_id: str, user: str, state: dict[str, Any]) -> None:
        await self.store.update_plan(plan_id, user, {**state, "open_question": None})

    async def _plan_safely(
        self, request: PlanRequest, plan_id: str, answers: dict[str, str] | None
    ) -> Outcome | Reply:
        """The planner reads the workspace; when Attio/Linear cannot answer, say so instead of failing."""
        lang = request.language or lang_of(request.text or "")
        try:
            return await self.planner.plan(request, plan_id, answers)
        except ToolkitError as exc:
            log.warning("planning read failed: %s (request_id %s)", type(exc).__name__, exc.request_id or "-")
            return Reply(ok=False, status="failed", user_message=explain(exc, lang))
        except LookupError:
            log.exception("a planning read found nothing where a rule expected data")
            return Reply(
                ok=False,
                status="failed",
                user_message=t(
                    lang,
                    "Не смог разобрать запрос до конца — переформулируйте, пожалуйста. Ничего не изменено.",
                    "I could not work this request out - please rephrase it. Nothing was changed.",
                ),
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
        producer = outcome.producer
        await self._remember_question(
            user, conversation_id, outcome.question if outcome.status == "needs_clarification" else None
        )
        if outcome.status in ("invalid", "safe_fail"):
            status: Literal["invalid", "safe_fail"] = (
                "invalid" if outcome.status == "invalid" else "safe_fail"
            )
            reply = Reply(ok=False, status=status, user_message=outcome.user_message, plan=plan)
            await self._audit(
                user,
                conversation_id,
                input_text,
                "AMBIGUOUS",
                "RESPOND_ONLY",
                None,
                reply.user_message,
                producer,
            )
            return reply
        if outcome.status == "needs_clarification":
            assert outcome.question is not None
            state["open_question"] = outcome.question.model_dump()
            state["plan"] = plan.model_dump(mode="json")  # shown again if the answer does not fit
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
                producer,
            )
            return reply
        if state.get("open_question") is not None:
            state["open_question"] = None
            await self.store.save_plan(plan.plan_id, user, conversation_id, state, 60)
        writes = plan.write_actions()
        done = [_with_link(d) for d in outcome.already_done]
        if not writes:
            results = await self._run_reads(plan)
            totals = refine(results, outcome.refine, lang)  # what the reads could not filter or add up
            if not totals and len(results) == 1 and _COUNT_ASKED.search(plan.inputs.raw_text or ""):
                # «Сколько у нас проектов?», "how many members…": a list read for a count says the count first
                totals = [t(lang, f"Найдено: {count_rows(results[0])}", f"Found: {count_rows(results[0])}")]
            await self._remember_list(user, conversation_id, results)
            message = "\n".join(
                x
                for x in (
                    outcome.user_message,
                    *totals,
                    query_message(plan, results, self.planner.stage_label) if results else "",
                )
                if x
            )
            message = message or t(lang, "Изменений не нужно.", "Nothing needs to change.")
            if done:
                message = "\n".join([message, *already_done_lines(done, lang)])
                results = [*results, *({"status": "already_done", **d} for d in done)]
            reply = Reply(ok=True, status="answered", user_message=message, plan=plan, results=results)
            await self._audit(
                user,
                conversation_id,
                input_text,
                "QUERY",
                "INVOKE_TOOL",
                [call_summary(a) for a in plan.actions],
                message,
                producer,
            )
            return reply
        # the server's clock, not the `now` a caller passed, decides what is past
        zone = plan.timezone or self.settings.timezone
        plan.risks = [*plan.risks, *past_date_risks(plan, datetime.now(ZoneInfo("UTC")), zone)]
        bulk = len(writes) if "bulk" in plan.risk_kinds() else None
        evicted = await self._make_room(user, conversation_id, lang)
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
        # "What's in negotiation and for how much? Move both to Proposal": the list is answered now, as any
        # read is (it stays a step of the draft: a later step may refer to what it found)
        read = plan.model_copy(update={"actions": [a for a in plan.actions if a.read_only]})
        answers = await self._run_reads(read) if read.actions else []
        if answers:
            await self._remember_list(user, conversation_id, answers)
        # (a total is found by its action's place in the plan: each answer back at its read's place)
        placed: list[dict[str, Any]] = [{} for _ in plan.actions]
        for at, answer in zip((i for i, a in enumerate(plan.actions) if a.read_only), answers, strict=True):
            placed[at] = answer
        told = "\n".join(
            x
            for x in (
                outcome.user_message,
                *refine(placed, outcome.refine, lang),
                query_message(read, answers, self.planner.stage_label) if answers else "",
            )
            if x
        )
        message = draft_message(plan, draft, told, done)
        reply = _told(
            Reply(
                ok=True,
                status="draft_pending",
                user_message=message,
                plan=plan,
                draft=draft,
                results=[*answers, *({"status": "already_done", **d} for d in done)] or None,
            ),
            evicted,
        )
        await self._audit(
            user,
            conversation_id,
            input_text,
            "MUTATE",
            "REQUEST_CONFIRMATION",
            [call_summary(a) for a in plan.actions],
            message,
            producer,
        )
        return reply

    async def _make_room(self, user: str, conversation_id: str | None, lang: str) -> str | None:
        """DESIGN §10: drafts waiting for a yes are bounded per user. The oldest beyond the bound are
        cancelled to make room for the new one, and the reply says so (never silently)."""
        cap = self.settings.max_open_drafts
        cancelled = [
            d
            for d in await self.store.open_beyond(user, cap - 1)
            if await self.store.transition(
                d.id, user, {"pending", "awaiting_bulk_confirmation", "confirmed"}, "cancelled"
            )
        ]
        if not cancelled:
            return None
        oldest = cancelled[-1]
        note = t(
            lang,
            f"Черновик «{oldest.summary[:120]}» отменён: одновременно ждут подтверждения не больше {cap}.",
            f"The draft '{oldest.summary[:120]}' was cancelled: at most {cap} drafts wait for a yes at once.",
        )
        if len(cancelled) > 1:
            note += t(lang, f" (и ещё {len(cancelled) - 1})", f" (and {len(cancelled) - 1} more)")
        await self._audit(
            user, conversation_id, "[draft bound]", "CANCEL_PENDING", "CANCEL_PENDING", None, note
        )
        return note

    # ---- conversation memory: the last list shown, for "the first one" / "#2" (seed 004 rule 3) ----
    def _memory_id(self, user: str, conversation_id: str) -> str:
        return "conv_" + hashlib.sha256(f"{user}\x1f{conversation_id}".encode()).hexdigest()[:32]

    async def _memory(self, user: str, conversation_id: str | None) -> dict[str, Any]:
        if not conversation_id:
            return {}
        return await self.store.load_plan(self._memory_id(user, conversation_id), user) or {}

    async def _remember_question(
        self, user: str, conversation_id: str | None, question: ClarificationQuestion | None
    ) -> None:
        """The question left open in this conversation, for the model interpreter's next reading (a
        person who types instead of answering may be answering it); kept only when a model is set."""
        if self.planner.interpreter is None or not conversation_id:
            return
        memory = await self._memory(user, conversation_id)
        asked = {"question": question.question[:300]} if question is not None else None
        if memory.get("open_question") == asked:
            return
        if asked is None:
            del memory["open_question"]
        else:
            memory["open_question"] = asked
        await self.store.save_plan(
            self._memory_id(user, conversation_id), user, conversation_id, memory, 24 * 3600
        )

    async def _remember_list(
        self, user: str, conversation_id: str | None, results: list[dict[str, Any]]
    ) -> None:
        shown = [
            {"identifier": row["identifier"], "title": row.get("title", "")}
            for r in results
            for row in issue_rows(r.get("data"))
        ][:15]
        if conversation_id and shown:
            await self.store.save_plan(
                self._memory_id(user, conversation_id), user, conversation_id, {"last_list": shown}, 24 * 3600
            )

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

    # ---- helpers ------------------------------------------------------------------------------
    def _bad(self, lang: str | None, ru: str, en: str) -> Reply:
        """Arguments that fail validation (DESIGN §4 `invalid`): the message names the field."""
        return Reply(ok=False, status="invalid", user_message=t(lang or "en", ru, en))

    async def _audit(
        self,
        user: str,
        conversation_id: str | None,
        text: str,
        intent: str,
        decision: str,
        calls: list[dict[str, Any]] | None,
        preview: str | None,
        producer: str | None = None,
    ) -> None:
        try:
            hidden = known_secrets(self.settings)  # a provider's error text may carry one
            await self.store.audit(
                user_id=user,
                conversation_id=conversation_id,
                input_message=redact_text(text[:1000], hidden),
                intent=intent,
                decision=decision,
                tool_calls=calls,
                response_preview=None if preview is None else redact_text(preview, hidden),
                producer=producer,
            )
        except Exception:  # the audit must never turn a good answer into an error
            log.exception("audit write failed")


def _with_link(done: dict[str, Any]) -> dict[str, Any]:
    """A change done before, with the link to what it made (DESIGN §7: "already done, with its link")."""
    toolkit = str(done.get("idempotency_scope", "")).split(":", 1)[0]
    module = registry.TOOLKITS.get(toolkit)
    link = module.link_for(done.get("result")) if module is not None else None
    return {**done, "link": link} if link else dict(done)


def _told(reply: Reply, note: str | None) -> Reply:
    """The reply with `note` (what happened to an earlier draft or question) said first."""
    if not note:
        return reply
    message = f"{note}\n{reply.user_message}" if reply.user_message else note
    return reply.model_copy(update={"user_message": message, "notice": note})


def _storable(*values: Any) -> bool:
    """Whether the values encode as UTF-8 (JSON may carry a lone surrogate such as "\\ud800")."""
    try:
        json.dumps(values, ensure_ascii=False, default=str).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        return False
    return True
