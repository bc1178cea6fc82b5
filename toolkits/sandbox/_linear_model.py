"""Linear objects of the sandbox: lookups, the GraphQL-like node shapes, and issue creation."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from toolkits.sandbox._common import (
    SEED_TIMESTAMP,
    UUID_PATTERN,
    SandboxError,
    Workspace,
    first_match,
    new_id,
    now_iso,
)

WORKSPACE_SLUG = "northwind"
PRIORITY_LABELS = {0: "No priority", 1: "Urgent", 2: "High", 3: "Medium", 4: "Low"}

Node = dict[str, Any]


def find_team(ws: Workspace, ref: str) -> Node:
    """A team by id or key (any case)."""
    for team in ws["linear"]["teams"]:
        if team["id"] == ref or team["key"].casefold() == ref.strip().casefold():
            return dict(team)
    raise SandboxError(f"Team not found: '{ref}'")


def find_user(ws: Workspace, ref: str) -> Node:
    user = first_match(ws["linear"]["users"], "id", ref)
    if user is None:
        raise SandboxError(f"User not found: '{ref}'")
    return user


def find_project(ws: Workspace, ref: str) -> Node:
    project = first_match(ws["linear"]["projects"], "id", ref)
    if project is None:
        raise SandboxError(f"Project not found: '{ref}'")
    return project


def label_node(ws: Workspace, label: Node) -> Node:
    team = find_team(ws, label["team_id"]) if label.get("team_id") else None
    return {"id": label["id"], "name": label["name"], "team": None if team is None else team_ref(team)}


def find_label(ws: Workspace, ref: str) -> Node:
    label = first_match(ws["linear"]["labels"], "id", ref)
    if label is None:
        raise SandboxError(f"Label not found: '{ref}'")
    return label


def lookup_issue(ws: Workspace, ref: str) -> Node | None:
    """An issue by UUID or identifier (ENG-101, any case)."""
    wanted = ref.strip().upper()
    issues: list[Node] = ws["linear"]["issues"]
    for issue in issues:
        if issue["id"] == ref or issue["identifier"] == wanted:
            return issue
    return None


def find_issue(ws: Workspace, ref: str) -> Node:
    issue = lookup_issue(ws, ref)
    if issue is None:
        raise SandboxError(f"Issue not found: '{ref}'")
    return issue


def team_state(team: Node, state_id: str) -> Node:
    state = first_match(team["states"], "id", state_id)
    if state is None:
        raise SandboxError(f"Workflow state '{state_id}' does not belong to team {team['key']}")
    return state


def default_state(team: Node) -> Node:
    state = first_match(team["states"], "type", "unstarted") or team["states"][0]
    return dict(state)


def check_due_date(value: str, field: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError:
        raise SandboxError(f"{field} must be a date in YYYY-MM-DD form") from None
    return value


# --- nodes ----------------------------------------------------------------------------------------


def team_ref(team: Node) -> Node:
    return {"id": team["id"], "key": team["key"], "name": team["name"]}


def user_node(user: Node) -> Node:
    return {
        "id": user["id"],
        "name": user["name"],
        "email": user["email"],
        "displayName": user["email"].partition("@")[0],
        "active": user.get("active", True),
    }  # no `isMe`: Linear's users know no such field; "me" is LINEAR_GET_CURRENT_USER's `viewer`


def issue_url(issue: Node) -> str:
    return f"https://linear.app/{WORKSPACE_SLUG}/issue/{issue['identifier']}"


def issue_node(ws: Workspace, issue: Node) -> Node:
    team = find_team(ws, issue["team_id"])
    state = team_state(team, issue["state_id"])
    assignee = find_user(ws, issue["assignee_id"]) if issue.get("assignee_id") else None
    project = find_project(ws, issue["project_id"]) if issue.get("project_id") else None
    parent = lookup_issue(ws, issue["parent_id"]) if issue.get("parent_id") else None
    created_at = issue.get("created_at", SEED_TIMESTAMP)
    return {
        "id": issue["id"],
        "identifier": issue["identifier"],
        "number": issue_number(issue),
        "title": issue["title"],
        "description": issue.get("description") or None,
        "priority": issue["priority"],
        "priorityLabel": PRIORITY_LABELS[issue["priority"]],
        "estimate": issue.get("estimate"),
        "url": issue_url(issue),
        "dueDate": issue.get("due_date"),
        "createdAt": created_at,
        "updatedAt": issue.get("updated_at", created_at),
        "archivedAt": issue.get("archived_at"),
        "state": {"id": state["id"], "name": state["name"], "type": state["type"]},
        "team": team_ref(team),
        "assignee": None
        if assignee is None
        else {"id": assignee["id"], "name": assignee["name"], "email": assignee["email"]},
        "labels": [
            {"id": label_id, "name": find_label(ws, label_id)["name"]} for label_id in issue["label_ids"]
        ],
        "project": None if project is None else {"id": project["id"], "name": project["name"]},
        "parent": None if parent is None else {"id": parent["id"], "identifier": parent["identifier"]},
    }


def issue_number(issue: Node) -> int:
    return int(issue["identifier"].rpartition("-")[2])


def project_url(project: Node) -> str:
    slug = "-".join(re.findall(r"[a-z0-9]+", project["name"].lower()))
    short = project["id"].replace("-", "")[:12]
    return (
        f"https://linear.app/{WORKSPACE_SLUG}/project/{slug}-{short}"
        if slug
        else (f"https://linear.app/{WORKSPACE_SLUG}/project/{short}")
    )


def project_node(ws: Workspace, project: Node) -> Node:
    lead = find_user(ws, project["lead_id"]) if project.get("lead_id") else None
    return {
        "id": project["id"],
        "name": project["name"],
        "description": project.get("description", ""),
        "url": project_url(project),
        "state": project.get("state", "started"),
        "priority": project.get("priority", 0),
        "startDate": project.get("start_date"),
        "targetDate": project.get("target_date"),
        "lead": None if lead is None else {"id": lead["id"], "name": lead["name"]},
        "teams": [
            {"id": team["id"], "key": team["key"]} for team in (find_team(ws, t) for t in project["team_ids"])
        ],
        "createdAt": project.get("created_at", SEED_TIMESTAMP),
    }


# --- creating issues ------------------------------------------------------------------------------

# The stored field each creation argument fills (snake_case of LINEAR_CREATE_LINEAR_ISSUE).
ISSUE_FIELDS = (
    "id",
    "team_id",
    "title",
    "description",
    "state_id",
    "assignee_id",
    "priority",
    "label_ids",
    "project_id",
    "due_date",
    "parent_id",
    "estimate",
    "cycle_id",
)


def create_issue(ws: Workspace, fields: dict[str, Any]) -> Node:
    """Validate and store a new issue from snake_case `fields`; return its node."""
    issue_id = fields.get("id")
    if issue_id is not None:
        if not isinstance(issue_id, str) or not UUID_PATTERN.match(issue_id):
            raise SandboxError("Argument Validation Error: id must be a UUID")
        if first_match(ws["linear"]["issues"], "id", issue_id) is not None:
            raise SandboxError(f"Issue with id '{issue_id}' already exists")
    team = find_team(ws, fields["team_id"])
    title = fields.get("title")
    if not isinstance(title, str) or not title.strip():
        raise SandboxError("Issue title must not be empty")
    number = 1 + max(
        (issue_number(i) for i in ws["linear"]["issues"] if i["team_id"] == team["id"]), default=0
    )
    now = now_iso()
    issue: Node = {
        "id": issue_id or new_id(),
        "identifier": f"{team['key']}-{number}",
        "team_id": team["id"],
        "title": title.strip(),
        "description": fields.get("description") or "",
        "state_id": default_state(team)["id"],
        "assignee_id": None,
        "priority": 0,
        "label_ids": [],
        "project_id": None,
        "due_date": None,
        "created_at": now,
        "updated_at": now,
        "archived_at": None,
    }
    apply_issue_changes(ws, issue, {k: v for k, v in fields.items() if k not in ("id", "team_id", "title")})
    ws["linear"]["issues"].append(issue)
    return issue_node(ws, issue)


def apply_issue_changes(ws: Workspace, issue: Node, changes: dict[str, Any]) -> None:
    """Apply snake_case changes; an empty string clears an optional reference or the due date."""
    team = find_team(ws, changes.get("team_id") or issue["team_id"])
    if team["id"] != issue["team_id"]:
        _move_to_team(ws, issue, team)
    for key, value in changes.items():
        if key == "title":
            if not isinstance(value, str) or not value.strip():
                raise SandboxError("Issue title must not be empty")
            issue["title"] = value.strip()
        elif key == "description":
            issue["description"] = value or ""
        elif key == "state_id":
            issue["state_id"] = team_state(team, value)["id"]
        elif key == "assignee_id":
            issue["assignee_id"] = find_user(ws, value)["id"] if value else None
        elif key == "priority":
            if isinstance(value, bool) or not isinstance(value, int) or value not in PRIORITY_LABELS:
                raise SandboxError("priority must be 0 (none), 1 (urgent), 2 (high), 3 (medium) or 4 (low)")
            issue["priority"] = value
        elif key == "label_ids":
            issue["label_ids"] = [team_label(ws, team, label_id) for label_id in dict.fromkeys(value or [])]
        elif key == "added_label_ids":  # what it carries stays; one already there is not added twice
            added = [team_label(ws, team, label_id) for label_id in value]
            issue["label_ids"] = list(dict.fromkeys([*issue.get("label_ids", []), *added]))
        elif key == "removed_label_ids":  # a label it does not carry is no error (Linear: nothing to remove)
            gone = {find_label(ws, label_id)["id"] for label_id in value}
            issue["label_ids"] = [x for x in issue.get("label_ids", []) if x not in gone]
        elif key == "project_id":
            issue["project_id"] = find_project(ws, value)["id"] if value else None
        elif key == "due_date":
            issue["due_date"] = check_due_date(value, "dueDate") if value else None
        elif key == "parent_id":
            issue["parent_id"] = find_issue(ws, value)["id"] if value else None
        elif key == "estimate":
            issue["estimate"] = value
        elif key == "cycle_id":
            if value:
                raise SandboxError(f"Cycle not found: '{value}'")
        elif key != "team_id":
            raise SandboxError(f"Unknown issue field '{key}'")
    if issue.get("project_id") and team["id"] not in find_project(ws, issue["project_id"])["team_ids"]:
        raise SandboxError(
            f"Project '{find_project(ws, issue['project_id'])['name']}' is not in team {team['key']}"
        )
    issue["updated_at"] = now_iso()


def team_label(ws: Workspace, team: Node, label_id: str) -> str:
    """A label the team may use: a workspace label or one of the team's own."""
    label = find_label(ws, label_id)
    if label.get("team_id") not in (None, team["id"]):
        raise SandboxError(
            f"Label '{label['name']}' belongs to another team and cannot be used in {team['key']}"
        )
    return str(label["id"])


def _move_to_team(ws: Workspace, issue: Node, team: Node) -> None:
    old_state = team_state(find_team(ws, issue["team_id"]), issue["state_id"])
    state = first_match(team["states"], "name", old_state["name"]) or first_match(
        team["states"], "type", old_state["type"]
    )
    number = 1 + max(
        (issue_number(i) for i in ws["linear"]["issues"] if i["team_id"] == team["id"]), default=0
    )
    issue.update(
        team_id=team["id"],
        identifier=f"{team['key']}-{number}",
        state_id=(state or default_state(team))["id"],
    )
