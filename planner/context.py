"""What an intent rule works with while it builds actions: the directory, answers given so far,
the language, the clock, and the one question it may ask."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from planner.directory import Directory, Entity
from planner.models import Candidate, Choice, ClarificationQuestion, EntityRef, RiskFlag, ToolAction
from planner.resolve import Mention, best

__all__ = ["Ask", "BuildContext", "LedgerView"]

LedgerView = Callable[[list[str]], Awaitable[dict[str, Any]]]
"""Scopes already executed -> their stored result (so a new plan shows them as already done)."""


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

    def t(self, ru: str, en: str) -> str:
        return ru if self.lang == "ru" else en

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
        q = ClarificationQuestion(
            id=self.qid(slot),
            question=question,
            choices=[Choice(label=label[:120], value=_cut(value)) for label, value in (choices or [])],
            free_text_allowed=free_text,
        )
        return Ask(q, RiskFlag(kind=risk, details=details or question))  # type: ignore[arg-type]

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
