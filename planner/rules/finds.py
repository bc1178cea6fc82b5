"""Filtered reads and totals: "everything in review in DES", "сколько открытых багов в ENG",
"какие задачи на мне", "Oleg's deals in negotiation and their sum", "who owns the Globex deal",
"who is our contact at Acme" -> a `find` intent with filters and an aggregate."""

from __future__ import annotations

import re
from typing import Any, Literal

from planner._lazy_re import LazyRe
from planner.analysis import HEADED_THING, Clause
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import Filters, Find
from planner.resolve import key_spans
from planner.rules import rule
from planner.rules._common import (
    aggregate_of,
    currencies_said,
    currency_said,
    due_range,
    each_once,
    find,
    group_said,
    strong,
    the_companys_one_deal,
)
from planner.rules._linear_common import ANY_DUE_DATE, NO_DUE_DATE, NOBODY, STATE_PHRASES
from planner.rules.bulk import _LABEL_WORDS, _OPEN, _team, _teams_named

__all__ = ["filtered_issues", "people_at", "who_owns"]

_MINE = LazyRe(
    r"\b(?:my|mine|на\s+мне|мои|моих|мой|моим|моими|моей|моя|моё|мое|мою|assigned\s+to\s+me|у\s+меня|(?:do|have)\s+i\s+(?:have|got|own)|"
    r"(?:закрепл[её]н\w*|назначен\w*)\s+(?:за|на)\s+мн?(?:ой|е|еня)|(?:that\s+)?i\s+(?:own|have|run|handle))\b",
    re.I,
)
_ASKS_LIST = LazyRe(
    r"^\s*(?:(?:а|и|ну|so|and|ok|okay|um+|uh+|well|hey|слушай|так|короче|э+)[,\s]+)*(?:покажи|показать|выведи|список|перечисли|найди|list|show|find|give\s+me|"
    r"what|which|what's|whats|что|какие|какой|сколько|how\s+many|how\s+much|count|total|sum|итого|everything|всё|все|"
    r"any|есть\s+ли|who|кто|open\s+(?:bugs|issues|tickets|tasks|deals))\b",
    re.IGNORECASE,
)


_TITLE_GIVEN = LazyRe(r"(?i)\b(?:title|titled|called|named|название|назови\w*)\s*[:—–-]?\s*['\"«“]")
_OPEN_THINGS = LazyRe(r"(?i)\bopen\s+(?:bugs|issues|tickets|tasks|deals)\b")
_MAKING = LazyRe(r"(?i)\b(?:create|add|make|file|log|new|raise)\b")


def _listing(clause: Clause) -> bool:
    if HEADED_THING.match(clause.text) and not clause.text.rstrip().endswith("?"):
        return False  # "Bug: Safari users get logged out when switching tabs": a thing to file, no list asked
    if _TITLE_GIVEN.search(clause.text) and not clause.text.rstrip().endswith("?"):
        return False  # "…. bug in ENG, title 'Android session expires every 5 min', urgent": a thing to file
    return (
        bool(_ASKS_LIST.match(clause.text))
        or bool(
            re.match(r"(?i)\s*(?:please\s+)?(?:add|sum|total)\s+(?:\w+\s+){0,3}?up\b", clause.text)
        )  # "add up …"
        or bool(_OPEN_THINGS.search(clause.text) and not _MAKING.search(clause.text))  # "oleg's open issues"
        or clause.text.rstrip().endswith("?")
        or bool(group_said(clause.text) and not _MAKING.search(clause.text))  # «открытые задачи по статусам»
        or not clause.creates()  # «По Globex: задачу Олегу …» names what to make; «открытых» makes nothing
        and not clause.has(
            "move",
            "complete",
            "delete",
            "archive",
            "comment",
            "assign",
            "rename",
            "put",
            "remind",
            "note_verb",
            "schedule",
            "block",
            "meeting",
            "todo",
        )
    )


# "the Romashka deal should now be worth 1.5m", «сделка теперь должна стоить …»: a new value, not a sum asked
_NEW_VALUE = LazyRe(
    r"(?i)\b(?:should|must|needs?\s+to|has\s+to|will)\s+(?:now\s+)?(?:be|cost)\b|\bis\s+now\b|"
    r"\bдолжн\w*\s+(?:теперь\s+)?(?:быть|стоить)\b"
)


_ASKER_AFTER = LazyRe(
    r"(?i)^\s*(?:wants|needs|asked|asks|is\s+asking|would\s+like|wanted|хочет|хотел\w*|просит|попросил\w*|"
    r"спрашивает|спросил\w*|интересуется)\b"
)


