"""Settling a write whose outcome is unknown (a timeout, or a crash after the request left).

DESIGN §7: never blindly retry a create. Each write slug has one lever (`lever`):

    client_id  Linear issueCreate with `input.id` derived from the scope: read the issue back by id;
               a retry is safe too, since Linear refuses a used id ("already exists").
    rerun      asserts (upsert by domain/email), updates, archive: running them again is harmless.
    lookup     notes, tasks, comments, events, record deletes: look for the object, by a marker
               derived from the scope (`with_marker` puts it into the request) or by its id; a deal
               (a record with no free-text field to carry a marker) by its exact name and company,
               created since the request left.
    none       projects, anything else: nothing can tell, so the person must check.

`reconcile` reads through the backend and answers "done" (with the data the write would have
returned), "absent" (not applied: one more attempt is safe), "rerun_safe" (the write is idempotent:
one more attempt is safe whatever happened) or "unknown". It never writes.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from toolkits.base import Backend, ToolAction
from toolkits.errors import ToolkitError

__all__ = [
    "ISSUE_READ_QUERY",
    "MARKER_PROPERTY",
    "Lever",
    "Reconciled",
    "ReconciledState",
    "client_issue_id",
    "lever",
    "marker",
    "reconcile",
    "refused_as_duplicate",
    "retry_safe",
    "with_marker",
]

Lever = Literal["client_id", "rerun", "lookup", "none"]
ReconciledState = Literal["done", "absent", "rerun_safe", "unknown"]

ISSUE_READ_QUERY = "query Issue($id: String!) { issue(id: $id) { id identifier title url } }"
# A private extended property is invisible in Calendar's UI, so the event carries its marker there.
MARKER_PROPERTY = "planner_ref"

_GRAPHQL = "LINEAR_RUN_QUERY_OR_MUTATION"
_RERUN = frozenset(
    {
        "ATTIO_ASSERT_COMPANY",
        "ATTIO_ASSERT_PERSON",
        "ATTIO_UPDATE_RECORD",
        "ATTIO_UPDATE_TASK",
        "LINEAR_UPDATE_ISSUE",
        "LINEAR_DELETE_LINEAR_ISSUE",  # archives; archiving twice keeps the first archivedAt
    }
)
# Fields that carry the marker as a trailing line; every one is free text the person wrote.
_TEXT_FIELD = {
    "ATTIO_CREATE_NOTE": "content",
    "ATTIO_CREATE_TASK": "content",
    "LINEAR_CREATE_LINEAR_COMMENT": "body",
}
_LOOKUP = frozenset(
    {*_TEXT_FIELD, "GOOGLECALENDAR_CREATE_EVENT", "ATTIO_DELETE_RECORD", "ATTIO_CREATE_RECORD"}
)
# A remote's clock and ours may disagree a little: a record created this long before the request
# left still counts as the request's own.
CLOCK_SKEW = timedelta(minutes=2)
_NOT_FOUND = re.compile(r"not found|does not exist|could not find|no such", re.IGNORECASE)
# What a provider says when a client-chosen id is taken. [guess for Linear: the sandbox says
# "Issue with id '…' already exists"; Linear's text for a duplicate primary key is not documented.]
_DUPLICATE = re.compile(r"already exists|duplicate|unique constraint", re.IGNORECASE)


@dataclass(frozen=True)
class Reconciled:
    """What reconciliation found: `data` is the write's result when `state` is "done"."""

    state: ReconciledState
    data: Any = None
    reason: str | None = None


def marker(scope: str) -> str:
    """A 10-character marker derived from the idempotency scope (every retry carries the same one)."""
    raw = base64.b32encode(hashlib.sha256(scope.encode("utf-8")).digest()).decode("ascii")
    return raw[:10].lower()


def _marker_line(scope: str) -> str:
    return f"ref: {marker(scope)}"


def client_issue_id(action: ToolAction) -> str | None:
    """The client-chosen id of a Linear issueCreate, or None for any other call."""
    if action.tool_slug != _GRAPHQL or "issueCreate" not in str(action.args.get("query_or_mutation", "")):
        return None
    variables = action.args.get("variables")
    payload = variables.get("input") if isinstance(variables, Mapping) else None
    issue_id = payload.get("id") if isinstance(payload, Mapping) else None
    return issue_id if isinstance(issue_id, str) and issue_id else None


def lever(action: ToolAction) -> Lever:
    """How an unknown outcome of this write can be settled (see the module docstring)."""
    if client_issue_id(action) is not None:
        return "client_id"
    if action.tool_slug == _GRAPHQL and "issueUpdate" in str(action.args.get("query_or_mutation", "")):
        return "rerun"  # an update that clears a field: sending it again sets the same nulls
    if action.tool_slug in _RERUN:
        return "rerun"
    if action.tool_slug in _LOOKUP:
        return "lookup"
    return "none"


def retry_safe(action: ToolAction) -> bool:
    """Whether sending this write again cannot create a second object (so transient errors may be
    retried without looking first)."""
    return lever(action) in ("client_id", "rerun")


