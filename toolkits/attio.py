"""Attio CRM: operations, Composio slugs and argument building (Composio toolkit 20260909_00)."""

from __future__ import annotations

from typing import Any

from toolkits._ops import Operation, action, digest
from toolkits.base import ToolAction

__all__ = ["OPERATIONS", "TOOLKIT", "link_for", "ops", "references"]

TOOLKIT = "attio"
VERSION = "20260909_00"
RATE_BUDGET_PER_MINUTE = 100

_R = [
    ("search_records", "ATTIO_SEARCH_RECORDS"),
    ("get_record", "ATTIO_FIND_RECORD"),
    ("list_stages", "ATTIO_LIST_ATTRIBUTE_STATUSES"),
    ("list_members", "ATTIO_LIST_WORKSPACE_MEMBERS"),
    ("list_tasks", "ATTIO_GET_V2_TASKS"),
    ("list_notes", "ATTIO_LIST_NOTES"),
]
_W = [
    ("create_company", "ATTIO_ASSERT_COMPANY", False),
    ("create_person", "ATTIO_ASSERT_PERSON", False),
    ("create_deal", "ATTIO_CREATE_RECORD", False),
    ("update_deal", "ATTIO_UPDATE_RECORD", False),
    ("update_record", "ATTIO_UPDATE_RECORD", False),
    ("create_note", "ATTIO_CREATE_NOTE", False),
    ("create_task", "ATTIO_CREATE_TASK", False),
    ("complete_task", "ATTIO_UPDATE_TASK", False),
    ("delete_record", "ATTIO_DELETE_RECORD", True),
]
# Asserted by domain or email: the one write here whose identity is the business's own (DESIGN §7).
_IDENTIFIED = frozenset({"create_company", "create_person"})
OPERATIONS: dict[str, Operation] = (
    {n: Operation(TOOLKIT, n, s, True) for n, s in _R}
    | {
        # listing or filtering records is the same operation as a search, through the filterable tool
        "filter_records": Operation(TOOLKIT, "search_records", "ATTIO_QUERY_RECORDS", True),
    }
    | {n: Operation(TOOLKIT, n, s, False, d, per_draft=n not in _IDENTIFIED) for n, s, d in _W}
)

# Record-reference attributes and the object they point at. Attio (and Composio's ATTIO_ASSERT_PERSON
# doc, "linking referenced records") take a reference as [{"target_object", "target_record_id"}] and
# refuse a bare record id.
_REFERENCES = {
    ("deals", "associated_company"): "companies",
    ("deals", "associated_people"): "people",
    ("people", "company"): "companies",
    ("companies", "team"): "people",
}


def references(obj: str, values: dict[str, Any]) -> dict[str, Any]:
    """`values` with every bare record id of a record-reference attribute written as a reference."""
    out = dict(values)
    for (owner, slug), target in _REFERENCES.items():
        if owner != obj or slug not in out:
            continue
        items = out[slug] if isinstance(out[slug], list) else [out[slug]]
        out[slug] = [
            {"target_object": target, "target_record_id": item} if isinstance(item, str) else item
            for item in items
            if item is not None
        ]
    return out


