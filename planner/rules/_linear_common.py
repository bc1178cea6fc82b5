"""Helpers shared by the Linear rules: issue names, team states, users, the person's issues."""

from __future__ import annotations

import re
from typing import Any

from planner._lazy_re import LazyRe
from planner.analysis import Clause
from planner.context import BuildContext
from planner.dialogue import asks_how
from planner.directory import Entity
from planner.rules._common import COUNT_WORD, ORDINAL_ITEM, POINTED_AT_ONE, find

__all__ = [
    "ADD_EXISTING",
    "EVERY_TASK_TO",
    "every_task_to",
    "PLAYBOOK_WORD",
    "INTO_THE_NEW",
    "excepted",
    "LABEL_ON",
    "STATE_PHRASES",
    "asks",
    "assignee_text",
    "assignee_texts",
    "dictated_list",
    "issue_name",
    "my_issue_choices",
    "state_named",
    "team_state",
    "find_user",
]


# whom every task of a playbook goes to: "assign both to Max", "make Oleg the assignee on both", «обе на Олега»
EVERY_TASK_TO = LazyRe(
    r"(?i)\b(?:(?:assign|give|hand|put)\s+(?:them|both|all|each|all\s+of\s+them|both\s+of\s+them|the\s+tasks|"
    r"both\s+tasks|all\s+tasks)(?:\s+tasks)?\s+to\s+(?P<who>[^\W\d_][\w-]*)|"
    r"make\s+(?P<who2>[^\W\d_][\w-]*)\s+(?:the\s+)?(?:assignee(?:\s+(?:on|of|for)\s+(?:both|all|them|each|the\s+tasks))?(?!\s+(?:of|on|for)\b)|"
    r"owner\s+(?:on|of|for)\s+(?:both|all|them|each|the\s+tasks))|"
    r"(?:назначь|повесь|поставь|отдай)\s+(?:их|обе|оба|все)(?:\s+задачи)?\s+на\s+(?P<who3>[^\W\d_][\w-]*)|"
    r"(?:обе|оба|все|их)(?:\s+задачи)?\s+на\s+(?P<who4>[^\W\d_][\w-]*))"
)


def every_task_to(text: str) -> str | None:
    """Whom every task of a playbook is said to go to ("assign both to Max" → "Max"), or None."""
    said = EVERY_TASK_TO.search(text)
    return next((g for g in said.group("who", "who2", "who3", "who4") if g), None) if said else None


PLAYBOOK_WORD = LazyRe(
    r"(?i)\b(?:playbook|template|onboarding|renewal|плейбук\w*|шаблон\w*|онбординг\w*|продлени\w*)"
)


# "except ENG-101", «кроме CS-12 и CS-13», "but not CS-12 & CS-13": the issues left out of "all …"
_EXCEPT_IDS = LazyRe(
    r"(?i)\b(?:except(?:\s+for)?|but\s+not|excluding|apart\s+from|other\s+than|кроме|за\s+исключением|но\s+не)\s+"
    r"([A-Za-z]{1,10}-\d+(?:\s*(?:,|&|\+|\band\b|\bи\b|\bor\b|\bили\b)\s*[A-Za-z]{1,10}-\d+)*)"
)


def excepted(text: str) -> tuple[list[str], str]:
    """The issue keys said as left out, and the text without that phrase."""
    keys: list[str] = []
    for m in _EXCEPT_IDS.finditer(text):
        keys += [k.upper() for k in re.findall(r"[A-Za-z]{1,10}-\d+", m.group(1))]
    return list(dict.fromkeys(keys)), _EXCEPT_IDS.sub(" ", text)


