"""Two records offered as alternatives in one request: «Перенести ENG-101 или лучше ENG-102 …?», "assign it
to Oleg or Max, not sure who". Either could be meant, so the person picks one — a change never goes to
both, nor to the first one guessed (DESIGN §5a: prefer one good question to a guessed draft)."""

from __future__ import annotations

from dataclasses import dataclass

from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse
from planner.context import Ask, BuildContext
from planner.rules._common import find

__all__ = ["settle_alternatives"]

_CHANGES = (
    "move",
    "complete",
    "delete",
    "archive",
    "assign",
    "create",
    "rename",
    "put",
    "due",
    "priority",
    "comment",
)
_OR = r"\s*,?\s+(?:или|либо|or)\s+(?:(?:лучше|может(?:\s+быть)?|наверное|maybe|perhaps|rather|probably)\s+)?"
_ANY_OR = LazyRe(r"(?i)\s(?:или|либо|or)\s")
_ISSUES = LazyRe(rf"(?i)\b([A-Z]{{1,10}}-\d+){_OR}([A-Z]{{1,10}}-\d+)\b")
# «на Олега или Макса», "to Oleg or Max": two people it could go to, one of them meant ("ask Oleg or Max
# about …" in a title is no choice of who does it)
_PEOPLE = LazyRe(
    rf"(?i)\b(?:на|to|for|для)\s+([^\W\d_][\w-]+){_OR}(?:(?:на|to|for|для)\s+)?([^\W\d_][\w-]+)\b"
)


@dataclass(frozen=True)
class _Either:
    span: tuple[int, int]
    said: tuple[str, str]
    labels: tuple[str, str]


async def settle_alternatives(text: str, ctx: BuildContext) -> str:
    """The request with the alternative the person picked (and their doubt about it taken off), or
    `text` when it offers none.

    Raises:
        Ask: two alternatives were offered and none is picked yet.
    """
    if not _ANY_OR.search(text):
        return text  # (most requests offer no alternative: the text is not read twice for it)
    clause = analyse(text, ctx.now)
    if not clause.has(*_CHANGES):
        return text  # «ENG-101 или ENG-102 важнее?» asks; the reading rules answer it
    either = await _issues(clause, ctx) or await _people(clause, ctx) or await _stages(clause, ctx)
    if either is None:
        return text
    picked = ctx.answer("either")
    if picked not in either.said:
        raise _question(ctx, either)
    a, b = either.span
    rest = _DOUBT.sub(
        "", text[b:], count=1
    )  # «…, не знаю, кому лучше: починить экспорт»: the doubt is settled
    return text[:a] + picked + rest


# the doubt said right after the alternatives: «…, не знаю, кому лучше», ", not sure who", "? Не знаю, что важнее"
_DOUBT = LazyRe(
    r"(?i)^\s*[,?]?\s*(?:не\s+знаю|не\s+уверен\w*|хз|not\s+sure|i\s+don'?t\s+know|no\s+idea)"
    r"(?:\s*,?\s*(?:кому|кого|что|какую|какой|who|which|whom)\b[^:.!?;]*)?[.!?]?"
)


def _question(ctx: BuildContext, either: _Either) -> Ask:
    first, second = either.labels
    return ctx.ask(
        "either",
        ctx.t(f"Что из двух: {first} или {second}?", f"Which one: {first} or {second}?"),
        choices=[(label, said) for label, said in zip(either.labels, either.said, strict=True)],
        risk="ambiguous",
    )


async def _issues(clause: Clause, ctx: BuildContext) -> _Either | None:
    m = _ISSUES.search(clause.text)
    if m is None or m.group(1).upper() == m.group(2).upper():
        return None
    labels = []
    for key in (m.group(1), m.group(2)):
        found = await ctx.directory.issue(key.upper())
        labels.append(f"{key.upper()} «{found.get('title')}»" if found else key.upper())
    return _Either((m.start(1), m.end(2)), (m.group(1), m.group(2)), (labels[0], labels[1]))


async def _people(clause: Clause, ctx: BuildContext) -> _Either | None:
    if not clause.has("assign", "create", "put", "move"):
        return None
    for m in _PEOPLE.finditer(clause.text):
        names = []
        for word in (m.group(1), m.group(2)):
            who = {x.entity.name for x in await find(ctx, clause, "user", text=word) if x.score >= 0.5}
            if len(who) != 1:
                break
            names.append(who.pop())
        if len(names) == 2 and names[0] != names[1]:
            return _Either((m.start(1), m.end(2)), (m.group(1), m.group(2)), (names[0], names[1]))
    return None


# «…переведи в Won или в Lost — смотря что ответит Jane», "move it to Won or Lost"
_STAGES = LazyRe(
    rf"(?i)\b(?:в|во|на|to|into)\s+([^\W\d_][\w-]*){_OR}(?:(?:в|во|на|to|into)\s+)?([^\W\d_][\w-]*)\b"
)


async def _stages(clause: Clause, ctx: BuildContext) -> _Either | None:
    if not clause.has("move", "put", "deal"):
        return None
    for m in _STAGES.finditer(clause.text):
        names = []
        for word in (m.group(1), m.group(2)):
            found = {x.entity.name for x in await find(ctx, clause, "stage", text=word) if x.score >= 1.0}
            if len(found) != 1:
                break
            names.append(found.pop())
        if len(names) == 2 and names[0] != names[1]:
            return _Either((m.start(1), m.end(2)), (m.group(1), m.group(2)), (names[0], names[1]))
    return None
