"""The intents' JSON Schema as `plan` publishes it: one compact object schema derived from the models.

A `oneOf` of nineteen models costs a client's model several thousand tokens at every turn; the
same facts fit in one object whose `op` says which fields apply. The server validates strictly
anyway (planner.intents.validate), so the schema's job is to teach, and it is generated from the
models so the two never drift.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from planner.intents.models import FIND_OBJECTS, INTENT_TYPES, PRIORITIES, Filters
from planner.limits import MAX_INTENTS

__all__ = ["intents_schema", "op_summary", "toolkit_of"]

_LINEAR = {"create_issue", "update_issue", "complete_issue", "archive_issue", "comment_issue", "create_project",
           "apply_template"}  # fmt: skip
_BY_OBJECT = {"issues": "linear", "projects": "linear", "teams": "linear", "states": "linear", "labels": "linear",
              "users": "linear", "events": "googlecalendar"}  # fmt: skip


def toolkit_of(intent: object) -> str | None:
    """The toolkit an intent is about (for a plan's domain when nothing was left to do)."""
    op = str(getattr(intent, "op", ""))
    if op in _LINEAR:
        return "linear"
    if op == "create_event":
        return "googlecalendar"
    if op in ("find", "update_matching"):
        return _BY_OBJECT.get(str(getattr(intent, "object", "")), "attio")
    return "attio" if op else None


# fields whose meaning is the same wherever they appear: described once
_SHARED = {
    "issue": "Linear issue: identifier (ENG-123), words of its title, or 'the second one' from the last list",
    "deal": "deal name or its company's name, as said",
    "record": "CRM record (deal, company or person) by name",
    "team": "Linear team key or name",
    "assignee": "person's name or 'me'",
    "owner": "workspace member's name or 'me'",
    "due": "ISO date or words ('friday', 'завтра')",
    "deadline": "ISO datetime or words",
    "start": "ISO 8601 or words ('завтра в 10')",
    "priority": "one of " + ", ".join(PRIORITIES),
    "stage": "deal stage name (any language)",
    "state": "workflow state name, or 'open' in filters",
    "amount": "a number (25000)",
    "currency": "ISO code (USD, EUR, RUB)",
    "object": "for find: " + ", ".join(FIND_OBJECTS),
    "values": "update_record: {attribute: new value} (job_title, description, domains, email_addresses, name, a person's company)",
    "filters": "find/update_matching: " + ", ".join(Filters.model_fields),
    "aggregate": "find: count, sum:amount, or count:assignee (issues per person)",
    "group_by": "find: totals per value of one field (deals: stage, owner, company, currency; issues: assignee, state, priority, team, label, project)",
    "changes": "update_matching: fields to set, or {complete|archive|delete: true}",
    "confidence": "0..1; below 0.75 the person is asked first",
    "span": "the person's words this came from",
}


def op_summary() -> str:
    """ "create_issue(title*, team, …); update_issue(issue*, …)" — the per-op field lists."""
    parts = []
    for op, model in INTENT_TYPES.items():
        names = [
            n + ("*" if info.is_required() else "")
            for n, info in model.model_fields.items()
            if n not in ("op", "confidence", "span")
        ]
        parts.append(f"{op}({', '.join(names)})")
    return "; ".join(parts)


def _type_of(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    prop = schema.get(name) or {}
    kinds = {v.get("type") for v in prop.get("anyOf", [prop]) if v.get("type") not in (None, "null")}
    out: dict[str, Any] = {}
    if len(kinds) == 1:
        out["type"] = kinds.pop()
    return out


@cache
def intents_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {"op": {"type": "string", "enum": list(INTENT_TYPES)}}
    for model in INTENT_TYPES.values():
        props = model.model_json_schema()["properties"]
        for name in props:
            if name in properties:
                continue
            entry = _type_of(name, props)
            if name in _SHARED:
                entry["description"] = _SHARED[name]
            properties[name] = entry
    return {
        "type": "array",
        "maxItems": MAX_INTENTS,
        "description": (
            "What the person wants, one object per thing, when you (the client's model) understood it. "
            "Send with `text` (their words). Name things as the person does; never look up or invent ids: "
            "the server resolves names and asks when unsure. Fields per op (* required): " + op_summary()
        ),
        "items": {"type": "object", "required": ["op"], "properties": properties},
    }