# a workflow state as people ask about it, by what it is called in the workspace or by its kind
STATE_PHRASES = [
    (
        re.compile(
            r"\b(?:in[\s-]+review|on\s+review|на\s+ревью|в\s+ревью|на\s+проверк[еу]|к\s+проверке|к\s+ревью|review)\b",
            re.I,
        ),
        "In Review",
    ),
    (
        re.compile(
            r"\b(?:in[\s-]+progress|в\s+работе|в\s+процессе|делаются|started|wip|ин\s+прогресс\w*)\b", re.I
        ),
        "In Progress",
    ),
    (re.compile(r"\b(?:backlog|бэклог\w*|беклог\w*)\b", re.I), "Backlog"),
    (re.compile(r"\b(?:todo|to[\s-]do)\b", re.I), "Todo"),
    (
        re.compile(
            r"\b(?:done|closed|finished|completed|сделанн\w*|закрыт\w*|готов\w*|выполненн\w*)\b", re.I
        ),
        "Done",
    ),
    (re.compile(r"\b(?:triage|входящ\w*)\b", re.I), "Triage"),
]


def asks(clause: Clause) -> bool:
    """A question about the issue rather than a command ("покажи ENG-101", "is ENG-101 done?"); "how do
    I close ENG-101?" asks for the close, which is offered (core's `_offer`)."""
    if asks_how(clause.text):
        return False
    return clause.text.rstrip().endswith("?") or bool(
        re.match(
            r"\s*(покажи|показать|найди|что|какой|какая|show|find|what|which|is|did|has)\b", clause.text, re.I
        )
    )


def issue_name(issue: dict[str, Any]) -> str:
    return f"{issue.get('identifier')} «{issue.get('title')}»"


async def my_issue_choices(ctx: BuildContext) -> list[tuple[str, str]]:
    me = next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)
    if me is None:
        return []
    rows = await ctx.directory.issues_assigned_to(me.id, first=10)
    return [(f"{r.get('identifier')} {r.get('title')}", str(r.get("identifier"))) for r in rows[:5]]


async def team_state(
    ctx: BuildContext, team_id: str, *, type_: str | None = None, name: str | None = None
) -> Entity | None:
    states = await ctx.directory.states(team_id)
    for s in states:
        if name and s.name.lower() == name.lower():
            return s
    for s in states:
        if type_ and s.extra.get("type") == type_:
            return s
    return None


_ME = LazyRe(r"\b(me|myself|mine|i|я|меня|мне|себя|себе|мой|мои)\b", re.IGNORECASE)


async def find_user(clause: Clause, ctx: BuildContext, text: str | None = None) -> Entity | None:
    """A Linear user named in `text` (any case, either script), or the person asking for "me"."""
    answered = ctx.answer("assignee")
    if answered:  # the person picked from the list: that is the answer, whatever the text said
        users = await ctx.directory.users()
        picked = next((u for u in users if u.id == answered), None)
        if picked is not None:
            return picked
        text = answered
    if text is not None and _ME.fullmatch(text.strip()):
        return next((u for u in await ctx.directory.users() if u.extra.get("is_me")), None)
    if text is not None and POINTED_AT_ONE.fullmatch(text.strip()):  # «Макс просил — повесь на него ENG-103»
        for source in [clause.text, *reversed(ctx.memory.get("said") or [])]:
            named = {
                m.entity.id: m.entity
                for m in await find(ctx, clause, "user", text=source)
                if m.score >= 0.5 and not m.entity.extra.get("is_me")
            }
            if len(named) == 1:
                return next(iter(named.values()))
        return None
    mentions = await find(ctx, clause, "user", text=text)
    if not mentions:
        return None
    return ctx.choose(
        "assignee",
        "member",
        text or clause.text,
        mentions,
        ctx.t("На кого назначить?", "Who should it be assigned to?"),
    )


_WHO = LazyRe(
    r"(?:\b(?:на|to|для|for|отда[йт]\w*|переда[йт]\w*|assign(?:ed)?(?:\s+it)?\s+to|assign(?=\s+(?:me|myself)\b)|"
    r"назначь(?:\s+\S+)?\s+на)|->|→)\s+"
    r"((?:меня|мне|me|myself|себя)(?![\w-])|[A-ZА-ЯЁ][\w-]+(?:\s+[A-ZА-ЯЁ][\w-]+)?|[a-zа-яё][a-zа-яё-]+(?=\s*$|\s*[,.;]|\s+[A-Za-z]{1,10}-\d))"
    r"|^([A-ZА-ЯЁ][\w-]+)\s+(?:отдай|передай|назначь|взял[аи]?|берёт|берет|takes|took|grabbed)\b"
    # «ENG-103, поставь Олегу»: whom, in the dative, after "put"
    r"|\bпостав(?:ь|ьте)\s+([А-ЯЁ][а-яё]+[уюе])\b(?!\s+(?:задач|таск|заметк|напоминан|встреч|созвон))",
)


