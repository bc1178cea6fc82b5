"""One note for each of several deals: «Какие у меня сделки в рублях? К каждой добавь заметку «…»», «Во все
открытые сделки добавь заметку «…»», "add a note to all of Oleg's deals: …" -> a `create_note` per deal.
The deals are the ones the message just listed, or those its own words filter (stage, owner, currency,
open); with no filter at all it is not read here (a note "to every deal" is asked about by the note rule)."""

from __future__ import annotations

import re
from datetime import datetime, time

from planner import references as refs
from planner._lazy_re import LazyRe
from planner.analysis import Clause, analyse
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import CreateIssue, CreateNote, CreateTask, Filters, Find, UpdateMatching
from planner.rules import rule
from planner.rules._common import currency_said, find, quoted, strip_spans
from planner.rules.bulk import _deal_filters, _deal_stages, _issue_filters, _listed_before, _unread
from planner.rules.crm_tasks import _colleague
from planner.text import IN_QUOTES

__all__ = ["made_on_each", "note_on_each"]

# «к каждой», «ко всем сделкам», «во все открытые сделки», "to each of them", "on all of Oleg's deals"
_EACH = LazyRe(
    r"(?i)\b(?:к|в|на|во|ко)\s+(?:кажд\w+|все\w*)\b|\bкажд(?:ой|ому|ую)\b"
    r"|\b(?:to|on|for)\s+(?:each|every|all)(?:\s+of)?\b"
)
_NOTE = LazyRe(r"(?i)\b(?:заметк\w*|note)\b")
_NOTHING_BUT_THE_ASK = LazyRe(
    r"(?i)\s*(?:(?:в|in)\s+(?:the\s+)?(?:crm|црм|attio|аттио)\s*)?(?:,?\s*(?:please\s+|пожалуйста\s+)?"
    r"(?:добавь\w*|add|оставь\w*|leave|put|запиши\w*|напиши\w*|post)\b[^,]*)?[\s.]*$"
)
_EVERY_ONE = LazyRe(
    r"(?i)\b(?:во|в|ко|к|на|to|on|for)\s+(?:all|every|each|все|всем|всех)\s+(?:(?:the|our|of\s+the|of\s+our)\s+)?"
    r"(?:сделк\w*|компани\w*|deals?|compan(?:y|ies))\b"
)
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
    every = not any(f.model_dump(exclude_none=True) for f in filters)
    if every and (listed and not said_deals or not await _every_one_said(clause, ctx)):
        return False  # "a note on every deal" with a condition unread: never every deal on a guess
    deals: list[Entity] = []
    for f in filters:
        deals += [d for d in await refs.deals_matching(ctx, f) if d not in deals]
    if every:
        deals = await ctx.directory.deals()  # «во все сделки добавь заметку «…»»: each one, said so
    if not deals:
        return False
    for deal in deals:
        await ctx.emit(CreateNote(record=deal.name, body=body.strip()[:10_000]), record=("deals", deal))
    return True


async def _every_one_said(clause: Clause, ctx: BuildContext) -> bool:
    """ "to every deal", «ко всем компаниям в CRM»: all of them said, and no word left that could be a condition."""
    head = IN_QUOTES.sub(" ", clause.text.split(":", 1)[0])
    said = _EVERY_ONE.search(head)
    # (nothing said of them after the noun but where they are and the verb: "… that has a deal in …" is a condition)
    return (
        said is not None
        and _NOTHING_BUT_THE_ASK.match(head[said.end() :]) is not None
        and not await _unread(analyse(head, ctx.now), ctx)
    )


async def _said_filters(clause: Clause, ctx: BuildContext) -> Filters:
    stages = [m.entity.name for m in await find(ctx, clause, "stage") if m.score >= 1.0]
    owners = [m.entity.name for m in await find(ctx, clause, "member") if m.score >= 0.5]
    return Filters(
        stage="open" if _OPEN.search(clause.text) else stages[0] if stages else None,
        owner="me" if _MINE.search(clause.text) else owners[0] if owners else None,
        currency=currency_said(clause.text),
    )


