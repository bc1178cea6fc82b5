"""Questions answered at once with read-only tools: deals, records, issues, searches, calendar."""

from __future__ import annotations

import re
from typing import Literal

from planner._lazy_re import LazyRe
from planner.analysis import Clause, leaves_alone
from planner.context import BuildContext
from planner.coverage import asks_advice, asks_for_something
from planner.directory import Entity
from planner.intents.models import Filters, Find
from planner.resolve import key_spans
from planner.rules import rule
from planner.rules._common import (
    AT_A_MEETING,
    aggregate_of,
    colleague_asked_for,
    currency_said,
    each_once,
    find,
    strip_spans,
    strong,
    the_companys_one_deal,
)
from planner.rules.linear import _LABEL_WORDS
from planner.text import lemma

__all__ = ["calendar_query", "crm_query", "issue_query"]

_STOP = LazyRe(
    r"\b(?:покажи|показать|найди|найти|выведи|список|все|всех|мои|мой|задачи|задач|задачу|issues?|tasks?|tickets?|"
    r"в|во|по|про|about|regarding|in|on|for|the|a|an|linear|линеар|show|find|search|list|me|my|all|что|какие|"
    r"what|which|are|is|there|any|open|открытые|тикеты|баги|bugs?|mentioning|mentions?|containing|contains?|"
    r"that|say|says|with\s+the\s+words?|carry|carries|have|has|прошу|просьба|перечень|перечисли\w*|предостав\w*|"
    r"упоминани\w*|упоминается|где|есть|ли|title|titles|названи\w*|заголов\w*|содерж\w*|слово|word)\b",
    re.IGNORECASE,
)


_PLURAL_RECORDS = LazyRe(
    r"\b(компании|компаний|клиентов|клиенты|companies|clients|customers|контакты|контактов|люди|людей|people|"
    r"persons|contacts|контактн\w*\s+лиц\w*)\b",
    re.IGNORECASE,
)
_SEARCH_STOP = LazyRe(
    r"\b(компании|компаний|клиентов|клиенты|companies|clients|customers|контакты|контактов|люди|людей|people|"
    r"persons|contacts|with|named|called|containing|где|есть|из|от|со?|attio|crm|в|у|all|все|всех|"
    # "how many people do we have in the CRM?": the question's own words are no name to search for
    r"how\s+many|сколько|всего|total|number\s+of|количество|do|does|we|us|our|have|has|got|there|нас|наш\w*|црм|срм|"
    r"are|is|in|the|our|workspace|ли|сейчас|now|currently|records?|entries|заведен\w*|числ\w*|имеется|имеются|"
    r"контактн\w*|лиц|на\s+текущий\s+момент|at\s+the\s+moment|today|сегодня|total|"
    r"roughly|approximately|about|around|altogether|overall|in\s+total|so\s+far|tell|could|can|you|me|please|"
    r"примерно|около|вообще|в\s+целом|итого|баз[аеуы]|database|system|систем\w*|скажи|подскажи|пожалуйста)\b",
    re.IGNORECASE,
)


# "john smith email", «почта марии?»: a record's field named alone, typed as a question
_FIELD_ALONE = LazyRe(
    r"(?i)^\s*(?:(?:e-?mail|почт\w*|мейл\w*|имейл\w*|phone|телефон\w*|job\s+title|title|должност\w*|domain|домен\w*|"
    r"сайт\w*)\s+[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?|[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?'?s?\s+"
    r"(?:e-?mail|почт\w*|мейл\w*|phone|телефон\w*|job\s+title|title|должност\w*|domain|домен\w*|сайт\w*))\s*\??\s*$"
)


def _is_question(clause: Clause) -> bool:
    return clause.asks() or bool(_FIELD_ALONE.match(clause.text))


# "…deal back to Negotiation", «сделку обратно в переговоры»: where a record goes, said without its verb
_BACK_TO = LazyRe(r"(?i)\b(?:back\s+(?:to|into)|обратно\s+(?:в|на))\s+\S")


