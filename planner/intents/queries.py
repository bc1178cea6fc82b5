"""Questions answered at once with read-only tools: deals, records, issues, searches, calendar."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from planner.analysis import Clause
from planner.context import BuildContext
from planner.intents import rule
from planner.intents._common import find, strip_spans, strong
from toolkits.attio import ops as attio
from toolkits.googlecalendar import ops as gcal
from toolkits.linear import ops as linear

__all__ = ["calendar_query", "crm_query", "issue_query"]

_STOP = re.compile(
    r"\b(?:покажи|показать|найди|найти|выведи|список|все|всех|мои|мой|задачи|задач|задачу|issues?|tasks?|tickets?|"
    r"в|во|по|про|about|regarding|in|on|for|the|a|an|linear|линеар|show|find|search|list|me|my|all|что|какие|"
    r"what|which|are|is|there|any|open|открытые|тикеты|баги|bugs?)\b",
    re.IGNORECASE,
)


_PLURAL_RECORDS = re.compile(
    r"\b(компании|компаний|клиентов|клиенты|companies|clients|customers|контакты|контактов|люди|людей|people|"
    r"persons|contacts)\b",
    re.IGNORECASE,
)
_SEARCH_STOP = re.compile(
    r"\b(компании|компаний|клиентов|клиенты|companies|clients|customers|контакты|контактов|люди|людей|people|"
    r"persons|contacts|with|named|called|containing|где|есть|из|от|со?|attio|crm|в|у|all|все|всех)\b",
    re.IGNORECASE,
)


def _is_question(clause: Clause) -> bool:
    return clause.asks()


@rule(80)
async def calendar_query(clause: Clause, ctx: BuildContext) -> bool:
    if not (_is_question(clause) and clause.has("meeting", "block")) and not re.search(
        r"\b(календар\w*|calendar|schedule|расписани\w*|free|busy|свобод\w*|занят\w*|встреч\w* сегодня)\b",
        clause.text,
        re.I,
    ):
        return False
    day = clause.moment.day or ctx.now.date()
    start = datetime.combine(day, time(0, 0), tzinfo=ctx.now.tzinfo)
    ctx.add(
        gcal.list_events(
            start.isoformat(),
            (start + timedelta(days=1)).isoformat(),
            ctx.t(f"события календаря на {day.isoformat()}", f"calendar events on {day.isoformat()}"),
        )
    )
    return True


@rule(85)
async def crm_query(clause: Clause, ctx: BuildContext) -> bool:
    if not (_is_question(clause) or clause.has("deal")) or clause.has("create", "delete", "move"):
        return False
    if clause.has("issue", "linear"):
        return False
    own_name = [
        m for m in await find(ctx, clause, "deal") if m.score >= 1.0
    ]  # "the Globex pilot", not just "Globex"
    if own_name and not clause.has("deal") and clause.has("stage", "query"):
        deal = ctx.choose("deal", "deal", clause.text, own_name, ctx.t("Какую сделку?", "Which deal?"))
        if deal is not None:
            ctx.add(attio.get_record("deals", deal.id, deal.name))
            return True
    if clause.has("deal") or re.search(r"\bdeals?\b|сделк", clause.text, re.I):
        plural = bool(re.search(r"\bсделки\b|\bсделок\b|\bdeals\b", clause.text, re.I))
        deals = strong(await find(ctx, clause, "deal"))
        if deals and not plural:
            deal = ctx.choose("deal", "deal", clause.text, deals, ctx.t("Какую сделку?", "Which deal?"))
            assert deal is not None
            ctx.add(attio.get_record("deals", deal.id, deal.name))
            return True
        flt: dict[str, object] = {}
        stages = [m for m in await find(ctx, clause, "stage") if m.score >= 1.0]
        if stages:
            flt["stage"] = stages[0].entity.name
        members = await find(ctx, clause, "member")
        if members:
            flt["owner"] = members[0].entity.id
        companies = [m for m in await find(ctx, clause, "company") if m.score >= 0.9]
        if companies and not members:
            flt["associated_company"] = companies[0].entity.id
        ctx.add(attio.filter_records("deals", flt or None, ctx.t("сделки", "deals")))
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
        what = ctx.t("компании" if obj == "companies" else "контакты", obj)
        employer = (
            [m for m in await find(ctx, clause, "company") if m.score >= 0.9] if obj == "people" else []
        )
        if employer:
            company = employer[0].entity
            ctx.add(attio.filter_records("people", {"company": company.id}, f"{what}: {company.name}"))
        elif words:
            ctx.add(attio.search_records(words[:100], [obj], f"{what}: {words}"))
        else:
            ctx.add(attio.filter_records(obj, None, what))
        return True
    for kind, obj in (("person", "people"), ("company", "companies")):
        found = strong(await find(ctx, clause, kind))
        if found and _is_question(clause):
            rec = ctx.choose(
                "record", kind, clause.text, found, ctx.t("Кого вы имеете в виду?", "Who do you mean?")
            )
            assert rec is not None
            ctx.add(attio.get_record(obj, rec.id, rec.name))
            if clause.has("note"):
                ctx.add(attio.list_notes(obj, rec.id, ctx.t("заметки", "notes")))
            return True
    return False


@rule(90)
async def issue_query(clause: Clause, ctx: BuildContext) -> bool:
    if not _is_question(clause) or clause.has("deal", "attio", "crm"):
        return False
    projects = [m for m in await find(ctx, clause, "project") if m.score >= 0.9]
    if projects and not clause.has("about"):  # "what's left in the Q1 launch?"
        p = projects[0].entity
        ctx.add(
            linear.list_issues(ctx.t(f"задачи проекта «{p.name}»", f"issues in '{p.name}'"), project_id=p.id)
        )
        return True
    if not clause.has("issue", "task", "linear", "project", "team", "about"):
        return False
    keyed = [t for t in await ctx.directory.teams() if re.search(rf"\b{t.extra.get('key')}\b", clause.text)]
    named = [m.entity for m in await find(ctx, clause, "team") if m.score >= 0.9]
    if (keyed or named) and clause.has("team", "task", "issue") and not clause.has("about", "mine"):
        team = (keyed or named)[0]
        ctx.add(linear.list_team_issues(team.id, ctx.t(f"задачи команды {team.name}", f"{team.name} issues")))
        return True
    users = [m.entity for m in await find(ctx, clause, "user") if not m.entity.extra.get("is_me")]
    if users and clause.has("issue", "task", "linear") and not clause.has("about"):  # "show Oleg's issues"
        who = users[0]
        ctx.add(linear.list_issues(ctx.t(f"задачи: {who.name}", f"{who.name}'s issues"), assignee_id=who.id))
        return True
    if clause.has("mine") and not clause.has("about") and not clause.has("attio", "crm"):
        me = next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)
        if me is not None:
            ctx.add(linear.list_issues(ctx.t("мои задачи в Linear", "my Linear issues"), assignee_id=me.id))
            return True
    about = re.search(r"\b(?:про|about|regarding|насчет|насчёт|по теме|with|c|с)\s+(.+)$", clause.text, re.I)
    if about:
        query = about.group(1).strip(" ?.!")
    else:
        query = _STOP.sub(" ", strip_spans(clause.text, list(clause.moment.spans))).strip(" ?.!,")
        query = re.sub(r"\s{2,}", " ", query)
    if not query:
        return False
    if not clause.has("issue", "task", "linear", "project", "team") and not await _issues_about(query, ctx):
        return False  # "расскажи анекдот про программистов": "про" alone is no request about Linear
    ctx.add(linear.search_issues(query[:200]))
    return True


async def _issues_about(query: str, ctx: BuildContext) -> bool:
    from planner.intents.issues import issues_by_title_words  # lazily: issues is a sibling rule module

    try:
        return bool(await ctx.directory.search_issues(query[:200]) or await issues_by_title_words(query, ctx))
    except LookupError:
        return True  # the tracker cannot be asked now: let the search say so