def assignee_texts(clause: Clause) -> list[str]:
    """Every phrase that may name the assignee, in order ("to PDF" comes before "to me")."""
    return [m.group(1) or m.group(2) or m.group(3) for m in _WHO.finditer(clause.text)]


def assignee_text(clause: Clause) -> str | None:
    found = assignee_texts(clause)
    return found[0] if found else None


# "add the onboarding issue to the Q1 Launch project": an issue that is there, put somewhere
ADD_EXISTING = LazyRe(
    r"(?i)\b(?:add|put|move)\s+(?:the|this|that|our|my)\s+(?:[\w-]+\s+){0,3}(?:issue|task|ticket)\s+(?:to|in|into)\s"
    # «добавь описание к задаче про SSO: …», "add a description to the export issue: …": that issue's text
    r"|\b(?:описани\w*|description)\s+(?:к|для|у|of|to|for|on)\s+(?:the\s+|this\s+|эт\w+\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:задач\w*|тикет\w*|issue|ticket)\b"
)
# "add the onboarding label to the … issue", «повесь метку bug на задачу про …»: a label on an issue
# (a label's name, plain or quoted; a few of them: "'security' and 'customer-request' labels")
_LABEL_NAME = r"(?:['\"«“][^'\"«»“”]{1,40}['\"»”]|[\w-]+)"
_LABEL_NAMES = rf"{_LABEL_NAME}(?:\s*(?:,|\band\b|\bи\b|&)\s*{_LABEL_NAME}){{0,4}}"
LABEL_ON = LazyRe(
    r"(?i)\b(?:add|put|повесь|добавь|поставь)\s+(?:the\s+|a\s+)?"
    rf"(?:{_LABEL_NAMES}\s+(?:labels?|tags?)|(?:метк\w*|лейбл\w*)\s+{_LABEL_NAMES})"
    r"\s+(?:to|on|на|к)\b"
    # «DES-7 повесь label onboarding»: the issue said first, then the label put on it
    r"|^\s*[A-Za-z]{2,5}-\d+\s*[:,—–-]?\s+(?:add|put|повесь|добавь|поставь)\s+(?:the\s+|a\s+)?(?:label|tag|метк\w*|лейбл\w*)\s+[\w-]+"
)


# «три задачи в ENG первая …, вторая …», "two issues: first …, second …": new issues dictated as a list
_COUNTED_ISSUES = LazyRe(
    r"(?i)^\s*(?:(?:заведи|создай|добавь|create|add|file|open)\s+)?(?:\S+\s+)?"
    + COUNT_WORD
    + r"\s+(?:задач\w*|тикет\w*|issues|tickets|tasks)\b"
)
_ORDINAL_ITEM = LazyRe(ORDINAL_ITEM, re.IGNORECASE)


def dictated_list(text: str) -> bool:
    """New issues counted, then said one by one ("first …, second …"): made, never looked up."""
    return bool(_COUNTED_ISSUES.match(text)) and len(_ORDINAL_ITEM.findall(text)) >= 2