@rule(80)
async def calendar_query(clause: Clause, ctx: BuildContext) -> bool:
    events = (
        re.search(r"(?i)\b(?:events?|событи\w*)\b", clause.text) and not clause.commands()
    )  # "events fri?"
    said_as_when = AT_A_MEETING.search(clause.text) and not events  # "… before the board meeting tomorrow: …"
    if not (
        _is_question(clause) and (clause.has("meeting", "block") or events) and not said_as_when
    ) and not re.search(
        r"\b(календар\w*|calendar|(?:my|our|the|his|her|their)\s+schedule|расписани\w*|free|busy|свобод\w*|занят\w*|"
        r"встреч\w* сегодня)\b",
        clause.text,
        re.I,
    ):
        return False
    day = clause.moment.day or ctx.now.date()
    await ctx.emit(Find(object="events", filters=Filters(date=day.isoformat())))
    return True


# "did we already move Initech renewal to Won?": a verb inside a yes/no question is no request
_YES_NO = LazyRe(
    r"(?i)\s*(?:did|has|have|is|are|was|were|does|do)\s+(?:we|you|they|the|it|that|this|[A-ZА-Я])"
)
# what only a deal carries, asked of the company it is with: «в какой стадии Альфа-Лизинг?», "how much is Romashka?"
_DEAL_FIELD = LazyRe(
    r"(?i)\b(?:стади\w*|этап\w*|stage|сумм\w*|amount|worth|how\s+much|сколько\s+стоит|value|acv|arr|"
    r"closed?\s+(?:won|lost))\b"
)
# "who's our contact on the Alfa Leasing deal?", «кто контакт в Globex?», "who do we talk to at Initech?"
_CONTACT = LazyRe(
    r"(?i)\b(?:contacts?|point\s+of\s+contact|poc|talk\s+to|deal\s+with|контакт\w*|контактн\w+\s+лиц\w*|"
    r"с\s+кем\s+(?:общаемся|говорим|работаем|связываться|держим\s+связь))\b"
)


# whose deals, said of a person: "what deals does Petya own", "Petya's deals", «сделки, которые ведёт Петя»
_OWNER_SAID = LazyRe(
    r"\b(?:does|do)\s+([A-ZА-ЯЁ][\w-]*)\s+own\b|\b([A-ZА-ЯЁ][\w-]*)'s\s+(?:open\s+)?deals\b|"
    r"\bdeals\s+(?:owned\s+by|of)\s+([A-ZА-ЯЁ][\w-]*)|\bвед[её]т\s+([A-ZА-ЯЁ][\w-]*)"
)