@rule(74)
async def filtered_issues(clause: Clause, ctx: BuildContext) -> bool:
    """Issues by team, state, label, priority or "me", with a count when asked."""
    if (
        not _listing(clause)
        or clause.identifiers
        or clause.has("deal", "crm", "attio", "note", "meeting", "block")
        or _CONTACT_DETAIL.search(clause.text)  # «покажи почту Марии, срочно надо ей написать»: a person's
    ):
        return False
    text = clause.text
    team = await _team(clause, ctx, text)
    state = next((name for rx, name in STATE_PHRASES if rx.search(text)), None)
    state = "open" if state is None and _OPEN.search(text) else state
    label = (
        next((v for w, v in _LABEL_WORDS.items() if re.search(rf"\b{w}\b", text, re.I)), None)
        or next(
            (
                x.name
                for x in await ctx.directory.labels()
                if re.search(
                    rf"(?i)\b(?:метк\w*|лейбл\w*|тег\w*|label\w*|tag\w*)\s*[:—-]?\s*[«\"']?{re.escape(x.name)}(?![\w-])",
                    text,
                )
            ),
            None,
        )
        or next(
            (
                x.name
                for x in await ctx.directory.labels()
                if re.search(
                    rf"(?i)(?<![\w-]){re.escape(x.name)}(?:\s+(?:issues|bugs|tickets|tasks)\b|[\s-]+(?:label|tag)(?:l?ed|s)?\b)",
                    text,
                )
            ),
            None,
        )
    )  # "задачи с меткой security", "open security issues"
    nobody = NOBODY.search(text)
    undated = NO_DUE_DATE.search(text)  # "what ENG issues have no due date?", «какие задачи без срока?»
    dated = None if undated else ANY_DUE_DATE.search(text)  # "which issues have a due date?"
    urgent = _priority_said(text)
    project = next(
        (m.entity for m in await find(ctx, clause, "project") if m.score >= 0.9), None
    )  # «задачи в проекте Mobile App»
    projectless = _NO_PROJECT.search(text)  # «сколько задач в ENG без проекта?», "issues with no project"
    mine = bool(_MINE.search(text))
    aggregate = aggregate_of(text)
    due_after, due_before = due_range(text, ctx)
    busy = _BUSY.search(text)  # "what's Max working on", "on Oleg's plate", «что в работе у Олега»
    everything = re.search(
        r"\b(?:everything|anything|всё|все|что\s+у\s+нас|что\s+(?:сейчас\s+)?(?:лежит|висит|есть|осталось|(?=(?:в|на)\s))|"
        r"what'?s)\b",
        text,
        re.I,
    )
    has_in = re.search(
        r"(?i)\b(?:have|has|got)\s+in\b|\bу\s+[А-ЯЁ]\w+\s+(?:сейчас\s+|щас\s+|уже\s+|ещё\s+|еще\s+)?(?:в|на)\b",
        text,
    )  # "what does Max have in review"
    about_issues = (
        clause.has("issue", "task", "bug", "linear")
        or team is not None
        or project is not None
        or bool(
            label and re.search(r"(?i)(?:\b|-)(?:tagged|labell?ed|label|tag|с\s+меткой|помеченн\w*)\b", text)
        )
        or bool(busy)
        or bool(state and (everything or has_in))
        or bool(nobody)
        or bool(projectless)
        or bool(undated or dated)
        or clause.has("due")
        and bool(due_before or due_after)  # "what's due by December 1?"
        or bool(_BURNING.search(text))  # «что у нас просрочено?», «что горит на этой неделе?»
        or bool(urgent and _ONLY_ISSUES_HAVE.search(text))  # "whats urgent rn": only issues have a priority
    )
    spans = key_spans(text)
    named = [
        m
        for m in await find(ctx, clause, "user")
        if m.score >= 0.5
        and not _ASKER_AFTER.match(
            text[spans[max(m.positions)][1] :] if max(m.positions) < len(spans) else ""
        )
    ]  # "…urgent issues — Max wants them for the standup": who asks is no filter
    mine = mine or any(m.entity.extra.get("is_me") for m in named)  # «что висит на анне» when Anna asks
    users = [m.entity for m in named if not m.entity.extra.get("is_me")]
    if not about_issues or not (
        state
        or label
        or urgent
        or mine
        or aggregate
        or due_before
        or nobody
        or users
        or project
        or team
        or undated
        or dated
        or group_said(text)  # "issues per team": the breakdown is the filter
        or projectless
    ):
        return False
    if busy and state is None:
        state = "open"
    who: Entity | None = users[0] if users and not mine else None
    filters = Filters(
        team=team.name if team else None,
        project=project.name if project else "none" if projectless else None,
        state=state,
        label=label,
        priority=urgent,
        assignee="none" if nobody else "me" if mine else who.name if who else None,
        due_after=due_after,
        due_before=due_before,
        due="none" if undated else "any" if dated else None,
    )
    teams = await _teams_named(ctx, text)
    if len(teams) > 1:  # "the medium priority issues in CS and DES": each team's
        for name in teams:
            await ctx.emit(
                Find(object="issues", filters=filters.model_copy(update={"team": name}), aggregate=aggregate),
                assignee=who,
                project=project,
            )
        return True
    await ctx.emit(
        Find(object="issues", filters=filters, aggregate=aggregate), team=team, assignee=who, project=project
    )
    return True


