"""A clause that goes on about the thing the clause before it made: "create an issue in ENG: fix the
login, and assign it to Oleg, due Friday", «заведи баг: …, и назначь его на олега, срок завтра». What it
adds (who, when, how urgent) belongs to that new thing, not to a change of another record."""

from __future__ import annotations

import re
from typing import Any

from planner._lazy_re import LazyRe
from planner.analysis import Clause
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import UpdateDeal, UpdateMatching, priority_name
from planner.numbers import spoken_numbers
from planner.rules import rule
from planner.rules._common import amount_of, find, iso_date, priority_of
from planner.rules._linear_common import EVERY_TASK_TO, every_task_to, find_user, state_named

__all__ = [
    "about_the_new_one",
    "description_of_the_new_one",
    "more_of_the_same_change",
    "parent_of_the_new_one",
    "project_of_the_new_one",
]

_PRIORITY = (
    r"(?:(?:priority|prio|приоритет)\s+)?(?:urgent|high|medium|low|срочн\w*|высок\w*|средн\w*|низк\w*|p[0-4])"
    r"(?:\s+(?:priority|prio|приоритет\w*))?"
)
_DUE = r"(?:due|срок|deadline|дедлайн|by|до|к)\s+[^,.!]{1,30}"
# "and assign it to …", «и назначь его на …», "make it urgent", «поставь ей срок …»: the new thing, by pronoun
_BACK = LazyRe(
    r"(?i)^\s*(?:(?:and|then|also|и|а|потом|ещё|еще)\s+)*(?:please\s+|пожалуйста\s+)?"
    r"(?:(?:задачу|задачку|таск|тикет|the\s+task|the\s+issue)\s+(?=(?:назначь|повесь|отдай|передай|assign|give)\b))?"
    r"(?:(?:assign|give|set|make|put|mark|назначь|поставь|сделай|дай|отдай|передай)\s+(?:it|this|its|его|её|ее|ей|ему)\b"
    # "…, and set the due date to Monday", «и поставь срок на пятницу»: a field of the new one
    r"|(?:set|change|make|put|поставь|установи|сделай)\s+(?:the\s+|its\s+|ей\s+|ему\s+)?"
    r"(?:due(?:\s+date)?|deadline|priority|срок|дедлайн|приоритет)\b"
    r"|(?:assign|назначь|повесь|отдай|передай|(?:за)?асс?айн\w*)\s+(?:to\s+|на\s+)?[^\W\d_]+(?:\s*,\s*(?:"
    + _PRIORITY
    + "|"
    + _DUE
    + r"|labels?\s*[:—-]?\s*[\w-]+"  # "…, assign to me, due Monday, label customer-request"
    + "))*\s*[.!]?\s*$"
    # "…, assigned to Oleg with the customer-request label": said of the new one as a participle
    r"|assigned\s+to\s+[^\W\d_]+(?:\s+(?:with|and)\s+(?:the\s+|a\s+)?[\w-]+\s+label)?\s*[.!]?\s*$"
    r"|(?:tag|label)\s+(?:it|this)\s+(?:as\s+|with\s+)?[\w-]+\s*[.!]?\s*$"
    # "…, label bug, project Website Redesign, due Dec 10": the new one's fields, listed after it
    r"|(?:(?:labels?|project|проект|due|срок)\s+[^,.!;]{1,40}|" + _PRIORITY + r")"
    r"(?:\s*,\s*(?:(?:labels?|project|проект|due|срок)\s+[^,.!;]{1,40}|" + _PRIORITY + r"))+\s*[.!]?\s*$)"
)  # "Assign Oleg, priority high.", "assign max, high", "assign max, p1, due friday"
_WITH_LABEL = LazyRe(
    r"(?i)\b(?:with|and)\s+(?:the\s+|a\s+)?([\w-]+)\s+label\b|\b(?:tag|label)\s+(?:it|this)\s+(?:as\s+|with\s+)?([\w-]+)"
    r"|(?:^|,)\s*labels?\s*[:—-]?\s*([\w-]+)\s*(?=[,.!]|$)"
)
_TO_WHOM = LazyRe(
    r"(?i)\b(?:assign\s+(?:to\s+|на\s+)?|назначь\s+(?:на\s+)?|(?:за)?асс?айн\w*\s+(?:на\s+)?|to\s+|на\s+|for\s+|для\s+)"
    r"(?!it\b|его\b|её\b)(me|myself|меня|себя|[^\W\d_][\w-]+)"
)
_AS_NEW = ("create_issue", "create_task")
_STATES_SAID = {
    "backlog": "Backlog", "бэклог": "Backlog", "беклог": "Backlog", "todo": "Todo", "to do": "Todo",
    "in progress": "In Progress", "работу": "In Progress", "in review": "In Review", "ревью": "In Review",
    "triage": "Triage",
}  # fmt: skip
_STATE_OF_THE_NEW = LazyRe(
    r"(?i)\b(?:in|into|to|в|во|на)\s+(?:the\s+)?(backlog|бэклог|беклог|todo|to[\s-]do|in\s+progress|работу|in\s+review|"
    r"ревью|triage)\b"
)
# "…: «Обновить логотип», project Mobile App, due Dec 4": where the new issue goes, said outside its title
_PROJECT_SAID = LazyRe(r"(?i)(?:^|[,;]\s*|\s)(?:project|проект\w*)\s+([^,.;«»\"]+?)\s*(?=[,.;]|$)")
_QUOTED = LazyRe(r"«[^»]*»|\"[^\"]*\"|“[^”]*”")