async def _owner_asked(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """An owner named whom the workspace does not know is asked about, never dropped: "Petya's deals"
    would otherwise list everyone's."""
    said = _OWNER_SAID.search(clause.text)
    if said is None:
        return []
    name = next(g for g in said.groups() if g)
    asked = ("Чьи сделки показать?", "Whose deals should I show?")
    picked = await colleague_asked_for(ctx, clause, name, "owner", asked)
    return [picked] if picked is not None else []


# a field and its new value, said with no verb: "the amount is 55k now", «сумма 1.5 млн», «должность CIO»
_VALUE_SET = LazyRe(
    r"(?i)\b(?:сумм[аы]|amount|value|должност\w*|job\s+title|title|стадия|stage)\s*(?:[:—–-]|is(?:\s+now)?|теперь|будет|now)?\s*"
    r"(?:\$\s*)?(?:\d|(?-i:[A-ZА-ЯЁ]{2,})\b|(?:один|одна|два|две|три|четыр|пят|шест|сем|восем|девят|десят|двадцат|"
    r"тридцат|сорок|сто|двест|трист|полтор|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|"
    r"fifty|hundred)\w*\s+(?:[^\W\d_]+\s+){0,3}?(?:тысяч|миллион|млн|thousand|million|k\b))"
)  # («глобекс пилот сумма тридцать пять тысяч»: a sum said in words)


_WORKS_WHERE = LazyRe(
    r"(?i)\b(?:в\s+какой\s+компании|где\s+работает|откуда|what\s+company|which\s+company|where\s+does\s+\S+(?:\s+\S+)?\s+work)\b"
)


async def _stage_asked(clause: Clause, ctx: BuildContext) -> bool:
    """A stage named as where something is ("in won", "is … won"), not a word that only spells one ("IT lead")."""
    for m in await find(ctx, clause, "stage"):
        if m.score < 1.0:
            continue
        if m.entity.extra.get("type") in ("won", "lost") or m.entity.name in ("Won", "Lost"):
            return True
        first = min(m.positions, default=0)
        if first > 0 and clause.keys[first - 1].text in (
            "в",
            "во",
            "на",
            "in",
            "at",
            "to",
            "stage",
            "стадии",
        ):
            return True
    return False


@rule(85)
async def crm_query(clause: Clause, ctx: BuildContext) -> bool:
    if asks_advice(clause.text):
        return False  # «а стоит ли переводить глобекс в выиграна …»: advice asked, answered as such
    yes_no = bool(_YES_NO.match(clause.text)) and clause.text.rstrip().endswith("?")
    if _VALUE_SET.search(clause.text) and "?" not in clause.text and not clause.has("query"):
        return False  # «ромашка сумма 1.5 млн», «иван петров — должность CIO»: a value set, not asked for
    if (
        not (_is_question(clause) or clause.has("deal"))
        or clause.has("create", "delete", "move")
        and not yes_no
    ):
        return False
    if clause.has("issue", "linear"):
        return False
    # «сделку Альфа в проигранные переведи», "Initech deal back to Negotiation": a change, never read as a
    # question (but «сделку с Initech оставь как есть» is read as said, and «Запиши на сделку Acme Corp» names
    # where a note just told goes)
    if (
        not _is_question(clause)
        and (clause.commands() or asks_for_something(clause) or _BACK_TO.search(clause.text))
        and not leaves_alone(clause, ctx.now)
        and not clause.has("note", "note_verb")
    ):
        return False
    if _is_question(clause) and await _contact_at(clause, ctx):
        return True
    own_name = [
        m for m in await find(ctx, clause, "deal") if m.score >= 1.0
    ]  # "the Globex pilot", not just "Globex"
    apart = {m.entity.id: m for m in own_name if m.positions}
    if (
        _is_question(clause)
        and len(apart) >= 2
        and not any(a.positions & b.positions for a in apart.values() for b in apart.values() if a is not b)
    ):  # "Is the Globex pilot bigger than the Initech renewal?": each deal said whole, each shown
        for m in apart.values():
            await _one(ctx, "deals", m.entity)
        return True
    if own_name and not clause.has("deal") and clause.has("stage", "query"):
        deal = ctx.choose("deal", "deal", clause.text, own_name, ctx.t("Какую сделку?", "Which deal?"))
        if deal is not None:
            await _one(ctx, "deals", deal)
            return True
    if (
        not own_name
        and not clause.has("deal")
        and _is_question(clause)
        and (clause.has("stage") or await _stage_asked(clause, ctx))
        and not [m for m in await find(ctx, clause, "person") if m.score >= 0.9]
    ):  # "а глобекс уже в won?": a stage asked of a company, and the one deal it has
        only = await the_companys_one_deal(ctx, clause)
        if only is not None:
            await _one(ctx, "deals", only)
            return True
    if clause.has("deal") or re.search(r"\bdeals?\b|сделк", clause.text, re.I):
        plural = bool(re.search(r"\bсделки\b|\bсделок\b|\bdeals\b", clause.text, re.I))
        deals = strong(await find(ctx, clause, "deal"))
        if deals and not plural:
            deal = ctx.choose("deal", "deal", clause.text, deals, ctx.t("Какую сделку?", "Which deal?"))
            assert deal is not None
            await _one(ctx, "deals", deal)
            return True
        stages = [m.entity for m in await find(ctx, clause, "stage") if m.score >= 1.0]
        members = [m.entity for m in await find(ctx, clause, "member")]
        companies = [m.entity for m in await find(ctx, clause, "company") if m.score >= 0.9 and not members]
        if not members and not companies:
            members = await _owner_asked(clause, ctx)
        for stage in each_once(stages):  # "deals in Lead or Qualification"
            filters = Filters(
                stage=stage.name if stage else None,
                owner=members[0].name if members else None,
                company=companies[0].name if companies else None,
                currency=currency_said(clause.text),
            )
            await ctx.emit(
                Find(object="deals", filters=filters, aggregate=aggregate_of(clause.text)),
                stage=stage,
                owner=members[0] if members else None,
                company=companies[0] if companies else None,
            )
        return True
    if _is_question(clause) and _WORKS_WHERE.search(
        clause.text
    ):  # «в какой компании работает Мария Соколова?»
        people = [m.entity for m in await find(ctx, clause, "person") if m.score >= 0.9]
        if len(people) == 1:
            await _one(ctx, "people", people[0])
            return True
    records = _PLURAL_RECORDS.search(clause.text)
    if records and _is_question(clause):
        obj = (
            "companies"
            if records.group(1).lower().startswith(("комп", "compan", "клиент", "client"))
            else "people"
        )
        words = _SEARCH_STOP.sub(" ", _STOP.sub(" ", clause.text)).strip(" ?.!,")
        words = re.sub(r"\s{2,}", " ", words)
        if len(words.split()) > 4 and not (clause.has("query") or "?" in clause.text):
            return False  # «у нас куча эскалаций от клиентов, и я хочу понять …»: told, not a search
        employer = (
            [m for m in await find(ctx, clause, "company") if m.score >= 0.9] if obj == "people" else []
        )
        named = (
            [m for m in await find(ctx, clause, "company") if m.score >= 0.9] if obj == "companies" else []
        )
        genitive = records.group(1).lower() in ("компании", "клиента")  # one company's, or several?
        if named and genitive and not re.search(r"\b(?:все|всех|список|какие|which)\b", clause.text, re.I):
            # "покажи карточку компании Initech": "компании" is one company's genitive, not a list
            await _one(ctx, "companies", named[0].entity)
            return True
        if employer:
            company = employer[0].entity
            count: Literal["count"] | None = "count" if aggregate_of(clause.text) == "count" else None
            await ctx.emit(
                Find(object="people", filters=Filters(company=company.name), aggregate=count), company=company
            )
        else:
            await ctx.emit(
                Find(
                    object="people" if obj == "people" else "companies",
                    filters=Filters(text=words[:100] or None),
                    aggregate="count" if aggregate_of(clause.text) == "count" else None,
                )
            )
        return True
    if own_name and _is_question(clause):  # "Initech renewal": the deal said in full, not its company
        deal = ctx.choose("deal", "deal", clause.text, own_name, ctx.t("Какую сделку?", "Which deal?"))
        if deal is not None:
            await _one(ctx, "deals", deal)
            return True
    if _is_question(clause) and _DEAL_FIELD.search(clause.text) and await _deals_of_company(clause, ctx):
        return True
    for kind, obj in (("person", "people"), ("company", "companies")):
        found = strong(await find(ctx, clause, kind))
        if found and _is_question(clause):
            rec = ctx.choose(
                "record", kind, clause.text, found, ctx.t("Кого вы имеете в виду?", "Who do you mean?")
            )
            assert rec is not None
            await _one(ctx, obj, rec)
            if clause.has("note"):
                await ctx.emit(Find(object="notes", filters=Filters(record=rec.name)), record=(obj, rec))
            return True
    return False


_FILLER = LazyRe(
    r"(?i)(?<![\w-])(?:у\s+нас|у\s+меня|в\s+(?:линеар\w*|linear\w*|линейн\w*)|in\s+linear|что-?(?:нибудь|то)|"
    r"anything|something|we\s+have|do\s+we\s+have)(?![\w-])"
)
# a label said as what the issues carry: "labelled X", «с меткой X», «помечены как X», «задачи по безопасности»
_LABELLED = LazyRe(
    r"(?i)\b(?:label(?:l)?ed|tagged|with\s+(?:the\s+)?(?:label|tag)|помечен\w*(?:\s+как)?|с\s+(?:меткой|лейблом|тегом)|"
    r"по|про|about)\s+['\"«]?(?P<name>[\w-]+)"
)


async def _label_asked(clause: Clause, ctx: BuildContext) -> Entity | None:
    said = _LABELLED.search(clause.text)
    if said is None:
        return None
    word = said["name"].lower()
    word = word if word.isascii() else _LABEL_WORDS.get(lemma(word), word)  # «по безопасности»: security
    return next((x for x in await ctx.directory.labels() if x.name.lower() in (word, word.rstrip("s"))), None)


@rule(90)
async def issue_query(clause: Clause, ctx: BuildContext) -> bool:
    if not _is_question(clause) or clause.has("deal", "attio", "crm"):
        return False
    projects = [m for m in await find(ctx, clause, "project") if m.score >= 0.9]
    if projects and not clause.has("about"):  # "what's left in the Q1 launch?"
        p = projects[0].entity
        await ctx.emit(Find(object="issues", filters=Filters(project=p.name)), project=p)
        return True
    if not clause.has("issue", "task", "linear", "project", "team", "about"):
        return False
    keyed = [t for t in await ctx.directory.teams() if re.search(rf"\b{t.extra.get('key')}\b", clause.text)]
    named = [m.entity for m in await find(ctx, clause, "team") if m.score >= 0.9]
    if (keyed or named) and clause.has("team", "task", "issue") and not clause.has("about", "mine"):
        team = (keyed or named)[0]
        await ctx.emit(Find(object="issues", filters=Filters(team=team.name)), team=team)
        return True
    users = [m.entity for m in await find(ctx, clause, "user") if not m.entity.extra.get("is_me")]
    if users and clause.has("issue", "task", "linear") and not clause.has("about"):  # "show Oleg's issues"
        who = users[0]
        await ctx.emit(Find(object="issues", filters=Filters(assignee=who.name)), assignee=who)
        return True
    if clause.has("mine") and not clause.has("about") and not clause.has("attio", "crm"):
        me = next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)
        if me is not None:
            await ctx.emit(Find(object="issues", filters=Filters(assignee="me")), assignee=me)
            return True
    label = await _label_asked(clause, ctx)
    if label is not None:  # «какие задачи помечены как customer-request?», «задачи по безопасности»
        await ctx.emit(Find(object="issues", filters=Filters(label=label.name)))
        return True
    about = re.search(r"\b(?:про|about|regarding|насчет|насчёт|по теме|with|c|с)\s+(.+)$", clause.text, re.I)
    if about:
        query = about.group(1).strip(" ?.!")
    else:
        query = _STOP.sub(" ", strip_spans(clause.text, list(clause.moment.spans))).strip(" ?.!,:;—-")
        query = re.sub(r"\s{2,}", " ", query)  # "search issues: login": the word searched, not its colon
    query = _FILLER.sub(" ", query).strip(" ?.!,:;—-")  # «что-нибудь про SSO в линеаре»: what is searched
    query = re.sub(r"\s{2,}", " ", query)
    if not query:
        return False
    if not clause.has("issue", "task", "linear", "project", "team") and not await _issues_about(query, ctx):
        return False  # "расскажи анекдот про программистов": "про" alone is no request about Linear
    for kind in ("company", "person"):  # «задачи по Ромашке»: searched by the name as written, «Ромашка»
        for m in await find(ctx, clause, kind, text=query):
            spans = key_spans(query)
            if m.score >= 0.9 and m.positions and max(m.positions) < len(spans):
                a, b = spans[min(m.positions)][0], spans[max(m.positions)][1]
                query = query[:a] + m.entity.name + query[b:]
                break
    await ctx.emit(Find(object="issues", filters=Filters(text=query[:200])))
    return True


