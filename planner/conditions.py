"""A condition on how a record stands now, said before the change: «Если сделка ещё не выиграна — переведи
её в переговоры», "if ENG-105 is still open, close it". The change is drafted only when the condition holds
for the record it changes; when it does not, nothing is drafted and the person is told why. Where the state
cannot be told (a condition about the world, "if they sign"), the request is read as said."""

from __future__ import annotations

from typing import Any

from planner._lazy_re import LazyRe
from planner.analysis import analyse
from planner.context import BuildContext
from planner.intents.models import IntentBase
from planner.rules._common import find
from planner.rules._linear_common import state_named
from planner.text import ISSUE_KEY

__all__ = ["subject_of", "unmet"]

_NEGATED = LazyRe(r"(?i)\b(?:не|not|isn'?t|aren'?t|hasn'?t|haven'?t|wasn'?t)\b")
_CLOSED = LazyRe(
    r"(?i)\b(?:закрыт\w*|сделан\w*|выполнен\w*|готов\w*|closed|done|finished|resolved|completed)\b"
)
_OPEN = LazyRe(r"(?i)\b(?:открыт\w*|open|active|активн\w*)\b")
_NOBODYS = LazyRe(r"(?i)\bunassigned\b|\bбез\s+исполнител\w*|\bне\s+назначен\w*|\bnobody'?s\b")
_STATE_PART = LazyRe(
    r"(?i)^\s*(?:(?:ну|so|and|и|а)[,\s]+)?(?:если|if)\s+(.*?)\s*(?:\b(?:is|are|has|have)\s+)?"
    r"\b(?:ещ[её]|вс[её]\s+ещ[её]|уже|still|not\s+yet|already|(?:is|are)n'?t)\b.*$"
)
_WHOSE_IT_IS = LazyRe(
    r"(?i)\b(?:assigned|назначен\w*)\b|\s(?:on|на|у)\s+(?-i:[A-ZА-ЯЁ])[^\W\d_]+(?:е|у|а|я)?\s*$|'s\b"
)
_ISSUE_OPS = ("update_issue", "complete_issue", "comment_issue", "archive_issue")


async def unmet(condition: str, intents: list[IntentBase], ctx: BuildContext) -> str | None:
    """Why `condition` does not hold for the records `intents` change, or None (it holds, or the state
    it is about cannot be told)."""
    negated = bool(_NEGATED.search(condition))
    said = analyse(condition, ctx.now)
    stages = [m.entity.name for m in await find(ctx, said, "stage") if m.score >= 1.0]
    closed, opened = bool(_CLOSED.search(condition)), bool(_OPEN.search(condition))
    nobodys = bool(_NOBODYS.search(condition))
    state_said = await state_named(ctx, condition)
    if len(stages) == 1 and not any(i.op in ("update_deal", "apply_template") for i in intents):
        # "if the Globex deal is already won, archive CS-14": the deal's stage decides the issue's change
        deals = {m.entity.id: m.entity for m in await find(ctx, said, "deal") if m.score >= 0.9}
        if len(deals) == 1:
            return _stage_unmet(next(iter(deals.values())), stages[0], negated, ctx)
    whose = (
        [m.entity for m in await find(ctx, said, "user") if m.score >= 0.5]
        if _WHOSE_IT_IS.search(condition)
        else []
    )
    for intent in intents:
        if intent.op in _ISSUE_OPS and len(whose) == 1 and not state_said and not (closed or opened):
            # "if ENG-103 is assigned to Oleg, close it", «Если ENG-103 на Олеге, закрой её»
            issue_of: dict[str, Any] | None = intent.resolved("issue")
            if issue_of is None:
                continue
            now_on = (issue_of.get("assignee") or {}).get("id")
            if (now_on == whose[0].id) == negated:
                who_now = (issue_of.get("assignee") or {}).get("name")
                on_ru = f"назначена на {who_now}" if who_now else "ни на кого не назначена"
                return ctx.t(
                    f"{issue_of.get('identifier')} сейчас {on_ru} — условие не выполнено, ничего не меняю.",
                    f"{issue_of.get('identifier')} is assigned to {who_now or 'nobody'} now - the condition doesn't "
                    "hold, so nothing changes.",
                )
            continue
        if intent.op in _ISSUE_OPS and state_said and not (closed or opened):  # "is DES-7 still in todo?"
            issue_at: dict[str, Any] | None = intent.resolved("issue")
            name = ((issue_at or {}).get("state") or {}).get("name")
            if name and (str(name).lower() == state_said.lower()) == negated:
                return ctx.t(
                    f"{(issue_at or {}).get('identifier')} сейчас в состоянии {name} — условие не выполнено, ничего не меняю.",
                    f"{(issue_at or {}).get('identifier')} is {name} now - the condition doesn't hold, so nothing changes.",
                )
            continue
        if intent.op in _ISSUE_OPS and nobodys:  # "is ENG-102 still unassigned? if so, give it to Oleg"
            issue_now: dict[str, Any] | None = intent.resolved("issue")
            who = ((issue_now or {}).get("assignee") or {}).get("name")
            if issue_now is not None and who:
                ident = issue_now.get("identifier")
                return ctx.t(
                    f"{ident} уже назначена на {who} — условие не выполнено, ничего не меняю.",
                    f"{ident} is already assigned to {who} - the condition doesn't hold, so nothing changes.",
                )
            continue
        if intent.op in ("update_deal", "apply_template") and len(stages) == 1:
            if why := _stage_unmet(intent.resolved("deal"), stages[0], negated, ctx):
                return why
        elif intent.op in _ISSUE_OPS and (closed or opened):
            issue: dict[str, Any] | None = intent.resolved("issue")
            kind = ((issue or {}).get("state") or {}).get("type")
            if kind is None:
                continue
            done = kind in ("completed", "canceled")
            wants_done = closed != negated if closed else negated  # "not yet closed" / "still open"
            if done != wants_done:
                ident = (issue or {}).get("identifier")
                name = ((issue or {}).get("state") or {}).get("name")
                return ctx.t(
                    f"{ident} сейчас в состоянии {name} — условие не выполнено, ничего не меняю.",
                    f"{ident} is {name} now - the condition doesn't hold, so nothing changes.",
                )
    return None


def _stage_unmet(deal: Any, stage_said: str, negated: bool, ctx: BuildContext) -> str | None:
    """Why a condition on `deal`'s stage does not hold, or None."""
    stage = _field(deal, "stage")
    if stage is None or (stage == stage_said) != negated:
        return None
    return ctx.t(
        f"«{deal.name}» сейчас на стадии {ctx.said_stage(stage)} — условие не выполнено, ничего не меняю.",
        f"'{deal.name}' is at {stage} now - the condition doesn't hold, so nothing changes.",
    )


def _field(record: Any, name: str) -> Any:
    extra = getattr(record, "extra", None)
    return extra.get(name) if isinstance(extra, dict) else None


def subject_of(condition: str) -> str:
    """The record a condition is said of ("если сделка с Ромашкой всё ещё на стадии КП": «сделка с
    Ромашкой»), so the request after it reads its "её" as that record and its stage words as no change."""
    m = _STATE_PART.match(condition)
    if m:
        return m.group(1).strip(" ,")
    said = ISSUE_KEY.search(condition)  # "if ENG-101 is closed": the issue whose state is said
    return said.group(0) if said else ""