# ---- one comment, note or CRM task on each record a filter finds (`update_matching` with a thing to make) ----
# "comment on every urgent issue: …", «По всем задачам проекта Mobile App оставь комментарий «…»», "for each of
# Oleg's deals create a CRM task '…'", «Добавь заметку каждому контакту из Acme Corp: «…»»
_QUANTIFIED = LazyRe(
    r"(?i)(?<![\w-])(?:every|each|all|кажд\w+|всем|всех|все|всё)(?![\w-])(?:\s+of)?(?:\s+(?:the|our|my|мо\w+|[\w-]+'s))?"
    r"(?:\s+[\w-]+){0,3}?\s+(?P<noun>issues?|tickets?|bugs?|задач\w*|тикет\w*|баг\w*|deals?|сдел[ко]\w*|contacts?|people|"
    r"persons?|контакт\w*|companies|company|компани\w*)\b"
)
# after a list asked for just before: "Find issues due … and comment on each: …", "for each one …"
_EACH_OF_THOSE = LazyRe(
    r"(?i)\b(?:on|to|for)\s+(?:each|every|all)(?:\s+(?:one|of\s+(?:them|those)))?\b|\b(?:каждой|каждому|каждую|всем\s+им|им\s+всем|"
    r"к\s+каждой|для\s+каждой|по\s+каждой)\b"
)
_COMMENT = LazyRe(r"(?i)\b(?:comment\w*|коммент\w*)\b")
_TASK = LazyRe(r"(?i)\b(?:task|tasks|задач[уиа]?|таск\w*|to-?do)\b")
_LINEAR_SAID = LazyRe(
    r"(?i)\b(?:linear|линеар\w*|issues?|tickets?|тикет\w*)\b|\b[A-Z]{2,5}\s+(?:issue|задач\w*)"
)
_INCLUDED = LazyRe(r"(?i),?\s*(?:[\w-]+\s+)?(?:ones\s+)?included\b|,?\s*(?:включая|в\s+том\s+числе)\s+[\w-]+")
_MAKE_WORDS = LazyRe(
    r"(?i)\b(?:add|leave|post|put|drop|write|create|make|set|log|добавь\w*|оставь\w*|напиши\w*|поставь\w*|"
    r"заведи\w*|создай\w*|запиши\w*|comment\w*|коммент\w*|комментари\w*|notes?|заметк\w*|tasks?|задач[уиа]?|crm|attio|"
    r"on|to|for|of|по|для|к|ко|a|an|the|each|every|all|кажд\w+|всем|всех|все|saying|that|что|with|с|текстом)\b"
)


_VERB_AFTER = LazyRe(
    r"(?i)(?:\s+[—–-]+>?|\s*->|\s*→)?\s+(?:please\s+)?(?:add|leave|post|put|drop|write|create|make|set|log|добавь\w*|"
    r"оставь\w*|напиши\w*|поставь\w*|заведи\w*|создай\w*|запиши\w*)\b"
)


