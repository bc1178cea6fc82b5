"""Linear intents -> actions: new issues and sub-issues, edits, completion, comments, archiving,
projects."""

from __future__ import annotations

from typing import Any

from planner import references as refs
from planner.actions import builds, need
from planner.context import BuildContext
from planner.directory import Entity
from planner.intents.models import (
    ArchiveIssue,
    CommentIssue,
    CompleteIssue,
    CreateIssue,
    CreateProject,
    UpdateIssue,
)
from planner.models import RiskFlag, ToolAction
from planner.resolve import find_mentions, keys_for
from toolkits.linear import PRIORITY, ops

__all__ = ["issue_name", "new_project_ref"]

PRIORITY_NAMES = {1: "Urgent", 2: "High", 3: "Medium", 4: "Low", 0: "None"}


def issue_name(issue: dict[str, Any]) -> str:
    return f"{issue.get('identifier')} «{issue.get('title')}»"


def new_project_ref(ctx: BuildContext, name: str) -> tuple[str, int] | None:
    """A project created by an earlier action of this plan: its id placeholder and that action."""
    made = ctx.memory.get("new_projects", {}).get(name.strip().lower())
    return (f"$ref:{made}.id", made) if made is not None else None


async def _project(ctx: BuildContext, intent: Any) -> tuple[str | None, int | None, str | None]:
    """(projectId, the action it depends on, its name) for an intent's `project`."""
    if intent.resolved("project") is not None:
        p: Entity = intent.resolved("project")
        return p.id, None, p.name
    if not intent.project:
        return None, None, None
    made = new_project_ref(ctx, intent.project)
    if made is not None:
        return made[0], made[1], intent.project
    found = await refs.project(ctx, intent.project)
    return found.id, None, found.name


def _past(ctx: BuildContext, due: str) -> None:
    if due < ctx.now.date().isoformat():
        ctx.notes.append(ctx.t("Срок в прошлом — проверьте дату.", "The due date is in the past - check it."))


@builds("create_issue")
async def create_issue(intent: CreateIssue, ctx: BuildContext) -> None:
    title = need(ctx, intent, "title")[:255]
    parent: dict[str, Any] | None = intent.resolved("parent")
    if parent is None and intent.parent:
        parent = await refs.issue(ctx, intent.parent, slot="parent")
    team: Entity | None = intent.resolved("team")
    if team is None and parent is not None and not intent.team:
        info = parent.get("team") or {}
        team = Entity("team", str(info.get("id")), str(info.get("name", "")), extra={"key": info.get("key")})
    if team is None:
        team = await refs.team(ctx, intent.team)
    project_id, depends, project_name = await _project(ctx, intent)
    labels: list[Entity] = intent.resolved("labels") or (await refs.labels(ctx, intent.labels or [], team.id))
    assignee: Entity | None = intent.resolved("assignee")
    if assignee is None and intent.assignee:
        assignee = await refs.user(ctx, intent.assignee)
    due = refs.day(ctx, intent.due, "due").isoformat() if intent.due else None
    if due:
        _past(ctx, due)
    priority = PRIORITY[intent.priority] if intent.priority else None
    state = await refs.state(ctx, team.id, intent.state) if intent.state else None
    if state is None and due is None and not intent.resolved("timed") and parent is None:
        # seed 000: a generic task with neither date nor time waits in the Inbox (the team's Triage)
        inbox = ctx.config.get("defaults", {}).get("inbox_state", "Triage")
        state = next(
            (s for s in await ctx.directory.states(team.id) if s.name.lower() == inbox.lower()), None
        )
    fields = {
        "teamId": team.id,
        "title": title,
        "description": intent.description,
        "dueDate": due,
        "priority": priority or None,
        "labelIds": [x.id for x in labels],
        "stateId": state.id if state else None,
        "assigneeId": assignee.id if assignee else None,
        "projectId": project_id,
        "parentId": parent["id"] if parent else None,
    }
    key = team.extra.get("key") or team.name
    if parent is not None:
        n = ctx.memory.setdefault("sub_issues", {}).setdefault(str(parent["id"]), 0)
        ctx.memory["sub_issues"][str(parent["id"])] = n + 1
        scope = [str(parent["id"]), "sub", str(n), title.lower()[:40]]
        who = f", {ctx.t('исполнитель', 'assignee')} {assignee.name}" if assignee else ""
        preview = ctx.t(
            f"Linear {key}: подзадача {parent.get('identifier')} «{title}»{who}",
            f"Linear {key}: sub-issue of {parent.get('identifier')} '{title}'{who}",
        )
    else:
        scope = [str(ctx.memory.get("plan_id", "plan")), str(len(ctx.actions))]
        extra = "".join(
            [
                f", {ctx.t('срок', 'due')} {ctx.said_day(due)}" if due else "",
                f", {ctx.t('приоритет', 'priority')} {PRIORITY_NAMES.get(priority or 0)}" if priority else "",
                f", {ctx.t('исполнитель', 'assignee')} {assignee.name}" if assignee else "",
                f", {ctx.t('статус', 'state')} {state.name}" if state is not None and intent.state else "",
                f", {ctx.t('проект', 'project')} {project_name}" if project_name else "",
                f", {ctx.t('метки', 'labels')} {', '.join(x.name for x in labels)}" if labels else "",
                # what the description says, shortly: the person sees everything that will be written
                f", {ctx.t('описание', 'description')} «{_short(intent.description)}»"
                if intent.description
                else "",
            ]
        )
        preview = ctx.t(
            f"Linear {key}: новая задача «{title}»{extra}", f"Linear {key}: new issue '{title}'{extra}"
        )
    ctx.add(ops.create_issue(scope, fields, preview, depends_on=depends))


