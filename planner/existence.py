"""A question whether a record exists, then what to do with the answer: «Есть задача про экспорт в PDF? Если нет —
заведи баг», "Do we have Pied Piper in the CRM? If not, create the company, domain piedpiper.com", "Do we have an
issue for the Initech quarterly check-in? If so, assign it to Max".

The record is looked up while planning. Where the answer means nothing is to be done (it exists and only its
absence was to be acted on, or it is missing and only its presence was), nothing is drafted and the person is told
what was found; otherwise the request after the question is read as said, the record's words carried to it where
it names none ("create the company" → "create the company Pied Piper")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner._lazy_re import LazyRe
from planner.analysis import analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.resolve import keys_for
from planner.rules._common import find

__all__ = ["Asked", "existence_asked"]

_ASKED = LazyRe(
    r"(?is)^\W*(?:(?:слушай|hey|so|а|и|ok|окей)[,\s]+)?"
    r"(?:есть\s+ли|есть|у\s+нас\s+есть|is\s+there|are\s+there|do\s+we\s+(?:already\s+)?have|have\s+we\s+got)\s+"
    r"(?P<what>[^?]{2,160})\?\s*(?P<branch>(?:а\s+)?если\s+нет|if\s+not|if\s+no|otherwise|если\s+да|если\s+есть|"
    r"if\s+so|if\s+yes|if\s+there\s+is|if\s+we\s+do)\b[\s,—–:-]*(?P<then>\S.*)$"
)
_WHEN_MISSING = LazyRe(r"(?i)нет|not|no\b|otherwise")
_ISSUE_WORDS = LazyRe(
    r"(?i)\b(?:issues?|tickets?|bugs?|tasks?|задач\w*|тикет\w*|баг\w*|фич\w*|ишью|linear|линеар\w*)\b"
)
# what is left of the words once the question's frame goes: the record's own words
_FRAME = LazyRe(
    r"(?i)\b(?:у\s+нас|в\s+(?:crm|срм|црм|attio|linear|линеаре?)|in\s+(?:the\s+)?(?:crm|attio|linear)|already|уже|"
    r"an?|the|any|ли|ещё|еще|(?:some|одна|один)|open|открыт\w*|for|about|про|по|on|в|in)\b"
)
_KIND_WORD = LazyRe(
    r"(?i)\b(?:company|компани\w*|contact|контакт\w*|person|человек\w*|deal|сделк\w*|issues?|tickets?|bugs?|tasks?|"
    r"задач\w*|тикет\w*|баг\w*|фич\w*|feature\s+request)\b"
)
_IT = LazyRe(r"(?i)\b(?:it|её|ее|его|him|her)\b")
_CREATE_BARE = LazyRe(
    r"(?i)^\s*(?P<verb>create|add|make|open|file|log|заведи|создай|добавь|сделай|открой)\b(?P<rest>.*)$"
)


@dataclass(frozen=True)
class Asked:
    told: str | None  # nothing is to be done: what to tell the person
    text: str | None  # the request to read instead of the whole message


async def existence_asked(text: str, ctx: BuildContext) -> Asked | None:
    said = _ASKED.match(text.strip())
    if said is None:
        return None
    what, then = said["what"].strip(" ,"), said["then"].strip()
    when_missing = bool(_WHEN_MISSING.search(said["branch"]))
    about_issues = bool(_ISSUE_WORDS.search(what) or _ISSUE_WORDS.search(then))
    found = await (_issues_like(what, ctx) if about_issues else _records_named(what, ctx))
    named = ", ".join(_shown(e) for e in found[:3])
    if when_missing and found:
        return Asked(
            ctx.t(f"Уже есть: {named} — ничего не создаю.", f"Already there: {named} - creating nothing."),
            None,
        )
    if not when_missing and not found:
        return Asked(
            ctx.t(f"Не нашёл «{what}» — ничего не меняю.", f"I didn't find '{what}' - changing nothing."),
            None,
        )
    if not when_missing:
        if len(found) > 1:
            return None  # several: the request as said asks which
        one = found[0]
        name = one.id if one.kind == "issue" else one.name
        return Asked(None, _IT.sub(name, then, count=1) if _IT.search(then) else f"{then} {name}")
    return Asked(None, _carried(what, then))


def _carried(what: str, then: str) -> str:
    """The request after "if not", with the record's words where it names none of its own."""
    own = _KIND_WORD.sub(" ", _FRAME.sub(" ", what))
    own = re.sub(r"\s+", " ", own).strip(" ,")
    if not own or own.lower() in then.lower():
        return then
    kind = _KIND_WORD.search(then)
    if kind:  # "create the company, domain piedpiper.com": the name after the word for the thing
        return f"{then[: kind.end()]} {own}{then[kind.end() :]}"
    bare = _CREATE_BARE.match(then)
    if bare:  # «создай, домен alfaleasing.ru»: what to make, as the question named it
        thing = _KIND_WORD.search(what)
        noun = f" {thing.group(0)}" if thing else ""
        return f"{bare['verb']}{noun} {own}{bare['rest']}"
    return then


def _shown(e: Entity) -> str:
    return f"{e.id} {e.name}" if e.kind == "issue" else e.name


async def _records_named(what: str, ctx: BuildContext) -> list[Entity]:
    clause = analyse(what, ctx.now)
    kinds = ["deal", "company", "person"]
    said = _KIND_WORD.search(what)
    if said:  # «компания Альфа-Лизинг»: the kind it says first (the company, not its deal)
        word = said.group(0).lower()
        first = (
            "company"
            if word.startswith(("compan", "компан"))
            else "person"
            if word.startswith(("contact", "контакт", "person", "человек"))
            else "deal"
        )
        kinds = [first, *(k for k in kinds if k != first)]
    for kind in kinds:
        strong = [m.entity for m in await find(ctx, clause, kind) if m.score >= 0.9]
        if strong:
            return list({e.id: e for e in strong}.values())
    return []


async def _issues_like(what: str, ctx: BuildContext) -> list[Entity]:
    """Issues whose title holds every word the question says of it («про экспорт в PDF» → "Crash on export to
    PDF"), compared by the words' lemmas."""
    own = keys_for(_ISSUE_WORDS.sub(" ", _FRAME.sub(" ", what)))
    wanted = [k for k in own if len(k.text) > 2]
    if not wanted:
        return []
    out = []
    for issue in await ctx.directory.issue_titles():
        title = keys_for(issue.name)
        if all(any(w.lemmas & t.lemmas or w.phon == t.phon for t in title) for w in wanted):
            out.append(issue)
    return out
