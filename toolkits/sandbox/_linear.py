"""Linear tools of the sandbox: issues, comments, teams, projects, states, labels, users, GraphQL."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolkits.sandbox._common import (
    Args,
    Handler,
    SandboxError,
    Workspace,
    cursor_page,
    new_id,
    now_iso,
    text_matches_all_words,
)
from toolkits.sandbox._linear_model import (
    Node,
    apply_issue_changes,
    check_due_date,
    create_issue,
    find_issue,
    find_project,
    find_team,
    find_user,
    issue_node,
    issue_url,
    label_node,
    lookup_issue,
    project_node,
    team_ref,
    user_node,
)

# --- reading issues -------------------------------------------------------------------------------


def _issue_page(ws: Workspace, issues: list[Node], args: Args) -> dict[str, Any]:
    chunk, info = cursor_page(issues, first=args.get("first"), after=args.get("after"))
    return {"issues": [issue_node(ws, issue) for issue in chunk], "pageInfo": info}


def _visible(ws: Workspace, include_archived: bool) -> list[Node]:
    return [i for i in ws["linear"]["issues"] if include_archived or not i.get("archived_at")]


def search_issues(ws: Workspace, args: Args) -> dict[str, Any]:
    query = args["query"]
    found = [
        issue
        for issue in _visible(ws, args.get("include_archived", False))
        if text_matches_all_words(query, (issue["identifier"], issue["title"], issue.get("description")))
    ]
    return _issue_page(ws, found, {"first": args.get("first", 25), "after": args.get("after")})


def list_issues(ws: Workspace, args: Args) -> dict[str, Any]:
    found = _visible(ws, False)
    if args.get("project_id"):
        project_id = find_project(ws, args["project_id"])["id"]
        found = [issue for issue in found if issue.get("project_id") == project_id]
    if args.get("assignee_id"):
        assignee_id = find_user(ws, args["assignee_id"])["id"]
        found = [issue for issue in found if issue.get("assignee_id") == assignee_id]
    return _issue_page(ws, found, args)


def list_team_issues(ws: Workspace, args: Args) -> dict[str, Any]:
    team_id = find_team(ws, args["team_id"])["id"]
    found = [i for i in _visible(ws, args.get("include_archived", False)) if i["team_id"] == team_id]
    return _issue_page(ws, found, args)


def get_issue(ws: Workspace, args: Args) -> dict[str, Any]:
    """`{"issue": node}`, comments as a GraphQL connection (Composio's doc: `issue.comments.nodes`)."""
    issue = find_issue(ws, args["issue_id"])
    node = issue_node(ws, issue)
    node["comments"] = {
        "nodes": [
            _comment_node(ws, comment, issue)
            for comment in ws["linear"]["comments"]
            if comment["issue_id"] == issue["id"]
        ]
    }
    return {"issue": node}


# --- writing issues -------------------------------------------------------------------------------


def create_issue_tool(ws: Workspace, args: Args) -> dict[str, Any]:
    return create_issue(ws, dict(args))


_UPDATE_FIELDS = {
    "title": "title",
    "description": "description",
    "stateId": "state_id",
    "assigneeId": "assignee_id",
    "priority": "priority",
    "labelIds": "label_ids",
    "projectId": "project_id",
    "dueDate": "due_date",
    "teamId": "team_id",
    "parentId": "parent_id",
    "estimate": "estimate",
    "cycleId": "cycle_id",
}

# issueUpdate's input also takes label changes relative to what the issue carries (Linear's IssueUpdateInput)
_GRAPHQL_UPDATE_FIELDS = {
    **_UPDATE_FIELDS,
    "addedLabelIds": "added_label_ids",
    "removedLabelIds": "removed_label_ids",
}


def update_issue(ws: Workspace, args: Args) -> dict[str, Any]:
    issue = find_issue(ws, args["issueId"])
    changes = {_UPDATE_FIELDS[key]: value for key, value in args.items() if key in _UPDATE_FIELDS}
    if not changes:
        raise SandboxError("Give at least one field to change besides issueId")
    apply_issue_changes(ws, issue, changes)
    return issue_node(ws, issue)


def _comment_node(ws: Workspace, comment: Node, issue: Node) -> dict[str, Any]:
    user = find_user(ws, comment["user_id"])
    return {
        "id": comment["id"],
        "body": comment["body"],
        "url": f"{issue_url(issue)}#comment-{comment['id'][:8]}",
        "createdAt": comment["created_at"],
        "issue": {"id": issue["id"], "identifier": issue["identifier"]},
        "user": {"id": user["id"], "name": user["name"], "email": user["email"]},
    }


def create_comment(ws: Workspace, args: Args) -> dict[str, Any]:
    issue = find_issue(ws, args["issueId"])
    comment = {
        "id": new_id(),
        "issue_id": issue["id"],
        "body": args["body"],
        "user_id": _me(ws)["id"],
        "created_at": now_iso(),
    }
    ws["linear"]["comments"].append(comment)
    return _comment_node(ws, comment, issue)


def archive_issue(ws: Workspace, args: Args) -> dict[str, Any]:
    issue = find_issue(ws, args["issue_id"])
    if not issue.get("archived_at"):
        issue["archived_at"] = now_iso()
    return {
        "success": True,
        "issue": {"id": issue["id"], "identifier": issue["identifier"], "archivedAt": issue["archived_at"]},
    }


# --- workspace configuration ----------------------------------------------------------------------


def _me(ws: Workspace) -> Node:
    return next(user for user in ws["linear"]["users"] if user.get("is_me"))


def list_teams(ws: Workspace, args: Args) -> dict[str, Any]:
    teams = ws["linear"]["teams"]
    if args.get("project_id"):
        team_ids = find_project(ws, args["project_id"])["team_ids"]
        teams = [team for team in teams if team["id"] in team_ids]
    chunk, info = cursor_page(teams, first=args.get("first"), after=args.get("after"))
    members = [{"id": u["id"], "name": u["name"]} for u in ws["linear"]["users"]]
    return {
        "teams": [
            {
                **team_ref(team),
                "members": [dict(member) for member in members],
                "projects": [
                    {"id": p["id"], "name": p["name"]}
                    for p in ws["linear"]["projects"]
                    if team["id"] in p["team_ids"]
                ],
            }
            for team in chunk
        ],
        "pageInfo": info,
    }


def list_projects(ws: Workspace, args: Args) -> dict[str, Any]:
    chunk, info = cursor_page(ws["linear"]["projects"], first=args.get("first"), after=args.get("after"))
    return {"projects": [project_node(ws, project) for project in chunk], "pageInfo": info}


def create_project(ws: Workspace, args: Args) -> dict[str, Any]:
    name = args["name"].strip()
    if not name:
        raise SandboxError("Project name must not be empty")
    team_ids = [find_team(ws, ref)["id"] for ref in dict.fromkeys(args["team_ids"])]
    for field in ("start_date", "target_date"):
        if args.get(field):
            check_due_date(args[field], field)
    project = {
        "id": new_id(),
        "name": name,
        "team_ids": team_ids,
        "description": args.get("description", ""),
        "lead_id": find_user(ws, args["lead_id"])["id"] if args.get("lead_id") else None,
        "priority": args.get("priority", 0),
        "start_date": args.get("start_date"),
        "target_date": args.get("target_date"),
        "icon": args.get("icon"),
        "color": args.get("color"),
        "state": "planned",
        "created_at": now_iso(),
    }
    ws["linear"]["projects"].append(project)
    return project_node(ws, project)


def list_states(ws: Workspace, args: Args) -> dict[str, Any]:
    team = find_team(ws, args["team_id"])
    chunk, info = cursor_page(team["states"], first=args.get("first"), after=args.get("after"))
    ref = {"id": team["id"], "key": team["key"]}
    return {
        "states": [{"id": s["id"], "name": s["name"], "type": s["type"], "team": dict(ref)} for s in chunk],
        "pageInfo": info,
    }


def list_labels(ws: Workspace, args: Args) -> dict[str, Any]:
    """With `team_id`: the workspace's labels and that team's own; without: every label, including
    other teams' ones, which a team-scoped issueCreate refuses."""
    labels = ws["linear"]["labels"]
    if args.get("team_id"):
        team_id = find_team(ws, args["team_id"])["id"]
        labels = [label for label in labels if label.get("team_id") in (None, team_id)]
    chunk, info = cursor_page(labels, first=args.get("first"), after=args.get("after"))
    return {"labels": [label_node(ws, label) for label in chunk], "pageInfo": info}


def list_users(ws: Workspace, args: Args) -> dict[str, Any]:
    chunk, info = cursor_page(ws["linear"]["users"], first=args.get("first"), after=args.get("after"))
    return {"users": [user_node(user) for user in chunk], "pageInfo": info}


def current_user(ws: Workspace, args: Args) -> dict[str, Any]:
    return {"viewer": user_node(_me(ws))}


# --- GraphQL: only the two operations the planner sends -------------------------------------------
# Answered as Linear's own body, `{"data": {...}}`, or `{"data": null, "errors": [...]}` when Linear
# refuses the document: Linear says so with HTTP 200, so Composio's envelope still reads successful.

_ISSUE_CREATE_INPUT = {
    "id": "id",
    "teamId": "team_id",
    "title": "title",
    "description": "description",
    "stateId": "state_id",
    "assigneeId": "assignee_id",
    "priority": "priority",
    "labelIds": "label_ids",
    "projectId": "project_id",
    "dueDate": "due_date",
    "parentId": "parent_id",
    "estimate": "estimate",
    "cycleId": "cycle_id",
}
_ISSUE_QUERY = re.compile(r"\bissue\s*\(")


def is_mutation(args: Args) -> bool:
    text = str(args.get("query_or_mutation", ""))
    return "issueCreate" in text or "issueUpdate" in text


def run_query_or_mutation(ws: Workspace, args: Args) -> dict[str, Any]:
    try:
        return {"data": _run_graphql(ws, args)}
    except SandboxError as error:
        return _graphql_error(str(error))


def _run_graphql(ws: Workspace, args: Args) -> dict[str, Any]:
    text = args["query_or_mutation"]
    variables = args.get("variables") or {}
    if "issueCreate" in text:
        return {"issueCreate": {"success": True, "issue": _graphql_issue_create(ws, variables)}}
    if "issueUpdate" in text:
        return {"issueUpdate": {"success": True, "issue": _graphql_issue_update(ws, variables)}}
    if _ISSUE_QUERY.search(text):
        issue_id = variables.get("id")
        if not isinstance(issue_id, str) or not issue_id:
            raise SandboxError('Variable "$id" of required type "String!" was not provided.')
        issue = lookup_issue(ws, issue_id)
        if issue is None:
            raise SandboxError("Entity not found: Issue")  # Linear's answer to an unknown id
        return {"issue": issue_node(ws, issue)}
    raise SandboxError("unsupported query in the sandbox: only issueCreate and issue(id:) are available")


def _graphql_issue_update(ws: Workspace, variables: dict[str, Any]) -> dict[str, Any]:
    """Linear's issueUpdate(id, input): IssueUpdateInput fields in camelCase; a null clears the field."""
    issue_id, payload = variables.get("id"), variables.get("input")
    if not isinstance(issue_id, str) or not issue_id:
        raise SandboxError('Variable "$id" of required type "String!" was not provided.')
    if not isinstance(payload, dict) or not payload:
        raise SandboxError("issueUpdate needs its IssueUpdateInput in variables.input")
    unknown = [key for key in payload if key not in _GRAPHQL_UPDATE_FIELDS]
    if unknown:
        raise SandboxError(f'Field "{unknown[0]}" is not defined by type "IssueUpdateInput"')
    issue = lookup_issue(ws, issue_id)
    if issue is None:
        raise SandboxError("Entity not found: Issue")
    for key in ("addedLabelIds", "removedLabelIds"):
        listed = payload.get(key)
        if key in payload and (not isinstance(listed, list) or not all(isinstance(x, str) for x in listed)):
            raise SandboxError(f'Field "{key}" must be a list of strings')
    apply_issue_changes(ws, issue, {_GRAPHQL_UPDATE_FIELDS[key]: value for key, value in payload.items()})
    return issue_node(ws, issue)


def _graphql_error(message: str) -> dict[str, Any]:
    """Linear's error body: a message, and a readable one under `extensions`."""
    return {
        "data": None,
        "errors": [
            {
                "message": message,
                "extensions": {
                    "type": "invalid input",
                    "code": "INPUT_ERROR",
                    "statusCode": 400,
                    "userPresentableMessage": message,
                },
            }
        ],
    }


def _graphql_issue_create(ws: Workspace, variables: Mapping[str, Any]) -> Node:
    data = variables.get("input")
    if not isinstance(data, Mapping):
        raise SandboxError("issueCreate needs its IssueCreateInput in variables.input")
    unknown = sorted(set(data) - set(_ISSUE_CREATE_INPUT))
    if unknown:
        raise SandboxError(f'Field "{unknown[0]}" is not defined by type "IssueCreateInput"')
    if not isinstance(data.get("teamId"), str):
        raise SandboxError('Field "teamId" of required type "String!" was not provided')
    for key in (
        "title",
        "description",
        "stateId",
        "assigneeId",
        "projectId",
        "dueDate",
        "parentId",
        "cycleId",
    ):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise SandboxError(f'Field "{key}" must be a string')
    labels = data.get("labelIds")
    if labels is not None and (not isinstance(labels, list) or not all(isinstance(x, str) for x in labels)):
        raise SandboxError('Field "labelIds" must be a list of strings')
    estimate = data.get("estimate")
    if estimate is not None and (isinstance(estimate, bool) or not isinstance(estimate, int)):
        raise SandboxError('Field "estimate" must be an integer')
    fields = {_ISSUE_CREATE_INPUT[key]: value for key, value in data.items() if value is not None}
    return create_issue(ws, fields)


READS: dict[str, Handler] = {
    "LINEAR_SEARCH_ISSUES": search_issues,
    "LINEAR_GET_LINEAR_ISSUE": get_issue,
    "LINEAR_LIST_ISSUES_BY_TEAM_ID": list_team_issues,
    "LINEAR_LIST_LINEAR_ISSUES": list_issues,
    "LINEAR_LIST_LINEAR_TEAMS": list_teams,
    "LINEAR_LIST_LINEAR_PROJECTS": list_projects,
    "LINEAR_LIST_LINEAR_STATES": list_states,
    "LINEAR_LIST_LINEAR_LABELS": list_labels,
    "LINEAR_LIST_LINEAR_USERS": list_users,
    "LINEAR_GET_CURRENT_USER": current_user,
}

WRITES: dict[str, Handler] = {
    "LINEAR_CREATE_LINEAR_ISSUE": create_issue_tool,
    "LINEAR_UPDATE_ISSUE": update_issue,
    "LINEAR_CREATE_LINEAR_COMMENT": create_comment,
    "LINEAR_DELETE_LINEAR_ISSUE": archive_issue,
    "LINEAR_CREATE_LINEAR_PROJECT": create_project,
}

# Reads or writes depending on the arguments (see `is_mutation`).
GRAPHQL_SLUG = "LINEAR_RUN_QUERY_OR_MUTATION"
