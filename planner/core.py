"""The planner: a request (text, voice transcript or structured command) -> a Plan.

Deterministic and offline: rules for Russian and English (planner/intents), entity resolution
through the same read tools the plan uses, one clarifying question at a time. Answers to questions
are replayed on the original request (`answers`), so a picked value never loses the rest of what
the person said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

from planner.analysis import CUES, split_clauses
from planner.command import EXECUTE_CONFIDENCE, build_actions, command_language, parse_command, restate
from planner.context import Ask, BuildContext, LedgerView
from planner.directory import Directory, Reader
from planner.hurried import unhurried
from planner.intents import load_rules
from planner.models import ClarificationQuestion, Plan, PlanInputs, RiskFlag, ToolAction, Voice
from planner.text import detect_language, norm
from toolkits import registry
from toolkits.schemas import validate_arguments
from toolkits.scopes import per_draft
from toolkits.workspace import workspace_config

__all__ = ["Outcome", "PlanRequest", "Planner", "is_no", "is_yes"]

MAX_TEXT = 4000
# a destination in a system this server does not manage: one question, never an action
OTHER_SYSTEM = re.compile(
    r"\b(в|во|на|in|to|into|on|a|an|the|новый|новую)?\s*(jira|джир[аеуы]|trello|трелло|asana|асан[аеуы]|notion|ноушн|hubspot|хабспот\w*|"
    r"salesforce|pipedrive|clickup|youtrack|ютрек\w*|bitrix\w*|битрикс\w*|amocrm|амо\s*crm|github|гитхаб\w*|gitlab)\b",
    re.IGNORECASE,
)
Status = Literal["ready", "needs_clarification", "safe_fail", "invalid"]


@dataclass
class PlanRequest:
    text: str | None = None
    command: Any = None
    voice: Voice | None = None
    language: str | None = None
    now: datetime | None = None
    timezone: str = "Europe/Moscow"
    conversation: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    status: Status
    plan: Plan
    question: ClarificationQuestion | None = None
    user_message: str = ""
    already_done: list[dict[str, Any]] = field(default_factory=list)


_YES = {
    "да",
    "yes",
    "ok",
    "ок",
    "okay",
    "ага",
    "угу",
    "конечно",
    "подтверждаю",
    "подтвердить",
    "confirm",
    "sure",
    "yep",
    "yeah",
    "go",
    "давай",
    "do it",
    "go ahead",
    "да, подтверждаю",
    "верно",
    "точно",
    "y",
}
_NO = {
    "нет",
    "no",
    "cancel",
    "отмена",
    "отмени",
    "не надо",
    "не нужно",
    "stop",
    "nope",
    "never mind",
    "n",
    "не",
}


def _short(text: str) -> str:
    return re.sub(r"[\s!.,]+", " ", norm(text)).strip()


def is_yes(text: str) -> bool:
    return _short(text) in _YES


def is_no(text: str) -> bool:
    return _short(text) in _NO


class Planner:
    def __init__(
        self,
        read: Reader,
        *,
        ledger: LedgerView | None = None,
        config: dict[str, Any] | None = None,
        bulk_threshold: int = 5,
    ) -> None:
        self.directory = Directory(read)
        self._ledger = ledger
        self._config = config or workspace_config()
        self._bulk = bulk_threshold
        self._rules = load_rules()

    async def plan(self, req: PlanRequest, plan_id: str, answers: dict[str, str] | None = None) -> Outcome:
        answers = dict(answers or {})
        tz = ZoneInfo(req.timezone)
        now = (req.now or datetime.now(tz)).astimezone(tz)
        text = (req.voice.transcript if req.voice and not req.text else req.text) or ""
        lang = req.language or (detect_language(text) if text else command_language(req.command))
        if lang not in ("ru", "en"):
            lang = "ru"
        ctx = BuildContext(
            lang=lang,
            now=now,
            tz=req.timezone,
            directory=self.directory,
            config=self._config,
            answers=answers,
            conversation=req.conversation,
        )
        ctx.memory["plan_id"] = plan_id
        plan = Plan(
            plan_id=plan_id,
            intent="query",
            domain="unknown",
            summary="",
            language=lang,  # type: ignore[arg-type]
            inputs=PlanInputs(raw_text=text[:MAX_TEXT], voice=req.voice),
            now=now.isoformat(),
            timezone=req.timezone,
        )
        if req.command is not None:
            return await self._from_command(req.command, ctx, plan)
        if answers.get("c0.request"):
            text = answers["c0.request"] + (
                " в Linear"
                if answers.get("c0.domain") == "linear" and lang == "ru"
                else " in Linear"
                if answers.get("c0.domain") == "linear"
                else ""
            )
        head_text = text.split(":", 1)[0]  # "...: migrate CI to GitHub Actions" is a title
        other = (
            None if re.search(r"\b(linear|линеар\w*)\b", head_text, re.I) else OTHER_SYSTEM.search(head_text)
        )
        if other and answers.get("c0.system") == "linear":
            text = text[: other.start(2)] + "Linear" + text[other.end(2) :]
            other = None
        elif other and answers.get("c0.system"):
            plan.summary = ctx.t("Ничего не делаю", "Doing nothing")
            return Outcome("safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing."))
        try:
            if other:
                ctx.clause_index = 0
                name = other.group(2)
                raise ctx.ask(
                    "system",
                    ctx.t(
                        f"Я работаю с Attio, Linear и Google Calendar, а не с {name}. Сделать это в Linear?",
                        f"I work with Attio, Linear and Google Calendar, not {name}. Do it in Linear instead?",
                    ),
                    choices=[(ctx.t("Да, в Linear", "Yes, in Linear"), "linear"), (ctx.t("Нет", "No"), "no")],
                    free_text=False,
                )
            matched = await self._interpret(text, ctx)
            if not matched:
                raise self._unknown(ctx)
        except Ask as ask:
            return self._clarify(ctx, plan, ask)
        return await self._finish(ctx, plan)

    async def _interpret(self, text: str, ctx: BuildContext) -> bool:
        text = await self._identifiers(unhurried(text))
        ctx.memory["full_text"] = text
        matched = False
        for i, clause in enumerate(split_clauses(text, ctx.now)):
            ctx.clause_index = i
            for _, _, fn in self._rules:
                if await fn(clause, ctx):
                    matched = True
                    break
        return matched

    async def _identifiers(self, text: str) -> str:
        """Spoken or hurried issue ids ("eng 101", "eng101") as Linear writes them ("ENG-101"), for the
        workspace's own team keys only (so "in 2 hours" stays a time)."""
        if not re.search(r"\d", text):
            return text
        try:
            keys = [str(t.extra.get("key")) for t in await self.directory.teams() if t.extra.get("key")]
        except LookupError:
            return text
        for key in keys:
            text = re.sub(
                rf"\b{re.escape(key)}[\s\-_]?(\d{{1,6}})\b", rf"{key}-\1", text, flags=re.IGNORECASE
            )
        return text

    def _unknown(self, ctx: BuildContext) -> Ask:
        if ctx.answers.get("c0.domain"):
            return ctx.ask(
                "request",
                ctx.t("Что сделать? Напишите одной фразой.", "What should I do? One sentence is enough."),
            )
        ctx.clause_index = 0
        return ctx.ask(
            "domain",
            ctx.t(
                "Не понял, что сделать. Это про сделки и контакты (Attio) или про задачи (Linear)?",
                "I'm not sure what you'd like to do. Is it about deals and contacts (Attio) or issues (Linear)?",
            ),
            choices=[("Attio", "attio"), ("Linear", "linear")],
            free_text=True,
        )

    def _clarify(self, ctx: BuildContext, plan: Plan, ask: Ask) -> Outcome:
        plan.needs_clarification = [ask.question]
        plan.risks = [*ctx.risks, ask.risk]
        plan.entities = ctx.entities
        plan.actions = []
        plan.domain = _domain(ctx.actions) if ctx.actions else _guess_domain(ctx, ask)
        plan.summary = ask.question.question.split("\n")[0][:200]
        return Outcome("needs_clarification", plan, ask.question, ask.question.question)

    async def _finish(self, ctx: BuildContext, plan: Plan) -> Outcome:
        actions = _dedupe(ctx.actions)
        problems = [f"{a.tool_slug}: {p}" for a in actions for p in validate_arguments(a.tool_slug, a.args)]
        if problems:  # DESIGN §6 rule 5: every call must fit its tool's input schema before it is shown
            plan.actions = actions
            plan.summary = "; ".join(problems)[:300]
            return Outcome(
                "invalid",
                plan,
                None,
                ctx.t(
                    "Не могу составить корректный запрос к инструменту: " + "; ".join(problems)[:300],
                    "I could not build a valid tool call: " + "; ".join(problems)[:300],
                ),
            )
        done: list[dict[str, Any]] = []
        # Only a create with a business identity can be "done already"; whether a value change is
        # needed was decided from the record's current state, never from earlier drafts (DESIGN §7).
        writes = [a for a in actions if not a.read_only and not per_draft(a.idempotency_scope)]
        if writes and self._ledger is not None:
            seen = await self._ledger([a.idempotency_scope for a in writes])
            if seen:
                done = [
                    {
                        "preview": a.preview,
                        "idempotency_scope": a.idempotency_scope,
                        "result": seen[a.idempotency_scope],
                    }
                    for a in writes
                    if a.idempotency_scope in seen
                ]
                actions = [a for a in actions if a.idempotency_scope not in seen]
                ctx.notes.append(
                    ctx.t(
                        f"Уже сделано раньше: {len(done)} — повторно не создаю.",
                        f"Already done earlier: {len(done)} - not repeating them.",
                    )
                )
        plan.actions = actions
        plan.entities = ctx.entities
        plan.risks = list(ctx.risks)
        plan.domain = _domain(actions) if actions else _domain_of_done(done)
        writes = [a for a in actions if not a.read_only]
        plan.intent = "mutate" if writes else "query"
        if len(writes) > self._bulk:
            plan.risks.append(
                RiskFlag(
                    kind="bulk",
                    details=ctx.t(
                        f"{len(writes)} изменений за раз (порог {self._bulk}): нужно подтвердить числом",
                        f"{len(writes)} changes at once (threshold {self._bulk}): confirm with the count",
                    ),
                )
            )
        per_toolkit: dict[str, int] = {}
        for a in writes:
            per_toolkit[a.toolkit] = per_toolkit.get(a.toolkit, 0) + 1
        for tk, n in per_toolkit.items():
            if n > registry.rate_budget(tk):
                plan.risks.append(
                    RiskFlag(
                        kind="rate_limit_risk",
                        details=ctx.t(
                            f"{n} вызовов {tk} больше лимита {registry.rate_budget(tk)}/мин: выполню с паузами",
                            f"{n} {tk} calls exceed its {registry.rate_budget(tk)}/min budget: execution will be paced",
                        ),
                    )
                )
        plan.summary = _summary(ctx, actions, done)
        return Outcome("ready", plan, None, "\n".join(ctx.notes), done)

    async def _from_command(self, raw: Any, ctx: BuildContext, plan: Plan) -> Outcome:
        from planner.command import CLARIFY_CONFIDENCE, CommandError

        try:
            cmd = parse_command(raw)
        except CommandError as exc:
            plan.summary = str(exc)
            return Outcome(
                "invalid",
                plan,
                None,
                ctx.t(f"Команда не принята: {exc}.", f"The command was not accepted: {exc}."),
            )
        plan.inputs = PlanInputs(
            raw_text=str(cmd.entities.get("title") or cmd.intent)[:MAX_TEXT], voice=plan.inputs.voice
        )
        if cmd.rejected or cmd.confidence < CLARIFY_CONFIDENCE:
            plan.summary = "safe-fail"
            return Outcome(
                "safe_fail",
                plan,
                None,
                ctx.t("Не могу выполнить. Уточните запрос.", "I can't do that. Please clarify the request."),
            )
        try:
            if cmd.candidates and not cmd.chosen_id and not ctx.answer("candidate"):
                raise ctx.ask(
                    "candidate",
                    ctx.t("Что именно вы имели в виду?", "Which one did you mean?"),
                    choices=[
                        (str(c.get("name") or c.get("label") or c.get("title") or c["id"]), str(c["id"]))
                        for c in cmd.candidates
                    ],
                    free_text=False,
                    risk="ambiguous",
                )
            if cmd.confidence < EXECUTE_CONFIDENCE and ctx.answer("confirm") not in ("yes", "да"):
                if ctx.answer("confirm") is not None:
                    plan.summary = "cancelled"
                    return Outcome(
                        "safe_fail", plan, None, ctx.t("Хорошо, ничего не делаю.", "OK, doing nothing.")
                    )
                raise ctx.ask(
                    "confirm",
                    ctx.t(
                        f"Правильно понял: {restate(cmd, ctx)}?",
                        f"Did I get it right: {restate(cmd, ctx)}?",
                    ),
                    choices=[(ctx.t("Да", "Yes"), "yes"), (ctx.t("Нет", "No"), "no")],
                    free_text=False,
                )
            await build_actions(cmd, ctx)
        except Ask as ask:
            return self._clarify(ctx, plan, ask)
        return await self._finish(ctx, plan)