# label changes relative to what an issue carries (IssueUpdateInput's own fields)
_RELATIVE_LABELS = frozenset({"addedLabelIds", "removedLabelIds"})
# what a due date is said as when there is to be none
NO_DAY = frozenset({"none", "no", "null", "clear", "нет", "без срока"})
# what an assignee is said as when there is to be none
# what a project is said as when the issue is to be in none
NO_PROJECT = frozenset({"none", "no project", "без проекта"})
UNASSIGNED = frozenset({"none", "nobody", "no one", "unassigned", "никто", "никого", "без исполнителя"})


def _said_none(intent: UpdateIssue, slot: str, words: frozenset[str]) -> bool:
    """The slot is said as "none" in one of its words ("unassigned", «без проекта»), and resolved to nothing."""
    return intent.resolved(slot) is None and str(getattr(intent, slot) or "").strip().lower() in words


@builds("update_issue")
async def update_issue(intent: UpdateIssue, ctx: BuildContext) -> None:
    issue: dict[str, Any] = intent.resolved("issue") or await refs.issue(ctx, need(ctx, intent, "issue"))
    iid, name = str(issue["id"]), issue_name(issue)
    team_id = str((issue.get("team") or {}).get("id", ""))
    fields: dict[str, Any] = {}
    parts: list[str] = []
    already: list[str] = []
    nobody = _said_none(intent, "assignee", UNASSIGNED)
    if (
        nobody
    ):  # "unassign ENG-101": a null assignee (sent as issueUpdate: LINEAR_UPDATE_ISSUE takes a user only)
        before = (issue.get("assignee") or {}).get("name")
        if before:
            fields["assigneeId"] = None
            parts.append(ctx.t(f"исполнитель {before} → никто", f"assignee {before} → nobody"))
        else:
            already.append(ctx.t("исполнителя уже нет", "already unassigned"))
    if not nobody and (intent.assignee is not None or intent.resolved("assignee") is not None):
        who: Entity = intent.resolved("assignee") or await refs.user(ctx, str(intent.assignee))
        before = (issue.get("assignee") or {}).get("name")
        if (issue.get("assignee") or {}).get("id") == who.id:
            already.append(ctx.t(f"исполнитель уже {who.name}", f"already assigned to {who.name}"))
        else:
            fields["assigneeId"] = who.id
            parts.append(
                ctx.t("исполнитель ", "assignee ") + (f"{before} → {who.name}" if before else who.name)
            )
    no_day = str(intent.due or "").strip().lower() in NO_DAY
    if no_day:  # "remove the due date": a null due date (sent as issueUpdate, as an unassign is)
        before = issue.get("dueDate")
        if before:
            fields["dueDate"] = None
            parts.append(
                ctx.t("срок ", "due ") + f"{ctx.said_day(before[:10])} → " + ctx.t("без срока", "none")
            )
        else:
            already.append(ctx.t("срока уже нет", "already has no due date"))
    if intent.due and not no_day:
        due = refs.day(ctx, intent.due, "due").isoformat()
        before = issue.get("dueDate")
        if before and before[:10] == due:
            already.append(ctx.t(f"срок уже {due}", f"already due {due}"))
        else:
            fields["dueDate"] = due
            shown = ctx.said_day(due)
            parts.append(
                ctx.t("срок ", "due ") + (f"{ctx.said_day(before[:10])} → {shown}" if before else shown)
            )
            _past(ctx, due)
    if intent.priority and issue.get("priority") == PRIORITY[intent.priority]:
        already.append(ctx.t(f"приоритет уже {intent.priority}", f"already {intent.priority} priority"))
    elif intent.priority:
        p = PRIORITY[intent.priority]
        fields["priority"] = p
        before = issue.get("priority")
        shown = PRIORITY_NAMES.get(p, str(p))
        old = PRIORITY_NAMES.get(before) if isinstance(before, int) and before else None
        parts.append(ctx.t("приоритет ", "priority ") + (f"{old} → {shown}" if old else shown))
        if p in (1, 2) and (before or 5) > p:
            ctx.notes.append(
                ctx.t(
                    "Приоритет повышается — проверьте перед подтверждением.",
                    "The priority goes up - check it before confirming.",
                )
            )
    if (
        intent.labels_add
        or intent.labels_remove
        or intent.resolved("labels_add")
        or intent.resolved("labels_remove")
    ):
        adding = intent.resolved("labels_add") or await refs.labels(
            ctx, intent.labels_add or [], team_id or None
        )
        removing = intent.resolved("labels_remove") or await refs.labels(
            ctx, intent.labels_remove or [], team_id or None
        )
        labels_now = issue.get("labels") or []
        if isinstance(labels_now, dict):
            labels_now = labels_now.get("nodes") or []
        carried = [str(x.get("id")) for x in labels_now if isinstance(x, dict)]
        have = carried
        earlier = next(
            (a for a in ctx.actions if a.operation == "update_issue" and _updated_id(a) == iid), None
        )
        before = _updated_fields(earlier) if earlier is not None else {}
        if "labelIds" in before:  # "убери bug, добавь feature": after it
            have = list(before["labelIds"])
        elif _RELATIVE_LABELS.intersection(before):
            gone = set(before.get("removedLabelIds") or [])
            have = [
                i for i in dict.fromkeys(carried + list(before.get("addedLabelIds") or [])) if i not in gone
            ]
        # «Сними метку bug с ENG-101, это скорее фича — повесь feature»: a label put on is never also taken off
        removing = [x for x in removing if x.id not in {a.id for a in adding}]
        drop = {x.id for x in removing}
        wanted = [i for i in dict.fromkeys(have + [x.id for x in adding]) if i not in drop]
        names = ", ".join([*(f"+{x.name}" for x in adding), *(f"−{x.name}" for x in removing)])
        if set(wanted) == set(have):
            plain = ", ".join(sorted({x.name for x in [*adding, *removing]}))
            already.append(ctx.t(f"метки уже такие: {plain}", f"labels already so: {plain}"))
        elif "labelIds" not in before and (removing or _RELATIVE_LABELS.intersection(before)):
            # a label taken off is said as Linear's removedLabelIds (relative to what the issue carries), so
            # a label someone adds meanwhile stays; labelIds would replace the whole set
            fields |= {
                k: v
                for k, v in (
                    ("addedLabelIds", [i for i in wanted if i not in carried]),
                    ("removedLabelIds", [i for i in carried if i not in wanted]),
                )
                if v
            }
            parts.append(ctx.t(f"метки {names}", f"labels {names}"))
        else:  # Linear replaces the whole set: keep the labels it has
            fields["labelIds"] = wanted
            parts.append(ctx.t(f"метки {names}", f"labels {names}"))
    if intent.title and intent.title.strip() == str(issue.get("title") or "").strip():
        already.append(ctx.t("название уже такое", "already titled so"))  # renamed to the title it has
    elif intent.title:
        fields["title"] = intent.title[:255]
        parts.append(ctx.t("название ", "title ") + f"«{issue.get('title')}» → «{intent.title}»")
        if issue.get("title"):  # DESIGN §5a: overwriting a non-empty text is destructive
            ctx.risks.append(_overwrite(ctx, name, ctx.t("название", "title")))
    if intent.description:
        fields["description"] = intent.description
        parts.append(ctx.t("новое описание", "new description"))
        if issue.get("description"):
            ctx.risks.append(_overwrite(ctx, name, ctx.t("описание", "description")))
    if intent.state or intent.resolved("state") is not None:
        st: Entity = intent.resolved("state") or await refs.state(ctx, team_id, str(intent.state))
        current = (issue.get("state") or {}).get("name")
        if current == st.name:
            already.append(ctx.t(f"уже в статусе {st.name}", f"already {st.name}"))
        else:
            fields["stateId"] = st.id
            parts.append(ctx.t("статус ", "state ") + (f"{current} → {st.name}" if current else st.name))
    depends = None
    no_project = _said_none(intent, "project", NO_PROJECT)
    if (
        no_project
    ):  # "take ENG-104 out of its project": a null project (sent as issueUpdate, as an unassign is)
        before = (issue.get("project") or {}).get("name")
        if before:
            fields["projectId"] = None
            parts.append(ctx.t(f"проект {before} → без проекта", f"project {before} → none"))
        else:
            already.append(ctx.t("уже без проекта", "already in no project"))
    elif intent.project or intent.resolved("project") is not None:
        pid, depends, pname = await _project(ctx, intent)
        if pid is not None and (issue.get("project") or {}).get("id") == pid:
            already.append(ctx.t(f"уже в проекте {pname}", f"already in project {pname}"))
        else:
            fields["projectId"] = pid
            parts.append(ctx.t(f"проект {pname}", f"project {pname}"))
    if intent.parent:
        parent = await refs.issue(ctx, intent.parent, slot="parent")
        fields["parentId"] = parent["id"]
        parts.append(ctx.t(f"родитель {parent.get('identifier')}", f"parent {parent.get('identifier')}"))
    if already:
        ctx.notes.append(f"{name}: " + ", ".join(already) + ".")
    if not fields:
        if not already:
            raise ctx.ask("change", ctx.t(f"Что изменить в {name}?", f"What should change in {name}?"))
        return
    prev = next((a for a in ctx.actions if a.operation == "update_issue" and _updated_id(a) == iid), None)
    if prev is not None:  # "назначь ENG-103 на Олега и поставь срок" is one update
        ctx.actions.remove(prev)
        kept = _updated_fields(prev)
        if _RELATIVE_LABELS.intersection(fields):  # (the new label change counts the earlier one in)
            kept = {k: v for k, v in kept.items() if k not in _RELATIVE_LABELS}
        fields = {**kept, **fields}
        said = prev.preview.removeprefix(f"Linear: {name}: ")
        parts = [said, *(p for p in parts if p not in said)]  # (an amended intent repeats what it kept)
    ctx.add(ops.update_issue(iid, fields, f"Linear: {name}: " + ", ".join(parts), depends_on=depends))