_NO_PROJECT = LazyRe(
    r"(?i)\bбез\s+проекта\b|\b(?:with\s+no|without\s+an?|not\s+in\s+an?y?|no)\s+project\b|\bне\s+в\s+проекте\b"
)
_BUSY = LazyRe(
    r"(?i)\b(?:working\s+on|work\s+on|busy\s+with|on\s+(?:\w+'s|his|her|their|my)\s+plate|plate|"
    r"занят\w*|делает|висит|в\s+работе\s+у)\b"
)
_PRIORITY_LEVEL = LazyRe(
    r"(?i)\b(?:(urgent|срочн\w*|критичн\w*|highest[\s-]priority|самы\w+\s+приоритетн\w*|(?:наивысш|максимальн)\w*\s+приоритет\w*)|"
    r"(high|высок\w*|важн\w*)[\s-]*(?:priority|prio|приоритет\w*)|(?:priority|приоритет\w*)\s+(?:is\s+)?(high|высок\w*)|"
    r"(medium|normal|средн\w*|обычн\w*)[\s-]*(?:priority|prio|приоритет\w*)|"
    r"(low|низк\w*)[\s-]*(?:priority|prio|приоритет\w*)|(?:priority|приоритет\w*)\s+(?:is\s+)?(low|низк\w*))\b"
)


def _priority_said(text: str) -> Literal["urgent", "high", "medium", "low"] | None:
    """ "high priority", «с низким приоритетом», "urgent": the priority a list is filtered by."""
    m = _PRIORITY_LEVEL.search(text)
    if m is None:
        return None
    if m.group(1):
        return "urgent"
    if m.group(2) or m.group(3):
        return "high"
    if m.group(4):
        return "medium"
    return "low"


_ONLY_ISSUES_HAVE = LazyRe(r"(?i)\b(?:urgent|срочн\w*|критичн\w*|priority|prio|приоритет\w*)\b")
_BURNING = LazyRe(r"(?i)\b(?:overdue|просроч\w*|горит|горят|burning|on\s+fire)\b")
_MONEY_IN = LazyRe(r"(?i)\b(?:денег|деньги|бабла|бабки|бабок|money|revenue|\$)\b|\$")


@rule(76)
async def who_owns(clause: Clause, ctx: BuildContext) -> bool:
    """ "who owns the Alfa-Leasing deal", "кто ведёт сделку с Ромашкой": the deal, with its owner."""
    if not re.search(r"\b(?:who|кто|чья|чей)\b", clause.text, re.I):
        return False
    if not re.search(
        r"\b(?:owns?|owner|handl\w+|runs?|leads?|responsible|ведёт|ведет|отвечает|ответственн\w*|владел\w*|чья|чей)\b",
        clause.text,
        re.I,
    ):
        return False
    deals = strong(await find(ctx, clause, "deal"))
    if not deals:  # "who owns alfa?": the company named, and the one deal it has
        only = await the_companys_one_deal(ctx, clause)
        if only is None:
            return False
        await ctx.emit(Find(object="deals", filters=Filters(record=only.name)), record=("deals", only))
        return True
    deal = ctx.choose("deal", "deal", clause.text, deals, ctx.t("Какую сделку?", "Which deal?"))
    if deal is None:
        return False
    await ctx.emit(Find(object="deals", filters=Filters(record=deal.name)), record=("deals", deal))
    return True


@rule(77)
async def people_at(clause: Clause, ctx: BuildContext) -> bool:
    """ "who is our contact at Acme Logistics", "кто у нас контакт в Ромашке": people of a company."""
    if not re.search(r"\b(?:contacts?|контакт\w*|people|person|люди|кто|who|whom)\b", clause.text, re.I):
        return False
    if not re.search(r"\b(?:at|in|from|в|из|у|с)\s+\S", clause.text, re.I) or not _listing(clause):
        return False
    companies = [m for m in await find(ctx, clause, "company") if m.score >= 0.9]
    if not companies or clause.has("deal"):
        return False
    company = companies[0].entity
    await ctx.emit(Find(object="people", filters=Filters(company=company.name)), company=company)
    return True


