"""One note for each of several deals: «Какие у меня сделки в рублях? К каждой добавь заметку «…»», «Во все
открытые сделки добавь заметку «…»», "add a note to all of Oleg's deals: …" -> a `create_note` per deal.
The deals are the ones the message just listed, or those its own words filter (stage, owner, currency,
open); with no filter at all it is not read here (a note "to every deal" is asked about by the note rule)."""

from __future__ import annotations

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import Clause
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import CreateNote, Filters, Find
from planner.rules import rule
from planner.rules._common import currency_said, find, quoted

__all__ = ["note_on_each"]

# «к каждой», «ко всем сделкам», «во все открытые сделки», "to each of them", "on all of Oleg's deals"
_EACH = LazyRe(
    r"(?i)\b(?:к|в|на|во|ко)\s+(?:кажд\w+|все\w*)\b|\bкажд(?:ой|ому|ую)\b"
    r"|\b(?:to|on|for)\s+(?:each|every|all)(?:\s+of)?\b"
)
_NOTE = LazyRe(r"(?i)\b(?:заметк\w*|note)\b")
_DEALS = LazyRe(r"(?i)\b(?:сделк\w*|deals?)\b")
_OPEN = LazyRe(r"(?i)\b(?:открыт\w*|open|active|активн\w*)\b")
_MINE = LazyRe(r"(?i)\b(?:мои|моих|моим|my|mine)\b")


@rule(44, writes=True)
async def note_on_each(clause: Clause, ctx: BuildContext) -> bool:
    if not (_NOTE.search(clause.text) and _EACH.search(clause.text)):
        return False
    listed = [i for i in ctx.intents if isinstance(i, Find) and i.object == "deals" and not i.filters.record]
    said_deals = bool(_DEALS.search(clause.text))
    if not (listed or said_deals):
        return False
    body = clause.after_colon or quoted(clause.text, at_least=3)
    if not body:
        return False  # what the notes say is asked by the note rule
    filters = [x.filters for x in listed] if listed and not said_deals else [await _said_filters(clause, ctx)]
    if not any(f.model_dump(exclude_none=True) for f in filters):
        return False  # "a note on every deal": no filter said — never every deal on a guess
    deals: list[Entity] = []
    for f in filters:
        deals += [d for d in await refs.deals_matching(ctx, f) if d not in deals]
    if not deals:
        return False
    for deal in deals:
        await ctx.emit(CreateNote(record=deal.name, body=body.strip()[:10_000]), record=("deals", deal))
    return True


async def _said_filters(clause: Clause, ctx: BuildContext) -> Filters:
    stages = [m.entity.name for m in await find(ctx, clause, "stage") if m.score >= 1.0]
    owners = [m.entity.name for m in await find(ctx, clause, "member") if m.score >= 0.5]
    return Filters(
        stage="open" if _OPEN.search(clause.text) else stages[0] if stages else None,
        owner="me" if _MINE.search(clause.text) else owners[0] if owners else None,
        currency=currency_said(clause.text),
    )