@rule(14, writes=True)
async def made_on_each(clause: Clause, ctx: BuildContext) -> bool:
    """A comment on each issue, a note or a CRM task on each deal or contact a filter finds."""
    head = clause.text.split(":", 1)[0] if clause.after_colon is not None else clause.text
    said = _QUANTIFIED.search(IN_QUOTES.sub(" ", head))  # (read for every clause: the cheap test first)
    listed = await _listed_before(clause, ctx) if not said and _EACH_OF_THOSE.search(head) else []
    if not (said or listed):
        return False
    stages: list[str] = []
    body = (
        quoted(clause.text, at_least=3, apostrophes=True)
        or (clause.after_colon or "").strip().strip("«»\"'“”")
        or None
    )
    noun = said["noun"].lower() if said else ""
    scan = (
        clause.text.replace(body, " ") if body else clause.text
    )  # ("…: add comment '…'": the ask after a colon)
    asked = analyse(
        re.sub(r"\s*(?:->|→)\s*", " ", scan), ctx.now
    )  # ("all deals owned by me -> create a task")
    if asked.has("complete", "move", "archive", "delete") or asked.has("assign") and not _TASK.search(scan):
        return False  # «закрой все задачи CS с комментарием «готово»»: a change with its comment, not comments alone
    if _COMMENT.search(scan):
        kind, obj = "comment", "issues"
    elif _NOTE.search(scan):
        kind = "note"
        obj = "people" if re.match(r"(?:contact|people|person|контакт)", noun) else ""
    elif (_TASK.search(scan) or _LINEAR_SAID.search(scan)) and (
        re.match(r"(?:deal|сдел)", noun) or listed and listed[0].object == "deals"
    ):
        if not (
            clause.creates()
            or _VERB_AFTER.search(" " + scan)
            or re.search(r"(?i)\bopen\s+(?:a|an|one)\b", scan)
        ):
            return False  # ("close all deals issues": nothing to make)
        if _LINEAR_SAID.search(head):  # "for each deal open a CS issue …": one issue per deal is not made
            raise ctx.ask(
                "request",
                ctx.t(
                    "Задачу в Linear на каждую сделку разом я не завожу. Завести одну задачу (скажите, какую) или "
                    "по задаче в CRM на каждую сделку?",
                    "I don't open a Linear issue per deal at once. Open one issue (say which), or a CRM task on each deal?",
                ),
            )
        kind, obj = "task", "deals"
    else:
        return False
    if listed:
        obj = obj or listed[0].object
        if listed[0].object != obj:
            return False
    elif kind == "comment" and not re.match(r"(?:issue|ticket|bug|задач|тикет|баг)", noun):
        return False
    if (
        not obj
        and re.match(r"(?:compan|компани)", noun)
        and kind == "note"
        and body
        and await _every_one_said(clause, ctx)
    ):
        for company in await ctx.directory.companies():  # «ко всем компаниям в CRM добавь заметку: …»: each
            await ctx.emit(
                CreateNote(record=company.name, body=body.strip()[:10_000]), record=("companies", company)
            )
        return True
    if not obj and re.match(r"(?:compan|компани)", noun):
        # "a note on every company that has a deal in Negotiation": which companies is not read — asked
        raise ctx.ask(
            "record",
            ctx.t(
                "Заметку каждой компании по условию я не добавляю. К каким компаниям (или сделкам) её добавить?",
                "I don't add a note to every company matching a condition. Which companies (or deals) should get it?",
            ),
        )
    if not obj:
        return False  # a note on each deal is `note_on_each`'s
    if not body:
        if kind == "task":  # «Для всех сделок Макса поставь задачу»: what the task says is asked
            raise ctx.ask("content", ctx.t("Что за задача?", "What should the task say?"))
        return False
    rest = head.replace(body, " ") if body in head else head
    rest = _INCLUDED.sub(" ", rest)
    if said is not None:
        # «Для всех сделок на стадиях Proposal и Negotiation поставь Максу задачу …»: which records is said from
        # the quantifier to the verb that makes the thing (Max after it is whose task, not whose deals)
        verb = _VERB_AFTER.search(rest, said.start())
        rest = rest[said.start() : verb.start()] if verb else rest[said.start() :]
    filters: Filters
    if listed:
        filters = listed[0].filters
    elif obj == "issues":
        which = analyse(_MAKE_WORDS.sub(" ", rest), ctx.now)
        if await _unread(which, ctx, issues=True):
            return False
        filters = await _issue_filters(which, ctx, which.text, {})
    elif obj == "deals":
        which = analyse(_MAKE_WORDS.sub(" ", strip_spans(rest, clause.moment.spans)), ctx.now)
        if await _unread(which, ctx, kinds=("member", "user", "stage")):
            return False
        filters = await _deal_filters(which, ctx, which.text)
        stages = await _deal_stages(which, ctx, which.text)
    else:  # «каждому контакту из Acme Corp»: the people of a company
        companies = [m for m in await find(ctx, clause, "company", text=rest) if m.score >= 0.9]
        whole = [m for m in companies if m.entity.name.lower() in rest.lower()]
        companies = whole or companies  # ("Acme Corp" said whole: not Acme Logistics too)
        if len(companies) != 1:
            return False
        filters = Filters(company=companies[0].entity.name)
    if obj != "people" and not filters.model_dump(exclude_none=True):
        return False  # no filter said: never on every record on a guess
    change: dict[str, object]
    if kind == "task":
        who = await _colleague(clause, ctx)
        made_at = _VERB_AFTER.search(head, said.start()) if said else None
        mine = re.search(r"(?i)\b(?:мне|me|myself|себе)\b", head[made_at.start() :] if made_at else head)
        day = clause.moment.day
        due = (
            datetime.combine(day, clause.moment.at or time(9, 0), tzinfo=ctx.now.tzinfo).isoformat(
                timespec="seconds"
            )
            if day
            else None
        )
        task = {
            "content": body[:500],
            "deadline": due,
            "assignee": who.name if who else "me" if mine else None,
        }
        change = {"task": {k: v for k, v in task.items() if v}}
    else:
        change = {kind: body[:10_000]}
    for stage in (
        stages if len(stages) > 1 else [filters.stage]
    ):  # ("on stages Proposal and Negotiation": each's)
        which_ones = filters.model_copy(update={"stage": stage})
        await ctx.emit(UpdateMatching(object=obj, filters=which_ones, changes=change))  # type: ignore[arg-type]
    return True


# «…, и такую же на Макса», "and the same one for Max": the thing just made, made again for another colleague
_THE_SAME_FOR = LazyRe(
    r"(?i)^\s*(?:(?:и|а|and|also|plus)\s+)?(?:ещё\s+|еще\s+)?(?:(?:такую|такой|такое|таку)\s+же|(?:the\s+)?same(?:\s+one)?|"
    r"one\s+more\s+like\s+(?:it|that))(?:\s+(?:задачу|таск\w*|task|issue|ticket|тикет))?\s+(?:на|для|for|to)\s+(?P<who>\S+)\s*[.!]?\s*$"
)


@rule(13, writes=True)
async def the_same_for(clause: Clause, ctx: BuildContext) -> bool:
    """The issue or CRM task made just before, once more for the colleague named."""
    said = _THE_SAME_FOR.match(clause.text)
    last = ctx.intents[-1] if ctx.intents else None
    if said is None or not isinstance(last, (CreateIssue, CreateTask)):
        return False
    kind = "user" if isinstance(last, CreateIssue) else "member"
    whom = [m.entity for m in await find(ctx, clause, kind, text=said["who"]) if m.score >= 0.5]
    if len(whom) != 1:
        return False
    # (a new intent, not a copy: the first one's resolved records — its assignee — must not come along)
    again = type(last).model_validate(
        {**last.model_dump(exclude={"span", "confidence"}), "assignee": whom[0].name}
    )
    await ctx.emit(again, assignee=whom[0])
    return True