def _dedupe(actions: list[ToolAction]) -> list[ToolAction]:
    seen: set[str] = set()
    out = []
    for a in actions:
        key = a.idempotency_scope if not a.read_only else a.tool_slug + repr(sorted(a.args.items()))
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
    return out


def _domain(actions: list[ToolAction]) -> Any:
    kits = {a.toolkit for a in actions if not a.read_only} or {a.toolkit for a in actions}
    if not kits:
        return "unknown"
    if len(kits) > 1:
        return "mixed"
    kit = next(iter(kits))
    return "calendar" if kit == "googlecalendar" else kit


def _domain_of_done(done: list[dict[str, Any]]) -> Any:
    kits = {str(d["idempotency_scope"]).split(":")[0] for d in done}
    return _domain(
        [
            ToolAction(
                toolkit=k,
                tool_slug="",
                operation="",
                args={},
                read_only=False,
                idempotency_scope="",
                preview="",
            )
            for k in kits
        ]
    )


def _guess_domain(ctx: BuildContext, ask: Ask) -> Any:
    slot = ask.question.id.split(".", 1)[-1]
    if slot in ("duration", "start"):
        return "calendar"
    if slot == "domain":
        return "unknown"
    text = ctx.memory.get("full_text", "")
    low = norm(text)
    words = set(re.findall(r"\w+", low))
    if words & CUES["linear"] or slot in ("title", "issue", "team"):
        return "linear"
    if words & (CUES["deal"] | CUES["note"]) or slot in (
        "deal",
        "stage",
        "target",
        "company",
        "task",
        "value",
        "record",
        "owner",
        "email",
        "domain",
        "name",
    ):
        return "attio"
    return "unknown"


def _summary(ctx: BuildContext, actions: list[ToolAction], done: list[dict[str, Any]]) -> str:
    writes = [a for a in actions if not a.read_only]
    if ctx.summary_parts and writes:
        head = "; ".join(ctx.summary_parts)
    elif writes:
        head = (
            writes[0].preview
            if len(writes) == 1
            else ctx.t(f"{len(writes)} изменений: ", f"{len(writes)} changes: ") + writes[0].preview
        )
    elif actions:
        head = ctx.t("Запрос: ", "Query: ") + ", ".join(a.preview for a in actions)
    elif done:
        head = ctx.t("Всё это уже сделано", "All of this is already done")
    else:
        head = ctx.t("Изменений не нужно", "Nothing to change")
    return head[:300]
