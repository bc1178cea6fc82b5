"""Questions about the workspace itself: deal stages, CRM members, Linear teams, projects, workflow
states, labels and users, CRM tasks and notes."""

from __future__ import annotations

import re

from planner.analysis import Clause
from planner.context import BuildContext
from planner.intents import rule
from planner.intents._common import find
from planner.intents.attio import OBJECT, crm_target
from toolkits.attio import ops as attio
from toolkits.linear import ops as linear

__all__ = ["crm_notes_and_tasks", "workspace_lists"]

_ASK = re.compile(r"\b(покажи|показать|какие|какой|каки[ех]|список|перечисли|выведи|кто|сколько|есть ли|"
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


def _system(clause: Clause) -> str | None:
    if clause.has("linear"):
        return "linear"
    if clause.has("attio", "crm"):
        return "attio"
    return None


async def _names_a_deal(clause: Clause, ctx: BuildContext) -> bool:
    return any(m.score >= 0.9 for m in await find(ctx, clause, "deal"))


@rule(70)
async def workspace_lists(clause: Clause, ctx: BuildContext) -> bool:
    if not (_ASK.search(clause.text) or clause.asks()) or clause.commands() or clause.identifiers:
        return False
    kind = next((k for k, rx in _LISTS if rx.search(clause.text)), None)
    if (
        kind is None
        or clause.has("note")
        or clause.has("deal")
        and (kind != "stages" or await _names_a_deal(clause, ctx))
    ):
        return False  # "сделки в стадии ...", "на какой стадии сделка" are about records, not catalogs
    if clause.has("task", "issue") and kind not in ("states", "labels", "people"):
        return False  # "задачи команды Design" is a list of issues; "статусы задач" is a catalog
    system = _system(clause)
    if kind == "people" and [m for m in await find(ctx, clause, "company") if m.score >= 0.9]:
        return False  # "people at Globex" are CRM contacts, not workspace members
    if kind == "stages" and system != "linear":
        ctx.add(attio.list_stages(ctx.t("стадии сделок", "deal stages")))
    elif kind == "labels":
        ctx.add(linear.list_labels(ctx.t("метки Linear", "Linear labels")))
    elif kind in ("states", "stages"):
        teams = [m for m in await find(ctx, clause, "team") if m.score >= 0.9]
        keyed = [
            t for t in await ctx.directory.teams() if re.search(rf"\b{t.extra.get('key')}\b", clause.text)
        ]
        team = keyed[0] if keyed else teams[0].entity if teams else None
        if team is None:
            default = ctx.config.get("defaults", {}).get("linear_team")
            team = next((t for t in await ctx.directory.teams() if t.extra.get("key") == default), None)
        if team is None:
            return False
        ctx.add(
            linear.list_states(team.id, ctx.t(f"статусы команды {team.name}", f"{team.name} workflow states"))
        )
    elif kind == "teams":
        ctx.add(linear.list_teams(ctx.t("команды Linear", "Linear teams")))
    elif kind == "projects":
        ctx.add(linear.list_projects(ctx.t("проекты Linear", "Linear projects")))
    elif kind == "people":
        if system == "linear":
            ctx.add(linear.list_users(ctx.t("пользователи Linear", "Linear users")))
        else:
            ctx.add(attio.list_members(ctx.t("участники CRM", "CRM workspace members")))
    return True


@rule(72)
async def crm_notes_and_tasks(clause: Clause, ctx: BuildContext) -> bool:
    """ "заметки по Initech", "какие задачи по Ромашке", "мои задачи в CRM"."""
    if not clause.asks() or clause.commands() or clause.has("linear", "issue") or clause.identifiers:
        return False
    notes, tasks = clause.has("note"), clause.has("task")
    if not (notes or tasks):
        return False
    target = None
    found = await crm_target(clause, ctx, "record")
    if found is not None:
        target = (OBJECT[found[0]], found[1])
    if notes:
        if target is None:
            if _system(clause) != "attio" and not re.search(r"\b(все|all)\b", clause.text, re.I):
                return False
            ctx.add(attio.list_notes(None, None, ctx.t("заметки в CRM", "CRM notes")))
            return True
        ctx.add(
            attio.list_notes(
                target[0], target[1].id, ctx.t(f"заметки: {target[1].name}", f"notes: {target[1].name}")
            )
        )
        return True
    if target is not None and target[1] is not None:
        ctx.add(
            attio.list_tasks(
                {"linked_object": target[0], "linked_record_id": target[1].id, "is_completed": False},
                ctx.t(f"задачи CRM: {target[1].name}", f"CRM tasks: {target[1].name}"),
            )
        )
        return True
    if _system(clause) == "attio":
        ctx.add(attio.list_tasks({"is_completed": False}, ctx.t("задачи в CRM", "CRM tasks")))
        return True
    return False