def _after_a_new_issue(ctx: BuildContext) -> bool:
    """The request just before made an issue: what follows may say more of it."""
    return bool(ctx.intents) and ctx.intents[-1].op == "create_issue"


# «Создайте задачу в ENG «…». Описание: после релиза 2.3 …», "… Description: …": the new issue's description
_DESCRIBED_NEXT = LazyRe(r"(?is)^\s*(?:описание|description|desc)\s*[:—–-]\s*(?P<body>\S.*)$")


@rule(18, writes=True)
async def description_of_the_new_one(clause: Clause, ctx: BuildContext) -> bool:
    described = _DESCRIBED_NEXT.match(clause.text)
    if described is None or not _after_a_new_issue(ctx):
        return False
    return await ctx.amend_last(description=described["body"].strip()[:10_000])


# "…, and make it a sub-issue of CS-13", «и сделай её подзадачей ENG-103», «родительская — ENG-103»: its parent
_PARENT_OF_THE_NEW = LazyRe(
    r"(?i)^\s*(?:(?:and|then|also|и|а|потом)\s+)*(?:(?:make|put|set|сделай|сделать|поставь)\s+(?:it|this|its|её|ее|его)\s+"
    r"(?:as\s+)?(?:a\s+)?(?:sub-?issue|child|подзадач\w*)\s+(?:of|under|для|к)?\s*"
    r"|(?:parent|родительская|родитель|родительский)\s*(?:issue\s*|задача\s*)?[:—–-]?\s*)"
    r"(?P<id>[A-Za-z]{1,10}-\d+)\s*[.!]?\s*$"
)


@rule(18, writes=True)
async def parent_of_the_new_one(clause: Clause, ctx: BuildContext) -> bool:
    said = _PARENT_OF_THE_NEW.match(clause.text)
    if said is None or not _after_a_new_issue(ctx):
        return False
    return await ctx.amend_last(parent=said["id"].upper())


