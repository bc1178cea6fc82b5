"""Questions about the workspace itself: deal stages, CRM members, Linear teams, projects, workflow
states, labels and users, CRM tasks and notes."""

from __future__ import annotations

import re

from planner._lazy_re import LazyRe
from planner.analysis import HEADED_THING, Clause
from planner.context import BuildContext
from planner.intents.models import Filters, Find
from planner.rules import rule
from planner.rules._common import find
from planner.rules._linear_common import STATE_PHRASES
from planner.rules.attio import OBJECT, crm_target

__all__ = ["crm_notes_and_tasks", "workspace_lists"]

_ASK = LazyRe(r"\b(покажи|показать|какие|какой|каки[ех]|список|перечисли|выведи|кто|сколько|есть ли|"
                  r"show|list|what|which|who|how many|are there|give me)\b|\?", re.I)  # fmt: skip
_LISTS = [
    ("stages", re.compile(r"\b(стади[иийя]\w*|этап\w*|воронк\w*|pipeline|stages)\b", re.I)),
    ("labels", re.compile(r"\b(метк\w*|меток|лейбл\w*|label\w*|тег\w*|tags)\b", re.I)),
    ("states", re.compile(r"\b(статус\w*|состояни\w*|states|statuses|workflow)\b", re.I)),
    ("teams", re.compile(r"\b(команд[ыа]?|командах|teams)\b", re.I)),
    ("projects", re.compile(r"\b(проект[ыов]*|projects)\b", re.I)),
    (
        "people",
        re.compile(
            r"\b(пользовател\w*|участник\w*|сотрудник\w*|members?|users|кто (есть|работает|в)|на кого (можно )?назнач\w*|"
            r"who(?:'s| is| are)? (?:in|on|using)|who can i assign)\b",
            re.I,
        ),
    ),
]


_NOTE_SAYS = LazyRe(
    r"(?i)\b(?:заметк[уа]|note|a\s+note)\s*,?\s+(?:о\s+том,?\s+)?(?:что|that)\s+\S"
    # («просто заметку к сделке Initech renewal что подписали …», "just a note on Globex that …": where, then its words)
    r"|\b(?:заметку|a\s+note)\s+(?:к|на|по|для|on|to|for|under)\s+[^,.;:?]{1,60}?\s*,?\s+(?:о\s+том,?\s+)?(?:что|that)\s+\S"
    # "…, and note 'Li Wei confirmed 2 sites'": its words, quoted
    r"|^(?:(?:and|also|и|а\s+также|плюс|plus)\s+)?(?:a\s+)?(?:note|заметк[уа])\s*[:—–-]?\s*['\"«“]"
)
_DEALS_ASKED = LazyRe(
    r"(?i)\b(?:deals|сделк\w*|how\s+many|сколько|total|сумм\w*|pipeline\s+(?!stages?\b|стади)\w+)\b"
)


def _system(clause: Clause) -> str | None:
    if clause.has("linear"):
        return "linear"
    if clause.has("attio", "crm"):
        return "attio"
    return None


async def _names_a_stage(clause: Clause, ctx: BuildContext) -> bool:
    """ "сделки на стадии переговоров": deals in a stage, not the list of stages."""
    return any(m.score >= 1.0 for m in await find(ctx, clause, "stage"))


async def _names_a_deal(clause: Clause, ctx: BuildContext) -> bool:
    return any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))


async def _names_one(clause: Clause, ctx: BuildContext, kind: str) -> bool:
    """The clause names one label or one workflow state: a filter, not the catalog."""
    if kind == "labels":
        names = [x.name for x in await ctx.directory.labels()]
    elif kind == "states":
        names = list({s.name for t in await ctx.directory.teams() for s in await ctx.directory.states(t.id)})
    else:
        return False
    return any(
        re.search(rf"(?<![\w-]){re.escape(n)}(?!\w)", clause.text, re.I) for n in names
    )  # "onboarding-labelled"


