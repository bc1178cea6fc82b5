"""Linear: operations, Composio slugs and argument building (Composio toolkit 20260512_00).

Issues are created through `LINEAR_RUN_QUERY_OR_MUTATION` with `issueCreate` and a client-chosen
`id` derived from the idempotency scope: `LINEAR_CREATE_LINEAR_ISSUE` takes no `id`, and a
client-chosen id is what lets a retry or a read-back settle an unknown outcome (DESIGN §7).
"""

from __future__ import annotations

from typing import Any

from toolkits._ops import Operation, action, digest, scoped_uuid
from toolkits.base import ToolAction

__all__ = ["ISSUE_CREATE_MUTATION", "ISSUE_UPDATE_MUTATION", "OPERATIONS", "TOOLKIT", "link_for", "ops"]

TOOLKIT = "linear"
VERSION = "20260512_00"
RATE_BUDGET_PER_MINUTE = 60

ISSUE_CREATE_MUTATION = (
    "mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) "
    "{ success issue { id identifier title url } } }"
)

# LINEAR_UPDATE_ISSUE takes values only: clearing one (an assignee, a due date) is Linear's issueUpdate with null
ISSUE_UPDATE_MUTATION = (
    "mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) "
    "{ success issue { id identifier title url } } }"
)

_R = [
    ("search_issues", "LINEAR_SEARCH_ISSUES"),
    ("get_issue", "LINEAR_GET_LINEAR_ISSUE"),
    ("list_issues", "LINEAR_LIST_LINEAR_ISSUES"),
    ("list_teams", "LINEAR_LIST_LINEAR_TEAMS"),
    ("list_projects", "LINEAR_LIST_LINEAR_PROJECTS"),
    ("list_states", "LINEAR_LIST_LINEAR_STATES"),
    ("list_labels", "LINEAR_LIST_LINEAR_LABELS"),
    ("list_users", "LINEAR_LIST_LINEAR_USERS"),
]
_W = [
    ("create_issue", "LINEAR_RUN_QUERY_OR_MUTATION", False),
    ("update_issue", "LINEAR_UPDATE_ISSUE", False),
    ("complete_issue", "LINEAR_UPDATE_ISSUE", False),
    ("comment_issue", "LINEAR_CREATE_LINEAR_COMMENT", False),
    ("archive_issue", "LINEAR_DELETE_LINEAR_ISSUE", True),
    ("create_project", "LINEAR_CREATE_LINEAR_PROJECT", False),
]
# Scoped by what they create: a template task of a deal, a sub-issue by its title, a project by its
# name, a new issue by its plan. Everything else changes a value and is scoped by its draft.
_IDENTIFIED = frozenset({"create_issue", "create_project"})
OPERATIONS: dict[str, Operation] = (
    {n: Operation(TOOLKIT, n, s, True) for n, s in _R}
    | {
        "list_team_issues": Operation(TOOLKIT, "list_issues", "LINEAR_LIST_ISSUES_BY_TEAM_ID", True),
    }
    | {n: Operation(TOOLKIT, n, s, False, d, per_draft=n not in _IDENTIFIED) for n, s, d in _W}
)

# the same operation, sent as GraphQL when a field is cleared (DESIGN §5's update_issue, one more slug)
_UPDATE_CLEARING = Operation(TOOLKIT, "update_issue", "LINEAR_RUN_QUERY_OR_MUTATION", False, per_draft=True)

# label changes relative to what the issue carries: IssueUpdateInput's, sent as issueUpdate
_RELATIVE_LABELS = frozenset({"addedLabelIds", "removedLabelIds"})

PRIORITY = {"urgent": 1, "high": 2, "medium": 3, "normal": 3, "low": 4, "none": 0}