# "…, and add it to the Mobile App project", «…, и добавь в проект Mobile App»: the new issue's project
_PROJECT_OF_THE_NEW = LazyRe(
    r"(?i)^\s*(?:(?:and|then|also|и|а|потом)\s+)*(?:add|put|move|link|attach|добавь|положи|закинь|привяжи|перенеси)\s+"
    r"(?:(?:it|this|её|ее|его)\s+)?(?:to|in|into|under|в|во|к)\s+(?:the\s+)?(?:(?:проект\w*|project)\s+)?"
    r"(?P<name>[^.!?,;—–]+?)(?:\s+project)?\s*[.!]?\s*$"
)


@rule(18, writes=True)
async def project_of_the_new_one(clause: Clause, ctx: BuildContext) -> bool:
    said = _PROJECT_OF_THE_NEW.match(clause.text)
    if said is None or not _after_a_new_issue(ctx):
        return False
    projects = [m.entity for m in await find(ctx, clause, "project", text=said["name"]) if m.score >= 0.9]
    if len({p.id for p in projects}) != 1:
        return False
    return await ctx.amend_last(project=projects[0].name)


@rule(19, writes=True)
async def about_the_new_one(clause: Clause, ctx: BuildContext) -> bool:
    if (
        clause.identifiers
        or not ctx.intents
        or ctx.intents[-1].op not in _AS_NEW
        or not _BACK.match(clause.text)
    ):
        return False
    who = (
        _TO_WHOM.search(clause.text)
        if clause.has("assign")
        or re.search(r"(?i)назнач|assign|give|повес|отдай|передай|асс?айн", clause.text)
        else None
    )
    assignee = await find_user(clause, ctx, who.group(1)) if who else None
    if who and assignee is None:
        return False  # a name that is no one here: the other rules (and the question) know better
    due = iso_date(clause.moment.datetime_in(ctx.now)) if clause.moment.day else None
    priority = priority_name(priority_of(clause.text))
    project = None
    said = _PROJECT_SAID.search(_QUOTED.sub(lambda m: " " * len(m.group(0)), clause.text))
    if said:
        named = [m for m in await find(ctx, clause, "project", text=said.group(1)) if m.score >= 0.9]
        if len(named) != 1:
            return False  # a project that is not one of ours: the other rules ask about it
        project = named[0].entity.name
    put_in = _STATE_OF_THE_NEW.search(clause.text) if ctx.intents[-1].op == "create_issue" else None
    fields: dict[str, Any] = {
        "assignee": assignee.name if assignee else None,
        "due": due,
        "priority": priority,
        "project": project,
        # "Create an issue: …. Put it in Todo, assign to me": the state it starts in
        "state": _STATES_SAID[put_in.group(1).lower().replace("-", " ")] if put_in else None,
    }
    labelled = _WITH_LABEL.search(clause.text)
    if labelled and ctx.intents[-1].op == "create_issue":
        known = {x.name.lower(): x.name for x in await ctx.directory.labels()}
        label = (labelled.group(1) or labelled.group(2) or labelled.group(3)).lower()
        if label not in known:
            return False  # a label that is not one of ours: the other rules ask
        fields["labels"] = list(
            dict.fromkeys([*(getattr(ctx.intents[-1], "labels", None) or []), known[label]])
        )
    if not any(fields.values()):
        return False
    if ctx.intents[-1].op == "create_task":  # a CRM task has a deadline and an assignee, nothing else
        if priority or project:
            return False
        fields = {"assignee": fields["assignee"], "deadline": due}
    return await ctx.amend_last(**fields)


