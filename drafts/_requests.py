"""The request an action sends: `$ref:` placeholders filled from earlier results, the marker applied,
the payload hashed for the ledger, and the schema check a dry run reports."""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from drafts._calls import INTERNAL_ERROR
from drafts.models import Draft, DraftAction
from toolkits.base import ToolAction
from toolkits.errors import InvalidArguments, ToolkitError
from toolkits.reconcile import with_marker
from toolkits.scopes import supersede

__all__ = [
    "Unresolvable",
    "load_checker",
    "payload_sha",
    "problems",
    "refs",
    "request_for",
    "resolved_request",
    "substitute",
    "unsettled",
]

logger = logging.getLogger(__name__)

_REF = re.compile(r"^\$ref:(\d+)(?:\.(.+))?$")


class Unresolvable(Exception):
    """A `$ref:` placeholder names a result that does not hold the value."""


# DraftAction's own fields: what remains is the ToolAction as planned.
_OWN_FIELDS = {"index", "status", "result", "error", "link"}


def request_for(action: DraftAction, arguments: dict[str, Any]) -> ToolAction:
    # The marker derives from the scope, so every attempt (and a recovery) sends the same one.
    return with_marker(ToolAction(**{**action.model_dump(exclude=_OWN_FIELDS), "args": arguments}))


def resolved_request(draft: Draft, action: DraftAction) -> ToolAction | None:
    """The request `action` sends (placeholders filled from the draft's stored results, marker
    applied), or None when a placeholder cannot be resolved from them."""
    deps = refs(action.args) | ({action.depends_on} if action.depends_on is not None else set())
    if any(not 0 <= dep < len(draft.actions) for dep in deps):
        return None
    try:
        arguments = substitute(action.args, {dep: draft.actions[dep].result for dep in deps})
    except Unresolvable:
        return None
    return request_for(action, arguments)


def unsettled(draft: Draft) -> tuple[list[ToolAction], list[DraftAction]]:
    """The draft's actions whose outcome stayed unknown, ready to be sent again at the person's word:
    each under a new scope that supersedes its own (`toolkits.scopes.supersede`), with the results of
    the actions it used filled in. The second list holds those whose inputs are no longer there."""
    ready: list[ToolAction] = []
    lost: list[DraftAction] = []
    for action in draft.actions:
        if action.status != "unknown" or action.read_only:
            continue
        deps = refs(action.args) | ({action.depends_on} if action.depends_on is not None else set())
        try:
            if any(not 0 <= dep < len(draft.actions) for dep in deps):
                raise Unresolvable("a dependency is out of range")
            arguments = substitute(action.args, {dep: draft.actions[dep].result for dep in deps})
        except Unresolvable:
            lost.append(action)
            continue
        fields = action.model_dump(exclude=_OWN_FIELDS)
        ready.append(supersede(ToolAction(**{**fields, "args": arguments, "depends_on": None})))
    return ready, lost


def payload_sha(tool_slug: str, arguments: Mapping[str, Any]) -> str:
    """SHA-256 of the request as it is sent (canonical JSON), stored with the ledger claim."""
    body = json.dumps({"slug": tool_slug, "args": arguments}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def refs(value: Any) -> set[int]:
    """Indices of the actions named by `$ref:` placeholders anywhere in `value`."""
    if isinstance(value, str):
        match = _REF.match(value)
        return {int(match.group(1))} if match else set()
    if isinstance(value, Mapping):
        return set().union(*(refs(item) for item in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(refs(item) for item in value))
    return set()


def _resolve(data: Any, path: str | None, placeholder: str) -> Any:
    current = data
    for part in path.split(".") if path else ():
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdecimal() and int(part) < len(current):
            current = current[int(part)]
        else:
            raise Unresolvable(f"could not resolve {placeholder} from the earlier result")
    return current


def substitute(value: Any, results: Mapping[int, Any]) -> Any:
    if isinstance(value, str):
        match = _REF.match(value)
        if match is None:
            return value
        return copy.deepcopy(_resolve(results[int(match.group(1))], match.group(2), value))
    if isinstance(value, Mapping):
        return {key: substitute(item, results) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [substitute(item, results) for item in value]
    return value


def load_checker() -> Callable[[str, Mapping[str, Any]], None] | None:
    # Imported lazily: toolkits.schemas loads a large JSON snapshot and may not exist yet.
    try:
        module = importlib.import_module("toolkits.schemas")
    except ModuleNotFoundError as exc:
        if exc.name in ("toolkits.schemas", "toolkits"):
            return None
        raise
    checker = getattr(module, "check_arguments", None)
    return cast("Callable[[str, Mapping[str, Any]], None]", checker) if callable(checker) else None


def problems(checker: Callable[[str, Mapping[str, Any]], None] | None, action: ToolAction) -> list[str]:
    if checker is None:
        return []
    try:
        checker(action.tool_slug, action.args)
    except InvalidArguments as exc:
        return list(exc.problems)
    except ToolkitError as exc:
        return [str(exc)]
    except Exception:
        logger.exception("argument check failed for %s", action.tool_slug)
        return [INTERNAL_ERROR]
    return []