class _Ops:
    def get_issue(self, ident: str) -> ToolAction:
        return action(OPERATIONS["get_issue"], {"issue_id": ident}, [ident], f"read {ident}")

    def search_issues(self, query: str) -> ToolAction:
        return action(
            OPERATIONS["search_issues"],
            {"query": query, "first": 25},
            [digest(query)],
            f"search issues: {query}",
        )

    def list_issues(
        self, what: str, *, assignee_id: str | None = None, project_id: str | None = None
    ) -> ToolAction:
        args: dict[str, Any] = {"first": 50}
        if assignee_id:
            args["assignee_id"] = assignee_id
        if project_id:
            args["project_id"] = project_id
        return action(OPERATIONS["list_issues"], args, [assignee_id or "-", project_id or "-"], what)

    def list_team_issues(self, team_id: str, what: str) -> ToolAction:
        return action(OPERATIONS["list_team_issues"], {"team_id": team_id, "first": 50}, [team_id], what)

    def list_teams(self, what: str) -> ToolAction:
        return action(OPERATIONS["list_teams"], {"first": 50}, ["all"], what)

    def list_projects(self, what: str) -> ToolAction:
        return action(OPERATIONS["list_projects"], {"first": 50}, ["all"], what)

    def list_states(self, team_id: str, what: str) -> ToolAction:
        return action(OPERATIONS["list_states"], {"team_id": team_id, "first": 50}, [team_id], what)

    def list_labels(self, what: str, team_id: str | None = None) -> ToolAction:
        """Labels a team's issues may carry (with `team_id`), or every label of the workspace."""
        args: dict[str, Any] = {"first": 50, **({"team_id": team_id} if team_id else {})}
        return action(OPERATIONS["list_labels"], args, [team_id or "all"], what)

    def list_users(self, what: str) -> ToolAction:
        return action(OPERATIONS["list_users"], {"first": 50}, ["all"], what)

    def create_issue(
        self, scope_keys: list[str], fields: dict[str, Any], preview: str, depends_on: int | None = None
    ) -> ToolAction:
        """`fields` are IssueCreateInput fields in camelCase (teamId, title, stateId, dueDate, ...)."""
        scope = ":".join([TOOLKIT, "create_issue", *scope_keys])
        payload = {"id": scoped_uuid(scope), **{k: v for k, v in fields.items() if v not in (None, [], "")}}
        args = {"query_or_mutation": ISSUE_CREATE_MUTATION, "variables": {"input": payload}}
        return action(OPERATIONS["create_issue"], args, scope_keys, preview, depends_on)

    def update_issue(
        self,
        issue_id: str,
        fields: dict[str, Any],
        preview: str,
        *,
        operation: str = "update_issue",
        depends_on: int | None = None,
    ) -> ToolAction:
        keys = [f"{k}={fields[k]}" for k in sorted(fields)]
        if operation == "update_issue" and (
            any(v is None for v in fields.values()) or _RELATIVE_LABELS.intersection(fields)
        ):
            # "unassign ENG-105", "remove its due date": a null, which only issueUpdate takes; "remove the bug
            # label": removedLabelIds, which only issueUpdate takes too (whatever else it carries stays)
            variables = {"id": issue_id, "input": dict(fields)}
            args = {"query_or_mutation": ISSUE_UPDATE_MUTATION, "variables": variables}
            return action(_UPDATE_CLEARING, args, [issue_id, *keys], preview, depends_on)
        args = {"issueId": issue_id, **fields}
        return action(OPERATIONS[operation], args, [issue_id, *keys], preview, depends_on)

    def comment_issue(self, issue_id: str, body: str, preview: str) -> ToolAction:
        return action(
            OPERATIONS["comment_issue"],
            {"issueId": issue_id, "body": body},
            [issue_id, digest(body)],
            preview,
        )

    def archive_issue(self, issue_id: str, preview: str) -> ToolAction:
        return action(OPERATIONS["archive_issue"], {"issue_id": issue_id}, [issue_id], preview)

    def create_project(
        self,
        name: str,
        team_ids: list[str],
        preview: str,
        target_date: str | None = None,
        description: str | None = None,
    ) -> ToolAction:
        args: dict[str, Any] = {"name": name, "team_ids": team_ids}
        if target_date:
            args["target_date"] = target_date
        if description:
            args["description"] = description
        return action(OPERATIONS["create_project"], args, [digest(name.strip().lower())], preview)


ops = _Ops()


def link_for(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    for key in ("issueCreate", "issueUpdate", "issue"):
        inner = data.get(key)
        if isinstance(inner, dict):
            found = link_for(inner.get("issue", inner))
            if found:
                return found
    url = data.get("url")
    return str(url) if url else None
