"""Strict reading of intents that come from a model (seed 002): parse once, then trust.

- not a list of objects, or more than MAX_INTENTS → `IntentsError` (the request is `invalid`);
- an unknown `op`, a wrong type or a value outside a field's allowed values → that intent is rejected
  (named, with the allowed values) and the valid rest goes on;
- unknown fields are stripped and reported; empty strings are null;
- a missing required field a person can supply (a title, a body) keeps the intent, marked, so the
  planner asks for it instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter, ValidationError

from planner.intents.models import INTENT_TYPES, Filters, Intent, IntentBase
from planner.limits import MAX_INTENTS

__all__ = ["MISSING", "IntentsError", "Parsed", "Rejected", "missing_fields", "parse_intents"]

MISSING = "\u2400"  # stands in for a required value the person has not given yet
_ADAPTER: TypeAdapter[Intent] = TypeAdapter(Intent)
# names other contracts use for the same things (seed 000/001 intents, common model guesses)
_OP_ALIASES = {
    "task_create": "create_issue", "timeblock_create": "create_event", "create_timeblock": "create_event",
    "create_meeting": "create_event", "meeting_create": "create_event", "search": "find", "query": "find",
    "list": "find", "close_issue": "complete_issue", "add_comment": "comment_issue", "add_note": "create_note",
}  # fmt: skip
# required fields a person can supply in words: asked for, not rejected
_ASKABLE = {"title", "body", "content", "name", "issue", "deal", "record", "task", "template"}


class IntentsError(ValueError):
    """`intents` is not a list of objects (or too long); the message names what to send instead."""


@dataclass
class Rejected:
    index: int
    op: str
    reason: str

    def describe(self) -> str:
        return f"#{self.index + 1} {self.op}: {self.reason}"


@dataclass
class Parsed:
    intents: list[IntentBase] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    stripped: list[str] = field(default_factory=list)


def missing_fields(intent: IntentBase) -> list[str]:
    """Required fields the producer left out, in the model's field order."""
    return [name for name in type(intent).model_fields if getattr(intent, name, None) == MISSING]


def _clean(value: Any) -> Any:
    """Empty strings are null (seed 000); containers are cleaned through."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list):
        return [c for c in (_clean(v) for v in value) if c is not None]
    if isinstance(value, dict):
        return {k: c for k, v in value.items() if (c := _clean(v)) is not None}
    return value


def _one(index: int, raw: Any, out: Parsed) -> None:
    if not isinstance(raw, dict):
        out.rejected.append(Rejected(index, "?", "each intent must be a JSON object"))
        return
    op = raw.get("op")
    op = _OP_ALIASES.get(op, op) if isinstance(op, str) else op
    model = INTENT_TYPES.get(op) if isinstance(op, str) else None
    if model is None:
        allowed = ", ".join(INTENT_TYPES)
        out.rejected.append(Rejected(index, str(op)[:40], f"unknown op (allowed: {allowed})"))
        return
    data = _clean({**raw, "op": op})
    known = set(model.model_fields)
    for key in [k for k in data if k not in known]:
        out.stripped.append(f"{op}.{str(key)[:40]}")
        del data[key]
    if isinstance(data.get("filters"), dict):
        for key in [k for k in data["filters"] if k not in Filters.model_fields]:
            out.stripped.append(f"{op}.filters.{str(key)[:40]}")
            del data["filters"][key]
    for name, info in model.model_fields.items():
        if info.is_required() and name in _ASKABLE and data.get(name) is None:
            data[name] = MISSING
    try:
        out.intents.append(_ADAPTER.validate_python(data))
    except ValidationError as exc:
        out.rejected.append(Rejected(index, str(op), _explain(exc)))


def _explain(exc: ValidationError) -> str:
    """The first problems, as "field: what is allowed (got …)" — enough for a model to fix in one retry."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err["loc"][1:] if not isinstance(x, int)) or "intent"
        given = err.get("input")
        got = f" (got {str(given)[:40]!r})" if isinstance(given, str | int | float) else ""
        parts.append(f"{loc}: {err['msg']}{got}")
    return "; ".join(parts)


def parse_intents(raw: Any) -> Parsed:
    """Raises:
    IntentsError: `raw` is not a list of intents (a single object or `{"intents": [...]}` is accepted).
    """
    if isinstance(raw, dict):
        raw = raw.get("intents", [raw]) if "op" not in raw else [raw]
    if not isinstance(raw, list):
        raise IntentsError('intents must be a list of objects like {"op": "create_issue", "title": "…"}')
    if not raw:
        raise IntentsError("intents is empty: send at least one intent, or send text instead")
    if len(raw) > MAX_INTENTS:
        raise IntentsError(f"too many intents ({len(raw)}; at most {MAX_INTENTS} in one request)")
    out = Parsed()
    for i, item in enumerate(raw):
        _one(i, item, out)
    return out
