"""What a tool answered, read one way: the shapes Composio's toolkits answer in, normalised once.

Sources disagree on some result shapes, and nothing could be run against the live services, so each
known variant is accepted here and every other module reads only the normalised form:

    LINEAR_RUN_QUERY_OR_MUTATION  Linear's GraphQL body `{"data": {...}, "errors": [...]}` under
                                  Composio's `data`, or the fields unwrapped (`data.<field>`). A
                                  non-empty `errors` array is a failure even inside `successful: true`
                                  (Linear answers most GraphQL errors with HTTP 200), and so is a
                                  mutation payload with `success: false`. Normalised: `data.<field>`.
    LINEAR_GET_LINEAR_ISSUE       `{"issue": {...}}` or the issue itself; comments as a GraphQL
                                  connection (`comments.nodes`). Normalised: the issue node.
    LINEAR_CREATE_LINEAR_PROJECT  the project node, `{"project": ...}` or `{"projectCreate":
                                  {"project": ...}}`. Normalised: the project node (its `id` on top).
    LINEAR_GET_CURRENT_USER       `{"viewer": {...}}` (Composio's doc: "nested under data.viewer").
    GOOGLECALENDAR_*              the Google resource under `response_data` (Composio's wrapper) or
                                  bare. Normalised: bare (`htmlLink`, `items` on top).
    ATTIO record writes           Attio's body `{"data": record}` or the record itself. Normalised:
                                  `{"data": record}`, so a created id is `data.id.record_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkits.base import ToolResult

__all__ = ["graphql_errors", "normalise"]

_GRAPHQL = "LINEAR_RUN_QUERY_OR_MUTATION"
_ATTIO_RECORD_WRITES = frozenset(
    {"ATTIO_ASSERT_COMPANY", "ATTIO_ASSERT_PERSON", "ATTIO_CREATE_RECORD", "ATTIO_UPDATE_RECORD"}
)
_GRAPHQL_ENVELOPE = frozenset({"data", "errors", "extensions"})
_ERROR_CHARS = 300


def normalise(slug: str, result: ToolResult) -> ToolResult:
    """`result` in the one shape the project reads (see the module docstring); failures untouched."""
    if not result["successful"]:
        return result
    data = result["data"]
    if slug == _GRAPHQL:
        return _graphql(data)
    if slug.startswith("GOOGLECALENDAR_"):
        data = _unwrap(data, "response_data")
    elif slug == "LINEAR_GET_LINEAR_ISSUE":
        data = _unwrap(data, "issue")
    elif slug == "LINEAR_CREATE_LINEAR_PROJECT":
        data = _project(data)
    elif slug in _ATTIO_RECORD_WRITES and isinstance(data, Mapping) and _is_attio_record(data):
        data = {"data": dict(data)}
    return {"data": data, "error": None, "successful": True}


def graphql_errors(body: Any) -> list[str]:
    """The messages of a GraphQL `errors` array (Linear puts a readable one in `extensions`)."""
    errors = body.get("errors") if isinstance(body, Mapping) else None
    if not isinstance(errors, list):
        return []
    messages = []
    for error in errors:
        if isinstance(error, Mapping):
            extensions = error.get("extensions")
            extensions = extensions if isinstance(extensions, Mapping) else {}
            text = str(extensions.get("userPresentableMessage") or error.get("message") or "GraphQL error")
            code = extensions.get("code")
            # the code carries what the text may not say, e.g. RATELIMITED
            messages.append(f"{text} ({code})" if code and str(code) not in text else text)
        else:
            messages.append(str(error))
    return messages


def _graphql(data: Any) -> ToolResult:
    body = data
    if isinstance(data, Mapping) and set(data) <= _GRAPHQL_ENVELOPE and ("data" in data or "errors" in data):
        body = data  # Linear's own body under Composio's `data`
        fields = data.get("data")
    else:
        fields = data
    messages = graphql_errors(body)
    if messages:
        return _failure("Linear refused the request: " + "; ".join(messages))
    if not isinstance(fields, Mapping):
        return _failure("Linear answered without data")
    for name, payload in fields.items():
        # a mutation payload says whether it was applied: `{"success": false}` is a refusal
        if isinstance(payload, Mapping) and payload.get("success") is False:
            return _failure(f"Linear did not apply {name}")
    return {"data": dict(fields), "error": None, "successful": True}


def _failure(message: str) -> ToolResult:
    text = " ".join(message.split())
    if len(text) > _ERROR_CHARS:
        text = text[: _ERROR_CHARS - 1] + "…"
    return {"data": {}, "error": text, "successful": False}


def _unwrap(data: Any, key: str) -> Any:
    if isinstance(data, Mapping) and isinstance(data.get(key), Mapping | list) and len(data) == 1:
        return data[key]
    return data


def _project(data: Any) -> Any:
    if isinstance(data, Mapping) and isinstance(data.get("projectCreate"), Mapping):
        data = data["projectCreate"]
    if isinstance(data, Mapping) and "id" not in data and isinstance(data.get("project"), Mapping):
        return data["project"]
    return data


def _is_attio_record(data: Mapping[str, Any]) -> bool:
    record_id = data.get("id")
    return "data" not in data and isinstance(record_id, Mapping) and "record_id" in record_id