def refused_as_duplicate(action: ToolAction, error: str | None) -> bool:
    """A client-id create refused because the id is taken: proof that an earlier attempt landed."""
    return client_issue_id(action) is not None and bool(error) and bool(_DUPLICATE.search(error or ""))


def with_marker(action: ToolAction) -> ToolAction:
    """The action as it is sent: with the scope's marker where a lookup will search for it.

    A note, task or comment gets a trailing line `ref: <marker>`; an event gets a private extended
    property. Placeholders (`$ref:…`) and text that already carries the marker are left alone, so
    applying it twice, or to a dry run, changes nothing more.
    """
    field = _TEXT_FIELD.get(action.tool_slug)
    args = dict(action.args)
    if field is not None:
        text = args.get(field)
        line = _marker_line(action.idempotency_scope)
        if not isinstance(text, str) or text.startswith("$ref:") or line in text:
            return action
        args[field] = f"{text.rstrip()}\n\n{line}" if text.strip() else line
    elif action.tool_slug == "GOOGLECALENDAR_CREATE_EVENT":
        props = args.get("extended_properties")
        props = dict(props) if isinstance(props, Mapping) else {}
        private = props.get("private")
        private = dict(private) if isinstance(private, Mapping) else {}
        private[MARKER_PROPERTY] = marker(action.idempotency_scope)
        props["private"] = private
        args["extended_properties"] = props
    else:
        return action
    return action.model_copy(update={"args": args})


async def reconcile(backend: Backend, action: ToolAction, *, since: datetime | None = None) -> Reconciled:
    """Find out whether `action` (as sent: resolved arguments, marker applied) took effect; `since`
    is when it was first sent (a deal found by its name must have been created after that).

    Returns:
        "done" with the result the write would have returned, "absent", "rerun_safe" or "unknown"
        (with a `reason` for the log).

    Raises:
        Nothing from the backend: a failed lookup is "unknown".
    """
    kind = lever(action)
    if kind == "rerun":
        return Reconciled("rerun_safe")
    if kind == "none":
        return Reconciled("unknown", reason=f"{action.tool_slug} has no way to look the change up")
    try:
        if action.tool_slug == "ATTIO_CREATE_RECORD":
            return await _record_by_name(backend, action, since)
        finder = _issue_by_id if kind == "client_id" else _FINDERS[action.tool_slug]
        return await finder(backend, action)
    except ToolkitError as exc:
        return Reconciled("unknown", reason=f"the lookup failed: {exc}")
    except (KeyError, TypeError, ValueError) as exc:
        # An answer of an unexpected shape settles nothing.
        return Reconciled("unknown", reason=f"the lookup answered in an unexpected shape ({exc!r})")


async def _read(backend: Backend, slug: str, args: dict[str, Any]) -> tuple[bool, Any, str]:
    raw = await backend.execute(slug, args)
    return bool(raw["successful"]), raw.get("data"), str(raw.get("error") or "")


async def _issue_by_id(backend: Backend, action: ToolAction) -> Reconciled:
    issue_id = client_issue_id(action)
    ok, data, error = await _read(
        backend, _GRAPHQL, {"query_or_mutation": ISSUE_READ_QUERY, "variables": {"id": issue_id}}
    )
    if not ok:
        # Linear answers a missing id with an "Entity not found" error rather than a null.
        return Reconciled("absent") if _NOT_FOUND.search(error) else Reconciled("unknown", reason=error)
    issue = data.get("issue") if isinstance(data, Mapping) else None
    if issue is None:
        return Reconciled("absent")
    return Reconciled("done", {"issueCreate": {"success": True, "issue": issue}})


def _carries(text: Any, line: str) -> bool:
    return isinstance(text, str) and line in text


async def _note(backend: Backend, action: ToolAction) -> Reconciled:
    args = action.args
    line = _marker_line(action.idempotency_scope)
    query = {
        "parent_object": args["parent_object"],
        "parent_record_id": args["parent_record_id"],
        "limit": 50,
    }
    offset = 0
    while True:
        ok, data, error = await _read(backend, "ATTIO_LIST_NOTES", {**query, "offset": offset})
        if not ok:
            return Reconciled("unknown", reason=error)
        notes = data["data"]
        for note in notes:
            if _carries(note.get("content_plaintext"), line) or _carries(note.get("content_markdown"), line):
                return Reconciled("done", {"data": note})
        if len(notes) < query["limit"]:
            return Reconciled("absent")
        offset += len(notes)


async def _task(backend: Backend, action: ToolAction) -> Reconciled:
    line = _marker_line(action.idempotency_scope)
    query: dict[str, Any] = {"sort": "created_at:desc", "limit": 500}
    links = action.args.get("linked_records") or []
    if links:
        query |= {
            "linked_object": links[0]["target_object"],
            "linked_record_id": links[0]["target_record_id"],
        }
    ok, data, error = await _read(backend, "ATTIO_GET_V2_TASKS", query)
    if not ok:
        return Reconciled("unknown", reason=error)
    tasks = data["data"]
    for task in tasks:
        if _carries(task.get("content_plaintext"), line):
            return Reconciled("done", {"data": task})
    if len(tasks) >= query["limit"]:
        return Reconciled("unknown", reason="too many tasks to be sure the marker is not among them")
    return Reconciled("absent")