def _updated_id(action: ToolAction) -> Any:
    """The issue an update changes, in either of its shapes (LINEAR_UPDATE_ISSUE, or issueUpdate's variables)."""
    variables = action.args.get("variables")
    return variables.get("id") if isinstance(variables, dict) else action.args.get("issueId")


def _updated_fields(action: ToolAction) -> dict[str, Any]:
    variables = action.args.get("variables")
    if isinstance(variables, dict):
        return dict(variables.get("input") or {})
    return {k: v for k, v in action.args.items() if k != "issueId"}


def _overwrite(ctx: BuildContext, name: str, what: str) -> RiskFlag:
    return RiskFlag(
        kind="destructive",
        details=ctx.t(f"у {name} будет перезаписано: {what}", f"{name}: overwrites the {what}"),
    )


@builds("complete_issue")
async def complete_issue(intent: CompleteIssue, ctx: BuildContext) -> None:
    issue: dict[str, Any] = intent.resolved("issue") or await refs.issue(ctx, need(ctx, intent, "issue"))
    name = issue_name(issue)
    current = issue.get("state") or {}
    if current.get("type") == "completed":
        ctx.notes.append(
            ctx.t(f"{name} уже закрыта ({current.get('name')}).", f"{name} is already {current.get('name')}.")
        )
        return
    team_id = str((issue.get("team") or {}).get("id", ""))
    done = next((s for s in await ctx.directory.states(team_id) if s.extra.get("type") == "completed"), None)
    if done is None:
        raise ctx.ask("state", ctx.t("В какой статус перевести?", "Which state should it move to?"))
    ctx.add(
        ops.update_issue(
            str(issue["id"]),
            {"stateId": done.id},
            f"Linear: {name} → {done.name}",
            operation="complete_issue",
        )
    )


