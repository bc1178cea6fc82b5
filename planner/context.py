"""What the planner's stages share while a request is read: the directory, answers given so far,
the language, the clock, the one question it may ask, the intents understood and the actions built."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from planner.directory import Directory, Entity
from planner.models import Candidate, Choice, ClarificationQuestion, EntityRef, RiskFlag, ToolAction
from planner.resolve import Mention, best

if TYPE_CHECKING:
    from planner.intents import IntentBase

Compiler = Callable[["IntentBase", "BuildContext"], Awaitable[None]]

__all__ = ["Ask", "BuildContext", "Invalid", "LedgerView"]

LedgerView = Callable[[list[str]], Awaitable[dict[str, Any]]]
"""Scopes already executed -> their stored result (so a new plan shows them as already done)."""


# slots only a change has: asked of a question, they would turn it into a write
_VALUE_OF_A_CHANGE = frozenset(
    {"due", "assignee", "title", "priority", "stage", "duration", "start", "state"}
)


class Invalid(Exception):
    """An intent that cannot be carried out as given (a value outside a field's allowed values): the
    message names the field and the allowed values, so a client's model corrects itself in one retry."""


class Ask(Exception):
    """Raised by a rule that cannot go on without the person's answer."""

    def __init__(self, question: ClarificationQuestion, risk: RiskFlag) -> None:
        super().__init__(question.question)
        self.question = question
        self.risk = risk


def _cut(value: str, limit: int = 64) -> str:
    raw = value.encode("utf-8")
    return value if len(raw) <= limit else raw[:limit].decode("utf-8", "ignore")


@dataclass
class BuildContext:
    lang: str
    now: datetime
    tz: str
    directory: Directory
    config: dict[str, Any]
    answers: dict[str, str]
    conversation: dict[str, Any] = field(default_factory=dict)
    clause_index: int = 0
    actions: list[ToolAction] = field(default_factory=list)
    entities: list[EntityRef] = field(default_factory=list)
    risks: list[RiskFlag] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    summary_parts: list[str] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)
    intents: list[IntentBase] = field(default_factory=list)
    compiler: Compiler | None = None
    span: str | None = None  # the words being read, when the intents come from text

    def t(self, ru: str, en: str) -> str:
        return ru if self.lang == "ru" else en

    def yes_no(self) -> list[tuple[str, str]]:
        """The two buttons of a yes/no question, in the person's language; the answers are "yes"/"no"."""
        return [(self.t("Да", "Yes"), "yes"), (self.t("Нет", "No"), "no")]

    def said_day(self, value: object) -> str:
        """A date or moment as the person reads it («пт, 27 нояб.», the year only when not this one)."""
        from planner.wording import moment

        return moment(value, self.lang, zone=self.tz, today=self.now.date())

    def said_money(self, amount: object, currency: object = "") -> str:
        from planner.wording import money

        return money(amount, currency)

    def said_stage(self, stage: str) -> str:
        from planner.wording import stage_name

        return stage_name(stage, self.lang, self.config.get("stage_aliases", {}))

    def qid(self, slot: str) -> str:
        return f"c{self.clause_index}.{slot}"

    def answer(self, slot: str) -> str | None:
        return self.answers.get(self.qid(slot))

    def ask(
        self,
        slot: str,
        question: str,
        *,
        choices: list[tuple[str, str]] | None = None,
        free_text: bool = True,
        risk: str = "missing_required",
        details: str | None = None,
    ) -> Ask:
        if slot in _VALUE_OF_A_CHANGE and self.memory.get("asking"):
            from planner.coverage import QuestionNotWrite

            # "when's ENG-105 due": a question asks for no new due date; the reading rules answer it
            raise QuestionNotWrite(self.span or "")
        q = ClarificationQuestion(
            id=self.qid(slot),
            question=question,
            choices=[Choice(label=label[:120], value=_cut(value)) for label, value in (choices or [])],
            free_text_allowed=free_text,
        )
        return Ask(q, RiskFlag(kind=risk, details=details or question))  # type: ignore[arg-type]

    async def emit(self, intent: IntentBase, confidence: float = 0.9, **resolved: Any) -> None:
        """An intent understood: recorded for `plan.intents`, then turned into actions at once (so a
        later clause sees what an earlier one built). `resolved` are records the producer already
        found with the whole sentence as context."""
        from planner.coverage import QuestionNotWrite
        from planner.intents import WRITE_OPS

        if self.memory.get("asking") and getattr(intent, "op", "") in WRITE_OPS:
            raise QuestionNotWrite(self.span or "")
        intent.with_resolved(**resolved)
        if (
            not intent.op.startswith("create")
            and not self.memory.get("sent_intents")
            and self._said_already(intent)
        ):
            return  # "ENG-101 and ENG-106 are done, close them both": the same change said twice is one change
        if intent.span is None and self.span:
            intent.span = self.span[:4000]
        if intent.confidence is None:
            intent.confidence = confidence
        self.intents.append(intent)
        assert self.compiler is not None, "the planner sets the compiler"
        # where the last intent's actions begin: a later clause may amend it ("…, and assign it to Oleg")
        self.memory["last_emit"] = (len(self.actions), len(self.entities), len(self.risks), len(self.notes))
        await self.compiler(intent, self)

    def drop_last(self) -> IntentBase:
        """Take back the last intent and what it built: a later clause said the same change anew
        («Иван теперь технический директор — обнови его должность на CTO»)."""
        actions, entities, risks, notes = self.memory["last_emit"]
        del self.actions[actions:], self.entities[entities:], self.risks[risks:], self.notes[notes:]
        return self.intents.pop()

    def _said_already(self, intent: IntentBase) -> bool:
        same = intent.model_dump(exclude={"span", "confidence"})
        return any(
            type(x) is type(intent) and x.model_dump(exclude={"span", "confidence"}) == same
            for x in self.intents
        )

    def said_before(self) -> str:
        """The clause just before this one in the message ("" for the first): what a later "close it",
        "log that" or "his issues" is about."""
        said: list[str] = self.memory.get("said") or []
        return said[-1] if said and self.clause_index else ""

    async def amend_last(self, **fields: Any) -> bool:
        """The last intent again, with `fields` it did not set ("create an issue …, assign it to Oleg,
        due Friday"): its actions are built anew. False when it already says otherwise."""
        last = self.intents[-1]

        def disagrees(k: str, v: Any) -> bool:
            had = getattr(last, k, None)
            if isinstance(had, list) and isinstance(v, list):
                return not set(had) <= set(
                    v
                )  # a label added to the ones it had ("…, tag it customer-request")
            return v is not None and had not in (None, v)

        if any(disagrees(k, v) for k, v in fields.items()):
            return False
        self.drop_last()
        values = {**last.model_dump(exclude_none=True), **{k: v for k, v in fields.items() if v is not None}}
        amended = type(last).model_validate(values)
        changed = {k for k, v in fields.items() if v is not None}
        amended.with_resolved(**{k: v for k, v in last._resolved.items() if k not in changed})  # (found anew)
        await self.emit(amended, amended.confidence or 0.9)
        return True

    def add(self, action: ToolAction) -> int:
        self.actions.append(action)
        return len(self.actions) - 1

    def note_entity(
        self, kind: str, query: str, chosen: Entity | None, candidates: list[Entity], confidence: float
    ) -> None:
        self.entities.append(
            EntityRef(
                kind=kind,  # type: ignore[arg-type]
                query=query[:200],
                candidates=[
                    Candidate(id=c.id, name=c.name, subtitle=c.subtitle, url=c.url) for c in candidates[:5]
                ],
                selected_id=chosen.id if chosen else None,
                confidence=round(confidence, 2),
            )
        )

    def choose(
        self, slot: str, kind: str, query: str, mentions: list[Mention], question: str
    ) -> Entity | None:
        """One entity from ranked mentions; near-ties become a question with choices."""
        answered = self.answer(slot)
        pool = [m.entity for m in mentions]
        if answered:
            for e in pool:
                if e.id == answered or e.id.startswith(answered):
                    self.note_entity(kind, query, e, pool, 1.0)
                    return e
        top = best(mentions)
        if not top:
            return None
        if len(top) == 1:
            self.note_entity(kind, query, top[0].entity, pool, top[0].score)
            return top[0].entity
        options = [m.entity for m in top][:5]
        self.note_entity(kind, query, None, options, top[0].score)
        labels = [(f"{e.name} ({e.subtitle})" if e.subtitle else e.name, e.id) for e in options]
        raise self.ask(
            slot,
            question,
            choices=labels,
            free_text=False,
            risk="ambiguous",
            details=self.t(f"«{query}» подходит к нескольким записям", f"'{query}' matches several records"),
        )
