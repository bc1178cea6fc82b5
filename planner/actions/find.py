"""`find` -> the read that answers it, plus what the read cannot filter itself (a state, a label, a
date range, "open"), applied to its rows with the totals asked for (planner.answers)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any, cast

from planner import references as refs
from planner.actions import builds
from planner.answers import Refine
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import GROUPS_OF, Filters, Find, GroupBy
from toolkits.attio import ops as attio
from toolkits.googlecalendar import ops as gcal
from toolkits.linear import PRIORITY
from toolkits.linear import ops as linear

__all__: list[str] = []


def _refine(ctx: BuildContext, index: int, intent: Find, **filters: Any) -> None:
    spec = Refine(
        action=index,
        object=intent.object,
        aggregate=intent.aggregate,
        limit=intent.limit,
        filters={k: v for k, v in filters.items() if v not in (None, "", [])},
        names={m.id: m.name for m in ctx.memory.get("people_names", [])},
        team=intent.filters.team,
        group_by=intent.group_by,
    )
    ctx.memory.setdefault("refine", []).append(spec)


async def _names(ctx: BuildContext, *, companies: bool = False) -> None:
    """Who is who, so an answer says "Oleg Ivanov" rather than an id (and "Acme Corp", by company)."""
    if "people_names" not in ctx.memory:
        ctx.memory["people_names"] = [*await ctx.directory.members(), *await ctx.directory.users()]
    if companies and not ctx.memory.get("company_names"):
        ctx.memory["company_names"] = True
        ctx.memory["people_names"] += await ctx.directory.companies()


@builds("find")
async def find(intent: Find, ctx: BuildContext) -> None:
    f = intent.filters
    said = ctx.memory.get("group_said")  # the person's words asked for a breakdown ("by stage")
    if intent.group_by is None and said and not ctx.memory.get("sent_intents"):
        dimension = "owner" if said == "person" and intent.object == "deals" else said
        dimension = "assignee" if dimension == "person" else dimension
        if dimension in GROUPS_OF.get(intent.object, ()):
            intent.group_by = cast("GroupBy", dimension)
    await _names(ctx, companies=intent.group_by == "company")
    if intent.object in ("deals", "companies", "people"):
        await _crm(intent, f, ctx)
    elif intent.object == "issues":
        await _issues(intent, f, ctx)
    elif intent.object == "tasks":
        flt: dict[str, Any] = {"is_completed": False}
        what = ctx.t("задачи в CRM", "CRM tasks")
        if f.record:
            obj, rec = intent.resolved("record") or await refs.crm_record(ctx, f.record)
            flt |= {"linked_object": obj, "linked_record_id": rec.id}
            what = ctx.t(f"задачи CRM: {rec.name}", f"CRM tasks: {rec.name}")
        _refine(ctx, ctx.add(attio.list_tasks(flt, what)), intent)
    elif intent.object == "notes":
        if f.record:
            obj, rec = intent.resolved("record") or await refs.crm_record(ctx, f.record)
            index = ctx.add(
                attio.list_notes(obj, rec.id, ctx.t(f"заметки: {rec.name}", f"notes: {rec.name}"))
            )
        else:
            index = ctx.add(attio.list_notes(None, None, ctx.t("заметки в CRM", "CRM notes")))
        _refine(ctx, index, intent)
    elif intent.object == "events":
        day = refs.day(ctx, f.date, "filters.date") if f.date else ctx.now.date()
        start = datetime.combine(day, time(0, 0), tzinfo=ctx.now.tzinfo)
        index = ctx.add(
            gcal.list_events(
                start.isoformat(),
                (start + timedelta(days=1)).isoformat(),
                ctx.t(f"события календаря на {day.isoformat()}", f"calendar events on {day.isoformat()}"),
            )
        )
        _refine(ctx, index, intent)
    else:
        await _catalog(intent, f, ctx)


async def _crm(intent: Find, f: Filters, ctx: BuildContext) -> None:
    obj = intent.object
    if f.record or intent.resolved("record") is not None:
        found = intent.resolved("record") or await refs.crm_record(ctx, str(f.record), objects=(obj,))
        kind, rec = found
        index = ctx.add(attio.get_record(kind, rec.id, rec.name))
        _refine(ctx, index, intent)
        if kind == "people" and rec.extra.get("company"):  # its record holds only the company's id
            emails = ", ".join(str(e) for e in rec.extra.get("emails") or [] if e)
            ctx.notes.append(  # who they are and how to reach them: "what's Li Wei's email?" is answered too
                ctx.t(
                    f"{rec.name}: компания {rec.extra['company']}" + (f", {emails}" if emails else ""),
                    f"{rec.name} is with {rec.extra['company']}" + (f", {emails}" if emails else ""),
                )
            )
        return
    flt: dict[str, Any] = {}
    shown: list[str] = []
    stage: Entity | None = intent.resolved("stage")
    open_only = False
    if f.stage and stage is None:
        if f.stage.strip().lower() in ("open", "открытые", "active", "активные"):
            open_only = True
        else:
            stage = await refs.stage(ctx, f.stage)
    if stage is not None:
        flt["stage"] = stage.name
        shown.append(stage.name)
    owner: Entity | None = intent.resolved("owner")
    if owner is None and f.owner:
        owner = await refs.member(ctx, f.owner)
    if owner is not None:
        flt["owner"] = owner.id
        shown.append(owner.name)
    company: Entity | None = intent.resolved("company")
    if company is None and f.company:
        _, company = await refs.crm_record(ctx, f.company, slot="company", objects=("companies",))
    if company is not None:
        flt["associated_company" if obj == "deals" else "company"] = company.id
        shown.append(company.name)
    what = {
        "deals": ("сделки", "deals"),
        "companies": ("компании", "companies"),
        "people": ("контакты", "people"),
    }[obj]
    label = ctx.t(what[0], what[1]) + (f": {', '.join(shown)}" if shown else "")
    if f.text and not flt and obj != "deals":
        index = ctx.add(attio.search_records(f.text[:100], [obj], f"{label}: {f.text}"))
    else:
        index = ctx.add(attio.filter_records(obj, flt or None, label))
    _refine(
        ctx, index, intent, stage=stage.name if stage else None, owner=owner.id if owner else None,
        company=company.id if company else None, open=open_only or None, currency=f.currency,
    )  # fmt: skip


async def _issues(intent: Find, f: Filters, ctx: BuildContext) -> None:
    if f.record or intent.resolved("record") is not None:
        issue: dict[str, Any] = intent.resolved("record") or await refs.issue(
            ctx, str(f.record), slot="record"
        )
        ident = str(issue.get("identifier") or issue["id"])
        _refine(ctx, ctx.add(linear.get_issue(ident)), intent)
        return
    team: Entity | None = intent.resolved("team") or (await refs.team(ctx, f.team) if f.team else None)
    no_project = (f.project or "").strip().lower() in ("none", "no project", "без проекта")
    project: Entity | None = intent.resolved("project") or (
        await refs.project(ctx, f.project) if f.project and not no_project else None
    )
    assignee: Entity | None = intent.resolved("assignee")
    nobody = (f.assignee or "").lower() in ("none", "nobody", "unassigned")
    if assignee is None and f.assignee and not nobody:
        assignee = await refs.user(ctx, f.assignee)
    state = await _state_filter(ctx, team, f.state)
    labels = await refs.labels(ctx, [f.label]) if f.label else []
    if project is not None:
        index = ctx.add(
            linear.list_issues(
                ctx.t(f"задачи проекта «{project.name}»", f"issues in '{project.name}'"),
                project_id=project.id,
            )
        )
    elif team is not None:
        index = ctx.add(
            linear.list_team_issues(team.id, ctx.t(f"задачи команды {team.name}", f"{team.name} issues"))
        )
    elif assignee is not None:
        mine = assignee.extra.get("is_me")
        what = (
            ctx.t("мои задачи в Linear", "my Linear issues")
            if mine
            else ctx.t(f"задачи: {assignee.name}", f"{assignee.name}'s issues")
        )
        index = ctx.add(linear.list_issues(what, assignee_id=assignee.id))
    elif f.text:
        index = ctx.add(linear.search_issues(f.text[:200]))
    else:
        index = ctx.add(linear.list_issues(ctx.t("задачи в Linear", "Linear issues")))
    _refine(
        ctx, index, intent, team=team.id if team and project is not None else None,
        assignee=assignee.id if assignee and (project or team) else None, state=state,
        label=labels[0].name if labels else None, text=f.text if (project or team or assignee) else None,
        priority=PRIORITY[f.priority] if f.priority else None,
        unassigned=nobody or None, exclude=sorted({e.upper() for e in f.exclude or []}),
        due_before=refs.day(ctx, f.due_before, "filters.due_before").isoformat() if f.due_before else None,
        due_after=refs.day(ctx, f.due_after, "filters.due_after").isoformat() if f.due_after else None,
        no_due=f.due == "none" or None, has_due=f.due == "any" or None, no_project=no_project or None,
    )  # fmt: skip


async def _state_filter(ctx: BuildContext, team: Entity | None, wanted: str | None) -> str | None:
    """ "open" stays a kind of state; a state's name is checked against the team's states when known."""
    if not wanted:
        return None
    low = wanted.strip().lower()
    if low in ("open", "открытые", "открытая", "открытый", "active", "незакрытые", "not done"):
        return "open"
    if team is not None:
        return (await refs.state(ctx, team.id, wanted)).name.lower()
    for t in await ctx.directory.teams():
        try:
            return (await refs.state(ctx, t.id, wanted)).name.lower()
        except Exception:  # noqa: BLE001 - another team may call it so
            continue
    return low


async def _catalog(intent: Find, f: Filters, ctx: BuildContext) -> None:
    obj = intent.object
    if obj == "stages":
        index = ctx.add(attio.list_stages(ctx.t("стадии сделок", "deal stages")))
    elif obj == "labels":
        index = ctx.add(linear.list_labels(ctx.t("метки Linear", "Linear labels")))
    elif obj == "states":
        team = intent.resolved("team") or await refs.team(ctx, f.team)
        index = ctx.add(
            linear.list_states(team.id, ctx.t(f"статусы команды {team.name}", f"{team.name} workflow states"))
        )
    elif obj == "teams":
        index = ctx.add(linear.list_teams(ctx.t("команды Linear", "Linear teams")))
    elif obj == "projects":
        index = ctx.add(linear.list_projects(ctx.t("проекты Linear", "Linear projects")))
    elif obj == "users":
        index = ctx.add(linear.list_users(ctx.t("пользователи Linear", "Linear users")))
    else:
        index = ctx.add(attio.list_members(ctx.t("участники CRM", "CRM workspace members")))
    _refine(ctx, index, intent)