_PIPELINE = LazyRe(r"(?i)\b(?:pipeline|пайплайн\w*|воронк\w*)\b")


_THOSE = LazyRe(r"(?i)\b(?:they|them|those|these|their|их|они|эти|этих|на\s+них)\b")


@rule(78)
async def deal_totals(clause: Clause, ctx: BuildContext) -> bool:
    """ "sum of my open deals", "сделки Олега в переговорах и их сумма", "сколько сделок в Won"."""
    told = ctx.intents[-1] if ctx.intents and ctx.clause_index > 0 else None
    aggregate_said = aggregate_of(clause.text)
    if (
        isinstance(told, Find)
        and told.object == "deals"
        and aggregate_said
        and aggregate_said != told.aggregate
        # («Сколько всего сделок в CRM и какая общая сумма в долларах?»: the total of those, in that currency)
        and (_THOSE.search(clause.text) or currency_said(clause.text) and not clause.has("issue", "task"))
        and not clause.has("deal")
    ):  # "How many deals do I own and what are they worth in total?": the deals just found, added up
        filters = told.filters.model_copy(
            update={"currency": currency_said(clause.text) or told.filters.currency}
        )
        await ctx.emit(Find(object="deals", filters=filters, aggregate=aggregate_said))
        return True
    money = _MONEY_IN.search(clause.text)  # «сколько денег в переговорах»: the deals there, summed
    staged = [m for m in await find(ctx, clause, "stage") if m.score >= 1.0]
    if not (clause.has("deal") or (money or aggregate_of(clause.text)) and staged):  # "won total"
        return False
    if not _listing(clause) or _NEW_VALUE.search(clause.text) and not clause.text.rstrip().endswith("?"):
        return False
    if (
        (
            re.search(r"\d[\d\s.,]{2,}", clause.text)
            # «сумму сделки в 20к»: the sum it becomes
            or re.search(r"(?i)\b(?:в|на|до|to)\s+[$€₽]?\d[\d\s.,]*\s*(?:k|к|тыс\w*|млн|m)\b", clause.text)
        )
        and not clause.text.rstrip().endswith("?")
        and not clause.has("query")
    ):
        return False  # «Альфа-Лизинг в Won, финальную сумму ставим 850 000»: a sum set, not one asked for
    if any(m.score >= 1.0 for m in await find(ctx, clause, "deal")) or (
        _ONE_DEAL_WITH.search(clause.text) and any(m.score >= 0.9 for m in await find(ctx, clause, "company"))
    ):
        return False  # «какая сумма в сделке «Ромашка — внедрение»?», «сумма сделки с Альфой»: that deal's amount
    aggregate = aggregate_of(clause.text)
    mine = bool(_MINE.search(clause.text))
    # "the pipeline", «пайплайн», «воронка»: the deals still open (Won and Lost are out of it)
    # (totalled: "покажи pipeline Макса" lists everything of his)
    opened = bool(_OPEN.search(clause.text) or aggregate and _PIPELINE.search(clause.text))
    if not (aggregate or mine or opened or currency_said(clause.text)):
        return False
    spans = key_spans(clause.text)
    stages = [
        m.entity
        for m in await find(ctx, clause, "stage")
        if m.score >= 1.0 and not _included(clause.text, spans, m.positions)
    ]  # "all deals in USD, won included", «включая выигранные»: counted in, no filter
    if len(stages) < len(staged):
        opened = False  # (the pipeline with the won ones in it is every deal)
    owners = [m.entity for m in await find(ctx, clause, "member") if m.score >= 0.5] if not mine else []
    for stage in each_once(stages):  # "в Lead и Qualification": each stage
        currencies: list[Any] = list(currencies_said(clause.text)) or [None]
        if _COUNT_THEN_TOTAL_IN.search(clause.text):
            currencies = [
                None
            ]  # "How many deals do I own, and what's the total in USD?": all counted, each summed
        for currency in currencies:  # "in dollars and rubles": each
            await ctx.emit(
                Find(
                    object="deals",
                    filters=Filters(
                        stage=stage.name if stage else "open" if opened else None,
                        owner="me" if mine else owners[0].name if owners else None,
                        currency=currency,
                    ),
                    aggregate=aggregate,
                ),
                stage=stage,
                owner=owners[0] if owners else None,
            )
    return True