# "move the Acme deal to negotiation and bump it to 55k", «в CS-12 приоритет поставь низкий и перекинь на
# олега»: a second change said of the record the first one changed, without naming it again
_AND = r"(?i)^\s*(?:(?:and|then|also|и|а|потом|ещё|еще)\s+)*(?:please\s+|пожалуйста\s+)?"
_HAND_OVER = LazyRe(
    _AND
    + r"(?:assign|reassign|give|hand|move|put|change|switch|назначь|переназначь|перекинь|перебрось|передай|отдай|повесь|"
    r"кинь|поставь|поменяй|смени)"
    r"(?:\s+(?:it|this|that|его|её|ее|over))?(?:\s+(?:the\s+)?(?:assignee|owner|исполнителя|ответственного))?"
    r"\s+(?:to|на)\s+(me|myself|меня|себя|[^\W\d_][\w-]*)\s*[.!]?\s*$"
)
_MADE_ASSIGNEE = LazyRe(
    _AND
    + r"(?:make|set|сделай|назначь)\s+([^\W\d_][\w-]*)\s+(?:the\s+)?(?:assignee|owner|исполнителем|ответственным)\s*[.!]?\s*$"
)
# "…, due Dec 15" after a playbook: the day of every one of its tasks
_DUE_ALONE = LazyRe(
    r"(?i)^\s*(?:and\s+|и\s+)?(?:(?:all|both|обе|все)\s+)?(?:due|срок\w*|дедлайн\w*|deadline)\b"
)
# ("…, and move the deal to Won", "…, note on the company"): another record's change, not the tasks'
_OTHER_THAN_TASKS = LazyRe(r"(?i)\b(?:deal|сделк\w*|note|заметк\w*|company|компани\w*|stage|стади\w*)\b")
_SUM_TO = LazyRe(
    _AND
    + r"(?:(?:bump|raise|set|change|make|update|lower|put|подними|поставь|смени|поменяй|обнови|сделай|снизь|опусти)"
    r"(?:\s+(?:it|its\s+amount|the\s+amount|the\s+value|его|её|ее|сумму|amount))?\s*(?:to|до|на|в)?"
    # "…, and the amount is now fifty five thousand", «…, сумма теперь 60к»
    r"|(?:the\s+)?(?:amount|value|sum|сумма)(?:\s+(?:is\s+now|is|now|теперь|будет|—|:|-))?(?:\s+(?:now|теперь))?)\s*"
    r"(?P<sum>\$?\d[\d\s.,]*(?:\s*(?:k|к|тыс\w*|thousand|m|млн|million|миллион\w*)\b)?"
    r"(?:\s*(?:руб\w*|rub|usd|eur|долл\w*|dollars?|евро|₽|\$|€))?)\s*[.!]?\s*$"
)
_STAGE_TO = LazyRe(
    _AND + r"(?:move|push|put|advance|двигай|подвинь|продвинь|переведи|перекинь|перебрось|кинь|отправь)"
    r"(?:\s+(?:it|её|ее|его|сделку|the\s+deal))?\s+(?:to|into|в|во|на)\s+(?:стадию\s+|stage\s+)?\S+(?:\s+\S+)?\s*[.!]?\s*$"
)
_ISSUE_PRIORITY = LazyRe(
    _AND
    + r"(?:make|set|bump|mark|raise|lower|поставь|сделай|подними|понизь)(?:\s+(?:it|его|её|ее))?\s*(?:to\s+)?"
    r"(?:priority\s+|приоритет\s+)?\S+(?:\s+(?:priority|prio|приоритет\w*))?\s*[.!]?\s*$"
)


_THEM_TO = LazyRe(
    _AND
    + r"(?:set|move|put|make|mark|give|переведи|поставь|сделай)\s+(?:them|all\s+of\s+them|those|их|им|все)\s+"
    r"(?:(?:a\s+)?(?:срок|due(?:\s+date)?|deadline|дедлайн)\s+|to\s+|as\s+|в\s+|на\s+)?(?P<to>[^,.;!?]{2,30}?)\s*[.!]?\s*$"
)