# issues no one is on: "unassigned", «без исполнителя», "which nobody is assigned", «никто не взял»
# "every ENG issue with no due date", «все задачи без срока», "that has no due date": which ones (the `due: none` filter)
NO_DUE_DATE = LazyRe(
    r"(?i)\b(?:with\s+no|without(?:\s+an?|\s+any)?|(?:that\s+)?(?:has|have)\s+no|(?:that\s+)?(?:doesn'?t|don'?t)\s+have(?:\s+an?|\s+any)?|"
    r"no|без|нет|(?:у\s+которых\s+)?не\s+(?:стоит|указан\w*|установлен\w*|задан\w*))\s+(?:due\s+dates?|deadlines?|due|срок\w*|дедлайн\w*)\b"
)
# "all issues that have a due date", «все задачи со сроком», «у которых есть срок»: which ones (`due: any`)
ANY_DUE_DATE = LazyRe(
    r"(?i)\b(?:(?:that\s+|which\s+)?(?:has|have)|with|having|(?:у\s+которых|у\s+них)\s+(?:есть|стоит|указан\w*|задан\w*)|"
    r"со|с)\s+(?:an?\s+|any\s+)?(?:due\s+dates?|deadlines?|сроком|дедлайном|срок|дедлайн)\b(?!\s+(?:до|на|в|к|by|before|"
    r"this|next|in|on|today|tomorrow|сегодня|завтра|\d))"
)
NOBODY = LazyRe(
    r"(?i)\b(?:unassigned|not\s+assigned|без\s+исполнител\w*|без\s+ответственн\w*|без\s+ассайн\w*|без\s+assignee|"
    r"(?:without|w/o)\s+(?:an?\s+)?(?:assignee|owner)|неназначенн\w*|"
    r"(?:don'?t|doesn'?t|do\s+not|does\s+not)\s+have\s+(?:an?\s+|any\s+)?(?:assignee|owner)|"
    r"(?:нет|не\s+стоит)\s+(?:исполнител\w*|ответственн\w*)|"
    r"ничьи\w*|nobody'?s|no\s+assignee|ни\s+на\s+кого\s+не\s+назначен\w*|никому\s+не\s+назначен\w*|"
    r"(?:nobody|no\s+one|no-one)\s+(?:is\s+)?(?:assigned|owns|has|is\s+on|works\s+on|is\s+working\s+on)|"
    r"никто\s+не\s+(?:ведёт|ведет|делает|взял|назначен))\b"
)


# «закинь коммент в тикет про onboarding: …», "add a comment on the push notifications one: …": a comment on an
# issue there is (never a new issue, whatever verb makes the comment)
COMMENT_ON_AN_ISSUE = LazyRe(
    r"(?i)\b(?:коммент\w*|комментари\w*|comment)\s+(?:в|к|на|to|on|in)\s+(?:the\s+)?(?:[\w-]+\s+){0,4}?"
    r"(?:тикет\w*|задач\w*|issue|ticket|one)\b"
)
# a priority said as what an issue is made ("make the … urgent", «сделай её срочной»)
PRIORITY_MADE = r"(?:urgent|high(?:\s+priority)?|low(?:\s+priority)?|medium|p[0-4]|top\s+priority|срочн\w+|высок\w+|низк\w+)\b"


def _spaced(name: str) -> str:
    """A state's name as a pattern that also takes it hyphenated: "in-progress issues", "to-do"."""
    return r"[\s-]+".join(re.escape(w) for w in name.split())


async def state_named(ctx: BuildContext, text: str) -> str | None:
    """The Linear workflow state `text` names ("Todo", "in-progress", «в бэклоге»), the longest name first."""
    states = {s.name for t in await ctx.directory.teams() for s in await ctx.directory.states(t.id)}
    return next(
        (s for s in sorted(states, key=len, reverse=True) if re.search(rf"(?i)\b{_spaced(s)}\b", text)), None
    ) or next((name for rx, name in STATE_PHRASES if name in states and rx.search(text)), None)


# «…и сразу в нём задачу …», "…and add an issue to it": into the project just made in the same message
INTO_THE_NEW = LazyRe(
    r"(?i)^\W*(?:(?:и|and)\s+)?(?:(?:заведи|создай|добавь|add|create|file|open)\s+)?(?:(?:сразу|тут\s+же|заодно|also|right\s+away)\s+)?"
    # ("…, and an issue in it: …", «и первую задачу внутри: …»: the thing made, then where it goes)
    r"(?:(?:an?\s+|the\s+)?(?:first\s+|первую\s+|первый\s+)?(?:issue|task|ticket|задач\w*|тикет\w*|таск\w*)\s+)?"
    r"(?:туда|в\s+него|в\s+нём|в\s+нем|into\s+it|in\s+it|under\s+it|there|inside(?:\s+it)?|внутри)\b"
)