async def _companies_named(clause: Clause, ctx: BuildContext) -> list[Entity]:
    """The companies a clause names in full, or through a deal it names ("the Alfa Leasing deal")."""
    named = [m.entity for m in await find(ctx, clause, "company") if m.score >= 0.9]
    if named:
        return named
    deals = [m.entity for m in await find(ctx, clause, "deal") if m.score >= 0.9]
    ids = {d.extra.get("company_id") for d in deals} - {None}
    return [c for c in await ctx.directory.companies() if c.id in ids]


async def _contact_at(clause: Clause, ctx: BuildContext) -> bool:
    """ "who's our contact at Globex / on the Alfa Leasing deal?": the people at that company."""
    if not _CONTACT.search(clause.text) or _PLURAL_RECORDS.search(clause.text) and not clause.has("deal"):
        return False
    if [m for m in await find(ctx, clause, "person") if m.score >= 0.9]:
        return False  # "what's Jane's contact info": one person asked about
    companies = await _companies_named(clause, ctx)
    if len(companies) != 1:
        return False
    company = companies[0]
    await ctx.emit(Find(object="people", filters=Filters(company=company.name)), company=company)
    deals = [m.entity for m in await find(ctx, clause, "deal") if m.score >= 0.9]
    if clause.has("deal") and len(deals) == 1:  # "… on the Alfa Leasing deal": the deal beside its people
        await _one(ctx, "deals", deals[0])
    return True


