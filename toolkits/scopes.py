"""Idempotency scopes that belong to one draft (DESIGN §7).

A create whose business identity is known (a template task of a deal, a company by domain, a person
by email) is scoped by that identity, once and for all. Every other write — a field's new value,
complete, archive, delete, a comment, a note, a create without an identity — is scoped by its draft:
retries and replays of that draft do it once, while a later request is a new change (Won → Lost →
Won runs three times). The planner cannot know the draft's id, so such scopes end in the `DRAFT`
placeholder, and the store binds it when it creates the draft (`bind_draft`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkits._ops import DRAFT, scoped_uuid
from toolkits.base import ToolAction

__all__ = ["DRAFT", "bind_draft", "per_draft", "supersede"]

_GRAPHQL = "LINEAR_RUN_QUERY_OR_MUTATION"


def per_draft(scope: str) -> bool:
    """Whether `scope` is bound to a draft (so the ledger of earlier drafts says nothing about it)."""
    return scope.endswith(":" + DRAFT) or f":{DRAFT}:" in scope


def _bind(scope: str, draft_id: str) -> str:
    parts = scope.split(":")
    return ":".join(draft_id if p == DRAFT else p for p in parts)


def _with_client_id(action: ToolAction, scope: str) -> dict[str, Any]:
    """A Linear issueCreate's client-chosen id derives from its scope: re-derive it for the bound one."""
    args = dict(action.args)
    variables = args.get("variables")
    payload = variables.get("input") if isinstance(variables, Mapping) else None
    if action.tool_slug == _GRAPHQL and isinstance(payload, Mapping) and "id" in payload:
        args["variables"] = {**variables, "input": {**payload, "id": scoped_uuid(scope)}}  # type: ignore[dict-item]
    return args


def bind_draft(actions: Sequence[ToolAction], draft_id: str) -> list[ToolAction]:
    """The actions with `DRAFT` in their scopes replaced by `draft_id` (a deterministic scope per
    draft); every other action is returned unchanged."""
    if ":" in draft_id:
        raise ValueError("a draft id cannot contain ':'")
    bound: list[ToolAction] = []
    for action in actions:
        scope = action.idempotency_scope
        if action.read_only or not per_draft(scope):
            bound.append(action)
            continue
        new = _bind(scope, draft_id)
        bound.append(
            action.model_copy(update={"idempotency_scope": new, "args": _with_client_id(action, new)})
        )
    return bound


def supersede(action: ToolAction) -> ToolAction:
    """The same call under a new per-draft scope that supersedes `action`'s (a person's explicit
    "send it anyway" after an outcome nobody could settle): bind it with `bind_draft`."""
    scope = f"{action.idempotency_scope}:anyway:{DRAFT}"
    return action.model_copy(update={"idempotency_scope": scope, "supersedes": action.idempotency_scope})