async def _comment(backend: Backend, action: ToolAction) -> Reconciled:
    line = _marker_line(action.idempotency_scope)
    ok, data, error = await _read(backend, "LINEAR_GET_LINEAR_ISSUE", {"issue_id": action.args["issueId"]})
    if not ok:
        return Reconciled("unknown", reason=error)
    if isinstance(data.get("issue"), Mapping):  # `{"issue": {...}}` as well as the issue itself
        data = data["issue"]
    comments = data.get("comments")
    if isinstance(comments, Mapping):  # a GraphQL connection: {"nodes": [...]}
        comments = comments.get("nodes")
    if not isinstance(comments, list):
        return Reconciled("unknown", reason="the issue was read without its comments")
    for comment in comments:
        if _carries(comment.get("body"), line):
            return Reconciled("done", comment)
    return Reconciled("absent")


def _window(args: Mapping[str, Any]) -> tuple[str, str]:
    start = datetime.fromisoformat(str(args["start_datetime"]).strip())
    if start.tzinfo is None and args.get("timezone"):
        try:
            start = start.replace(tzinfo=ZoneInfo(str(args["timezone"])))
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {args['timezone']!r}") from exc
    minutes = (args.get("event_duration_hour") or 0) * 60 + (args.get("event_duration_minutes") or 0)
    # A minute either side: the remote rounds seconds away, and the window must contain the event.
    end = start + timedelta(minutes=max(minutes, 30) + 1)
    return (start - timedelta(minutes=1)).isoformat(), end.isoformat()


async def _event(backend: Backend, action: ToolAction) -> Reconciled:
    args = action.args
    wanted = marker(action.idempotency_scope)
    time_min, time_max = _window(args)
    query = {
        "calendarId": args.get("calendar_id") or "primary",
        "timeMin": time_min,
        "timeMax": time_max,
        "singleEvents": True,
        "privateExtendedProperty": f"{MARKER_PROPERTY}={wanted}",
        "maxResults": 2500,
    }
    ok, data, error = await _read(backend, "GOOGLECALENDAR_EVENTS_LIST", query)
    if not ok:
        return Reconciled("unknown", reason=error)
    for event in data["items"]:
        private = (event.get("extendedProperties") or {}).get("private") or {}
        if private.get(MARKER_PROPERTY) == wanted:  # checked here too, in case the filter is ignored
            return Reconciled("done", event)
    return Reconciled("absent")


async def _deleted_record(backend: Backend, action: ToolAction) -> Reconciled:
    args = action.args
    ok, _data, error = await _read(
        backend, "ATTIO_FIND_RECORD", {"object_id": args["object_type"], "record_id": args["record_id"]}
    )
    if ok:
        return Reconciled("absent")  # still there: the delete did not happen
    if _NOT_FOUND.search(error):
        return Reconciled("done", {})  # ATTIO_DELETE_RECORD answers an empty object
    return Reconciled("unknown", reason=error)


def _text_value(values: Mapping[str, Any], attribute: str) -> Any:
    items = values.get(attribute)
    first = items[0] if isinstance(items, list) and items else None
    return first.get("value") if isinstance(first, Mapping) else None


def _company_of(values: Mapping[str, Any]) -> Any:
    items = values.get("associated_company")
    first = items[0] if isinstance(items, list) and items else None
    return first.get("target_record_id") if isinstance(first, Mapping) else None


async def _record_by_name(backend: Backend, action: ToolAction, since: datetime | None) -> Reconciled:
    """A created record (a deal) by its exact name and company, created since the request left."""
    args = action.args
    values = args.get("values") or {}
    name, company = values.get("name"), values.get("associated_company")
    if not isinstance(name, str) or not name or since is None:
        return Reconciled("unknown", reason="the record has no name to look it up by, or no send time")
    query = {"object": args["object_type"], "filter": {"name": name}, "limit": 50}
    ok, data, error = await _read(backend, "ATTIO_QUERY_RECORDS", query)
    if not ok:
        return Reconciled("unknown", reason=error)
    records = data["data"]
    after = since - CLOCK_SKEW
    for record in records:
        created = datetime.fromisoformat(str(record["created_at"]).replace("Z", "+00:00"))
        same_company = not isinstance(company, str) or _company_of(record["values"]) == company
        if _text_value(record["values"], "name") == name and same_company and created >= after:
            return Reconciled("done", {"data": record})
    if len(records) >= query["limit"]:
        return Reconciled("unknown", reason="too many records of that name to be sure")
    return Reconciled("absent")


_FINDERS: dict[str, Callable[[Backend, ToolAction], Awaitable[Reconciled]]] = {
    "ATTIO_CREATE_NOTE": _note,
    "ATTIO_CREATE_TASK": _task,
    "LINEAR_CREATE_LINEAR_COMMENT": _comment,
    "GOOGLECALENDAR_CREATE_EVENT": _event,
    "ATTIO_DELETE_RECORD": _deleted_record,
}