async def _deals_of_company(clause: Clause, ctx: BuildContext) -> bool:
    """«в какой стадии Альфа-Лизинг?», "how much is the Romashka thing worth?": a deal's field asked of
    the company — its one deal, or its deals listed."""
    if [m for m in await find(ctx, clause, "person") if m.score >= 0.9]:
        return False
    companies = [m.entity for m in await find(ctx, clause, "company") if m.score >= 0.9]
    if len(companies) != 1:
        return False
    company = companies[0]
    theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == company.id]
    if not theirs:
        return False
    if len(theirs) == 1:
        await _one(ctx, "deals", theirs[0])
    else:
        await ctx.emit(Find(object="deals", filters=Filters(company=company.name)), company=company)
    return True


async def _one(ctx: BuildContext, obj: str, record: Entity) -> None:
    await ctx.emit(Find(object=obj, filters=Filters(record=record.name)), record=(obj, record))  # type: ignore[arg-type]


async def _issues_about(query: str, ctx: BuildContext) -> bool:
    from planner.rules.issues import issues_by_title_words  # lazily: issues is a sibling rule module

    try:
        return bool(await ctx.directory.search_issues(query[:200]) or await issues_by_title_words(query, ctx))
    except LookupError:
        return True  # the tracker cannot be asked now: let the search say so


@rule(96)
async def record_asked_about(clause: Clause, ctx: BuildContext) -> bool:
    """ "Globex pilot moved to Won already?", «сделку с Альфа-Лизингом уже перевели в переговоры?»: a change
    asked about, not asked for — the record is shown as it is (read by no earlier rule)."""
    if not clause.text.rstrip().endswith("?") or clause.identifiers or asks_advice(clause.text):
        return False  # ("Should we move Globex to Lost?": advice asked — the person's call, said as such)
    deals = {m.entity.id: m.entity for m in await find(ctx, clause, "deal") if m.score >= 0.9}
    if len(deals) == 1:
        await _one(ctx, "deals", next(iter(deals.values())))
        return True
    if not deals and clause.has("deal", "stage"):
        return await _deals_of_company(clause, ctx)
    return False