_COUNT_THEN_TOTAL_IN = LazyRe(
    r"(?i)\b(?:how\s+many|сколько)\b.*\b(?:total|sum|сумм\w*|итог\w*)\b[^?]*?\b(?:in|в)\s+"
    r"(?:usd|dollars?|rub\w*|roubles?|eur\w*|долл\w*|руб\w*|евро)\b"
)
_CONTACT_DETAIL = LazyRe(r"(?i)\b(?:почт[уаы]|email|e-mail|мейл\w*|имейл\w*|телефон\w*|контакт(?:ы|ов)?)\b")
_ONE_DEAL_WITH = LazyRe(r"(?i)\b(?:сделк[аиеу]|deal)\s+(?:с|со|with)\s+\S")
_INCLUDED_BEFORE = LazyRe(
    r"(?i)\b(?:including|включая|с\s+учётом|с\s+учетом|вместе\s+с)\s+(?:уже\s+|the\s+)?$"
)
_INCLUDED_AFTER = LazyRe(r"(?i)\s*(?:deals?\s+|сделк\w*\s+|ones\s+)?(?:included|too|as\s+well)\b")


def _included(text: str, spans: list[tuple[int, int]], positions: frozenset[int]) -> bool:
    """A stage said as counted in ("won included", «включая уже выигранные»), not as which deals."""
    at = sorted(p for p in positions if p < len(spans))
    if not at:
        return False
    start, end = spans[at[0]][0], spans[at[-1]][1]
    return bool(
        _INCLUDED_BEFORE.search(text[max(0, start - 30) : start]) or _INCLUDED_AFTER.match(text[end:])
    )


# «что висит в переговорах?», «сумма по стадии переговоры?», «что застряло в квалификации?», «что закрыли
# успешно?»: a question about a stage is about the deals in it — only deals have stages
_IN_STAGE = LazyRe(
    r"(?i)\b(?:в|во|на|in|at|по)\s+(?:the\s+)?(?:стади\w+\s+|stage\s+)?$|\b(?:закрыли|closed)\s+$"
)


@rule(71)
async def deals_in_stage(clause: Clause, ctx: BuildContext) -> bool:
    if (
        clause.identifiers
        or clause.has("deal", "issue", "task", "note", "linear")
        or not (clause.asks() or clause.text.rstrip().endswith("?"))
    ):
        return False
    spans = key_spans(clause.text)
    stages = [
        m.entity
        for m in await find(ctx, clause, "stage")
        if m.score >= 1.0
        and m.positions
        and min(m.positions) < len(spans)
        and _IN_STAGE.search(clause.text[: spans[min(m.positions)][0]])
    ]
    if not stages or any(m.score >= 0.9 for m in await find(ctx, clause, "deal")):
        return False
    owners = [m.entity for m in await find(ctx, clause, "member") if m.score >= 0.5]
    for stage in {e.id: e for e in stages}.values():  # «в Lead и Qualification»: each stage once
        await ctx.emit(
            Find(
                object="deals",
                filters=Filters(stage=stage.name, owner=owners[0].name if owners else None),
                aggregate=aggregate_of(clause.text),
            ),
            stage=stage,
            owner=owners[0] if owners else None,
        )
    return True


# "who's overloaded?", "who's sitting on the most issues?", «сколько задач у каждого?», «у кого больше всего
# задач»: open issues counted per person
_WORKLOAD = LazyRe(
    r"(?i)\b(?:who'?s|who\s+is|кто)\s+(?:у\s+нас\s+)?(?:overloaded|busiest|swamped|перегружен\w*|загружен\w*|"
    r"завален\w*)|\bwho(?:'s|\s+is|\s+has)?\s+(?:got\s+|sitting\s+on\s+|holding\s+|carrying\s+)?the\s+most\b|"
    r"\bу\s+кого\s+(?:больше\s+всего|меньше\s+всего)\b|\b(?:сколько\s+задач\s+у\s+каждого|по\s+исполнителям|"
    r"по\s+людям)\b|\b(?:issues|tickets|tasks)\s+(?:per\s+(?:person|assignee|head)|(?:does\s+)?each\s+person)\b|"
    r"\bhow\s+many\s+(?:issues|tickets|tasks)\s+(?:does\s+)?each\b"
)


@rule(73)
async def workload(clause: Clause, ctx: BuildContext) -> bool:
    if clause.identifiers or clause.has("deal", "crm", "attio") or not _WORKLOAD.search(clause.text):
        return False
    team = await _team(clause, ctx, clause.text)
    await ctx.emit(
        Find(
            object="issues",
            filters=Filters(team=team.name if team else None, state="open"),
            aggregate="count:assignee",
        ),
        team=team,
    )
    return True