@builds("archive_issue")
async def archive_issue(intent: ArchiveIssue, ctx: BuildContext) -> None:
    issue: dict[str, Any] = intent.resolved("issue") or await refs.issue(ctx, need(ctx, intent, "issue"))
    name = issue_name(issue)
    ctx.add(
        ops.archive_issue(
            str(issue["id"]),
            ctx.t(
                f"Linear: архивировать {name} (пропадёт из списков команды)",
                f"Linear: archive {name} (it disappears from the team's lists)",
            ),
        )
    )
    ctx.risks.append(
        RiskFlag(kind="destructive", details=ctx.t(f"{name} будет архивирована", f"{name} will be archived"))
    )


@builds("comment_issue")
async def comment_issue(intent: CommentIssue, ctx: BuildContext) -> None:
    issue: dict[str, Any] = intent.resolved("issue") or await refs.issue(ctx, need(ctx, intent, "issue"))
    body = need(ctx, intent, "body")
    name = issue_name(issue)
    ctx.add(
        ops.comment_issue(
            str(issue["id"]),
            body,
            ctx.t(f"Linear: комментарий к {name}: «{body}»", f"Linear: comment on {name}: '{body}'"),
        )
    )


@builds("create_project")
async def create_project(intent: CreateProject, ctx: BuildContext) -> None:
    name = need(ctx, intent, "name")[:80]
    team: Entity = intent.resolved("team") or await refs.team(ctx, intent.team)
    existing = find_mentions(keys_for(name), await ctx.directory.projects())
    if existing and existing[0].score >= 1.0 and existing[0].entity.name.lower() == name.lower():
        ctx.notes.append(
            ctx.t(
                f"Проект «{existing[0].entity.name}» уже есть.",
                f"'{existing[0].entity.name}' already exists.",
            )
        )
        return
    target = refs.day(ctx, intent.target_date, "target_date").isoformat() if intent.target_date else None
    due_ru, due_en = (
        (f", срок {ctx.said_day(target)}", f", target {ctx.said_day(target)}") if target else ("", "")
    )
    index = ctx.add(
        ops.create_project(
            name,
            [team.id],
            ctx.t(
                f"Linear: новый проект «{name}» (команда {team.name}{due_ru})",
                f"Linear: new project '{name}' (team {team.name}{due_en})",
            ),
            target_date=target,
            description=intent.description,
        )
    )
    ctx.memory.setdefault("new_projects", {})[name.strip().lower()] = index
    ctx.memory.setdefault("new_project_names", []).append(name)


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