@rule(70)
async def workspace_lists(clause: Clause, ctx: BuildContext) -> bool:
    if not (_ASK.search(clause.text) or clause.asks()) or clause.commands() or clause.identifiers:
        return False
    if HEADED_THING.match(clause.text):
        return False  # "Bug: Safari users get logged out when …": a thing to file, its words ask nothing
    said = sorted((m.start(), n, k) for n, (k, rx) in enumerate(_LISTS) if (m := rx.search(clause.text)))
    kind = said[0][2] if said else None  # «какие проекты у команды cs»: the projects, asked first
    if (
        kind is None
        or clause.has("note")
        or (clause.has("deal") or kind == "stages")  # «что на стадии КП?», «в какой стадии Альфа-Лизинг?»
        and (
            kind != "stages"
            or await _names_a_deal(clause, ctx)
            or any(m.score >= 0.9 for m in await find(ctx, clause, "company"))
            or await _names_a_stage(clause, ctx)
            or _DEALS_ASKED.search(clause.text)  # "how many deals … across all stages", "pipeline Макса"
            or any(m.score >= 0.5 for m in await find(ctx, clause, "member"))
        )
    ):
        return False  # "сделки в стадии ...", "на какой стадии сделка" are about records, not catalogs
    if kind == "stages" and not re.search(r"(?i)\b(?:стади\w*|этап\w*|stages?|steps?)\b", clause.text):
        return False  # "pipeline?", «что в воронке»: the deals in it, not the list of its stages
    if clause.has("task", "issue") and kind not in ("states", "labels", "people"):
        return False  # "задачи команды Design" is a list of issues; "статусы задач" is a catalog
    if (clause.has("task", "issue", "bug") or re.search(r"(?i)\b(?:everything|всё|все)\b", clause.text)) and (
        await _names_one(clause, ctx, kind)
    ):
        return False  # "задачи с меткой security", "задачи в статусе Todo": issues, filtered
    if clause.has("task", "issue") and [m for m in await find(ctx, clause, "project") if m.score >= 0.9]:
        return False  # «статус задач по проекту Mobile App»: that project's issues, each with its state
    if clause.has("task", "issue", "bug") and re.search(r"(?i)\b(?:сколько|how\s+many|count)\b", clause.text):
        return False  # «сколько задач в статусе …»: issues counted, not the catalog
    if kind == "teams" and any(rx.search(clause.text) for rx, _ in STATE_PHRASES):
        return False  # «что в работе у команды Engineering»: that team's issues in that state
    if kind == "stages" and re.search(
        r"(?i)\b(?:денег|бабла|money|сумм\w*|total|сколько\s+сделок|how\s+many\s+deals)\b", clause.text
    ):
        return False  # «сколько денег в стадии КП»: the deals there, summed
    if kind == "teams" and [m for m in await find(ctx, clause, "team") if m.score >= 0.9]:
        return False  # «чо щас у команды дизайна»: one team named, its issues
    system = _system(clause)
    if kind == "people" and [m for m in await find(ctx, clause, "company") if m.score >= 0.9]:
        return False  # "people at Globex" are CRM contacts, not workspace members
    if kind == "stages" and system != "linear":
        await ctx.emit(Find(object="stages"))
    elif kind == "labels":
        await ctx.emit(Find(object="labels"))
    elif kind in ("states", "stages"):
        teams = [m for m in await find(ctx, clause, "team") if m.score >= 0.9]
        keyed = [
            t for t in await ctx.directory.teams() if re.search(rf"\b{t.extra.get('key')}\b", clause.text)
        ]
        team = keyed[0] if keyed else teams[0].entity if teams else None
        await ctx.emit(Find(object="states", filters=Filters(team=team.name if team else None)), team=team)
    elif kind == "teams":
        await ctx.emit(Find(object="teams"))
    elif kind == "projects":
        await ctx.emit(Find(object="projects"))
    elif kind == "people":
        await ctx.emit(Find(object="users" if system == "linear" else "members"))
    return True


@rule(72)
async def crm_notes_and_tasks(clause: Clause, ctx: BuildContext) -> bool:
    """ "заметки по Initech", "какие задачи по Ромашке", "мои задачи в CRM"."""
    if not clause.asks() or clause.commands() or clause.has("linear", "issue") or clause.identifiers:
        return False
    notes, tasks = clause.has("note"), clause.has("task")
    if not (notes or tasks):
        return False
    if _NOTE_SAYS.search(clause.text):
        return False  # «ивану петрову заметку, что он в отпуске»: a note with its words, the verb left unsaid
    found = await crm_target(clause, ctx, "record")
    target = (OBJECT[found[0]], found[1]) if found is not None else None
    if target is None:
        if notes and (_system(clause) == "attio" or re.search(r"\b(все|all)\b", clause.text, re.I)):
            await ctx.emit(Find(object="notes"))
            return True
        if tasks and not notes and _system(clause) == "attio":
            await ctx.emit(Find(object="tasks"))
            return True
        return False
    await ctx.emit(
        Find(object="notes" if notes else "tasks", filters=Filters(record=target[1].name)), record=target
    )
    return True