class _Ops:
    def get_record(self, obj: str, record_id: str, name: str) -> ToolAction:
        return action(
            OPERATIONS["get_record"],
            {"object_id": obj, "record_id": record_id},
            [obj, record_id],
            f"read {name}",
        )

    def filter_records(self, obj: str, flt: dict[str, Any] | None, what: str) -> ToolAction:
        args: dict[str, Any] = {"object": obj, "limit": 50}
        if flt:
            args["filter"] = flt
        return action(OPERATIONS["filter_records"], args, [obj, digest(sorted((flt or {}).items()))], what)

    def search_records(self, query: str, objects: list[str], what: str) -> ToolAction:
        return action(
            OPERATIONS["search_records"],
            {"query": query, "objects": objects, "request_as": "workspace"},
            [digest(query, objects)],
            what,
        )

    def list_stages(self, what: str) -> ToolAction:
        args = {"target": "objects", "identifier": "deals", "attribute": "stage"}
        return action(OPERATIONS["list_stages"], args, ["deals", "stage"], what)

    def list_members(self, what: str) -> ToolAction:
        return action(OPERATIONS["list_members"], {}, ["all"], what)

    def list_notes(self, obj: str | None, record_id: str | None, what: str) -> ToolAction:
        args = {"parent_object": obj, "parent_record_id": record_id} if obj and record_id else {"limit": 50}
        return action(OPERATIONS["list_notes"], args, [record_id or "all"], what)

    def list_tasks(self, flt: dict[str, Any], what: str) -> ToolAction:
        return action(OPERATIONS["list_tasks"], dict(flt), [digest(sorted(flt.items()))], what)

    def update_deal(self, deal_id: str, values: dict[str, Any], preview: str) -> ToolAction:
        keys = [f"{k}={values[k]}" for k in sorted(values)]
        return action(
            OPERATIONS["update_deal"],
            {"object_type": "deals", "record_id": deal_id, "values": references("deals", values)},
            [deal_id, *keys],
            preview,
        )

    def update_record(self, obj: str, record_id: str, values: dict[str, Any], preview: str) -> ToolAction:
        keys = [f"{k}={values[k]}" for k in sorted(values)]
        return action(
            OPERATIONS["update_record"],
            {"object_type": obj, "record_id": record_id, "values": references(obj, values)},
            [obj, record_id, *keys],
            preview,
        )

    def create_deal(
        self, values: dict[str, Any], company_key: str, preview: str, depends_on: int | None = None
    ) -> ToolAction:
        return action(
            OPERATIONS["create_deal"],
            {"object_type": "deals", "values": references("deals", values)},
            [company_key, digest(values.get("name"))],
            preview,
            depends_on,
        )

    def create_company(self, name: str, domain: str, preview: str) -> ToolAction:
        return action(
            OPERATIONS["create_company"],
            {"matching_attribute": "domains", "name": name, "domains": [domain]},
            [domain.lower()],
            preview,
        )

    def create_person(
        self, values: dict[str, Any], email: str, preview: str, depends_on: int | None = None
    ) -> ToolAction:
        return action(
            OPERATIONS["create_person"],
            {"matching_attribute": "email_addresses", "values": references("people", values)},
            [email.lower()],
            preview,
            depends_on,
        )

    def create_note(self, obj: str, record_id: str, title: str, content: str, preview: str) -> ToolAction:
        args = {"parent_object": obj, "parent_record_id": record_id, "title": title, "content": content}
        return action(OPERATIONS["create_note"], args, [record_id, digest(title, content)], preview)

    def create_task(
        self,
        content: str,
        deadline: str | None,
        linked: list[tuple[str, str]],
        assignees: list[str],
        preview: str,
        depends_on: int | None = None,
    ) -> ToolAction:
        args: dict[str, Any] = {"content": content, "is_completed": False}
        if deadline:
            args["deadline_at"] = deadline
        if linked:
            args["linked_records"] = [{"target_object": o, "target_record_id": r} for o, r in linked]
        if assignees:
            args["assignees"] = [
                {"referenced_actor_type": "workspace-member", "referenced_actor_id": a} for a in assignees
            ]
        key = linked[0][1] if linked else "none"
        return action(OPERATIONS["create_task"], args, [key, digest(content, deadline)], preview, depends_on)

    def complete_task(self, task_id: str, preview: str) -> ToolAction:
        return action(
            OPERATIONS["complete_task"],
            {"task_id": task_id, "data": {"is_completed": True}},
            [task_id],
            preview,
        )

    def delete_record(self, obj: str, record_id: str, preview: str) -> ToolAction:
        return action(
            OPERATIONS["delete_record"],
            {"object_type": obj, "record_id": record_id},
            [obj, record_id],
            preview,
        )


ops = _Ops()


def link_for(data: Any) -> str | None:
    inner = data.get("data") if isinstance(data, dict) else None
    if isinstance(inner, dict):
        url = inner.get("web_url")
        return str(url) if url else None
    return None