@rule(19, writes=True)
async def more_of_the_same_change(clause: Clause, ctx: BuildContext) -> bool:
    if clause.identifiers or not ctx.intents or ctx.clause_index == 0:
        return False
    last = ctx.intents[-1].op
    if last == "update_issue":
        given = _HAND_OVER.match(clause.text) or _MADE_ASSIGNEE.match(clause.text)
        if given:
            assignee = await find_user(clause, ctx, given.group(1))
            return assignee is not None and await ctx.amend_last(assignee=assignee.name)
        level = priority_name(priority_of(clause.text)) if _ISSUE_PRIORITY.match(clause.text) else None
        return level is not None and await ctx.amend_last(priority=level)
    if last == "apply_template":
        # "spin up the renewal tasks for Initech, make Oleg the assignee on both, due Dec 15": the same for each
        who = EVERY_TASK_TO.search(clause.text)
        named = every_task_to(clause.text)
        assignee = await find_user(clause, ctx, named) if named else None
        due = (
            clause.moment.day.isoformat()
            if clause.moment.day
            and (who or _DUE_ALONE.match(clause.text))
            and re.search(r"(?i)\b(?:due|by|срок\w*|дедлайн\w*|до|к)\b", clause.text)
            else None
        )
        if (
            (who and assignee is None)
            or not (assignee or due)
            or _OTHER_THAN_TASKS.search(clause.text)
            or clause.has("create", "task", "issue", "note", "meeting", "remind")
        ):
            return False  # ("…and a CRM task for Max to confirm …": a request of its own)
        return await ctx.amend_last(assignee=assignee.name if assignee else None, due=due)
    if last == "update_matching" and _THEM_TO.match(clause.text):
        # "Give every unassigned issue to Max and set them to Todo": the same issues, that too
        matched = ctx.intents[-1]
        assert isinstance(matched, UpdateMatching)
        said = _THEM_TO.match(clause.text)
        assert said is not None
        state = await state_named(ctx, said.group("to")) if matched.object == "issues" else None
        level = priority_name(priority_of(said.group("to"))) if matched.object == "issues" else None
        due = (  # «…и поставь им срок завтра», "and set them due Friday"
            clause.moment.day.isoformat()
            if matched.object == "issues"
            and clause.moment.day
            and re.search(r"(?i)\b(?:срок|дедлайн|due)", clause.text)
            else None
        )
        change = {"due": due} if due else {"state": state} if state else {"priority": level} if level else {}
        if not change or any(k in matched.changes for k in change):
            return False
        ctx.drop_last()
        await ctx.emit(
            matched.model_copy(update={"changes": {**matched.changes, **change}}), **matched._resolved
        )
        return True
    if last == "update_deal" and _STAGE_TO.match(clause.text):
        # «Ромашка: сумма теперь 1,5 млн, и двигай в переговоры»: the same deal, to that stage
        stages = {m.entity.id: m.entity for m in await find(ctx, clause, "stage") if m.score >= 1.0}
        return len(stages) == 1 and await ctx.amend_last(stage=next(iter(stages.values())).name)
    if last in ("update_deal", "create_note"):
        said = _SUM_TO.match(spoken_numbers(clause.text.lower()))  # "fifty five thousand" said in words
        money = amount_of(said.group("sum"), default=None) if said else None  # the deal keeps its currency
        if money is None:
            return False
        if last == "update_deal":
            return await ctx.amend_last(amount=money[0], currency=money[1])
        deal = await _deal_noted(ctx)  # «глобекс: заметка — …; сумма 27к»: the amount of the deal noted on
        if deal is None:
            return False
        await ctx.emit(UpdateDeal(deal=deal.name, amount=money[0], currency=money[1]), deal=deal)
        return True
    return False


async def _deal_noted(ctx: BuildContext) -> Entity | None:
    """The deal the note just drafted is on: the deal itself, or its company's only deal."""
    noted = ctx.intents[-1]._resolved.get("record")
    if not isinstance(noted, tuple) or not isinstance(noted[1], Entity):
        return None
    kind, record = noted
    if kind == "deals":
        return record if isinstance(record, Entity) else None
    theirs = [d for d in await ctx.directory.deals() if d.extra.get("company_id") == record.id]
    return theirs[0] if kind == "companies" and len(theirs) == 1 else None
