"""Attio tools of the sandbox: records, notes, tasks, stages and members."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkits.sandbox._attio_records import (
    OBJECTS,
    WORKSPACE_SLUG,
    Record,
    find_member,
    find_record,
    matches_filter,
    record_json,
    records_of,
    sort_records,
)
from toolkits.sandbox._attio_writes import apply_values, blank_record, normalise_domain
from toolkits.sandbox._common import (
    SEED_TIMESTAMP,
    Args,
    Handler,
    SandboxError,
    Workspace,
    first_match,
    new_id,
    now_iso,
    page,
    parse_iso_datetime,
)

# --- records --------------------------------------------------------------------------------------


def _records_json(ws: Workspace, obj: str, records: list[Record]) -> list[dict[str, Any]]:
    return [record_json(ws, obj, record) for record in records]


def query_records(ws: Workspace, args: Args) -> dict[str, Any]:
    obj = args["object"]
    found = [r for r in records_of(ws, obj) if matches_filter(ws, obj, r, args.get("filter") or {})]
    found = sort_records(ws, obj, found, args.get("sorts") or [])
    found = page(found, offset=args.get("offset", 0), limit=args.get("limit"))
    return {"data": _records_json(ws, obj, found)}


def find_record_tool(ws: Workspace, args: Args) -> dict[str, Any]:
    obj = args["object_id"]
    if args.get("record_id"):
        return {"data": record_json(ws, obj, find_record(ws, obj, args["record_id"]))}
    attributes = args.get("attributes") or {}
    found = [r for r in records_of(ws, obj) if matches_filter(ws, obj, r, attributes)]
    found = page(found, offset=args.get("offset", 0), limit=args.get("limit"))
    return {"data": _records_json(ws, obj, found)}


def search_records(ws: Workspace, args: Args) -> dict[str, Any]:
    request_as = args["request_as"]
    if request_as != "workspace":
        find_member(ws, request_as)
    query = args["query"].strip().casefold()
    ranked: list[tuple[int, int, dict[str, Any]]] = []
    for obj in args["objects"]:
        for record in records_of(ws, obj):
            rank = _search_rank(query, record)
            if rank is not None:
                ranked.append((rank, len(ranked), _search_hit(obj, record)))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return {"data": [hit for _, _, hit in ranked[: args.get("limit", 25)]]}


def _search_rank(query: str, record: Record) -> int | None:
    """0 exact name, 1 name prefix, 2 substring of a name/domain/email, 3 every word found; else None."""
    name = str(record.get("name", "")).casefold()
    fields = [name, *(d.casefold() for d in record.get("domains", ()))]
    fields += [e.casefold() for e in record.get("email_addresses", ())]
    if not query:
        return 3
    if name == query:
        return 0
    if name.startswith(query):
        return 1
    if any(query in field for field in fields):
        return 2
    if all(any(word in field for field in fields) for word in query.split()):
        return 3
    return None


def _search_hit(obj: str, record: Record) -> dict[str, Any]:
    return {
        "id": {"workspace_id": WORKSPACE_SLUG, "object_id": obj, "record_id": record["id"]},
        "object_slug": obj,
        "record_text": str(record.get("name", "")),
        "record_image": None,
        "domains": list(record.get("domains", [])),
        "email_addresses": list(record.get("email_addresses", [])),
        "phone_numbers": [],
    }


def create_record(ws: Workspace, args: Args) -> dict[str, Any]:
    obj = args["object_type"]
    records = records_of(ws, obj)
    record = blank_record(obj, new_id(), now_iso())
    apply_values(ws, obj, record, args["values"], creating=True)
    records.append(record)
    return {"data": record_json(ws, obj, record)}


def update_record(ws: Workspace, args: Args) -> dict[str, Any]:
    obj = args["object_type"]
    record = find_record(ws, obj, args["record_id"])
    apply_values(ws, obj, record, args["values"], creating=False)
    return {"data": record_json(ws, obj, record)}


def delete_record(ws: Workspace, args: Args) -> dict[str, Any]:
    obj, record_id = args["object_type"], args["record_id"]
    record = find_record(ws, obj, record_id)
    records_of(ws, obj).remove(record)
    _drop_references(ws, obj, record_id)
    return {}


def _drop_references(ws: Workspace, obj: str, record_id: str) -> None:
    attio = ws["attio"]
    attio["notes"] = [n for n in attio["notes"] if n["parent_record_id"] != record_id]
    for task in attio["tasks"]:
        task["linked_records"] = [
            link for link in task["linked_records"] if link["target_record_id"] != record_id
        ]
    for person in attio["people"]:
        if person.get("company_id") == record_id:
            person["company_id"] = None
    for deal in attio["deals"]:
        if deal.get("company_id") == record_id:
            deal["company_id"] = None
        deal["people_ids"] = [pid for pid in deal.get("people_ids", []) if pid != record_id]


def assert_company(ws: Workspace, args: Args) -> dict[str, Any]:
    if args["matching_attribute"] != "domains":
        raise SandboxError(
            f"'{args['matching_attribute']}' is not a unique attribute of companies; match on 'domains'"
        )
    domains = [*([args["domain"]] if args.get("domain") else []), *args.get("domains", [])]
    if not domains:
        raise SandboxError("Give 'domain' or 'domains' to match the company on")
    values: dict[str, Any] = {"domains": domains}
    for key in ("name", "description", "primary_location", "team"):
        if key in args:
            values[key] = args[key]
    if "team" in values:
        values["team"] = [{"target_object": "people", "email_addresses": [email]} for email in values["team"]]
    wanted = {normalise_domain(domain) for domain in domains}
    existing = next((c for c in records_of(ws, "companies") if wanted.intersection(c["domains"])), None)
    return _upsert(ws, "companies", existing, values)


def assert_person(ws: Workspace, args: Args) -> dict[str, Any]:
    if args["matching_attribute"] != "email_addresses":
        raise SandboxError(
            f"'{args['matching_attribute']}' is not a unique attribute of people; match on 'email_addresses'"
        )
    values = args["values"]
    raw_emails = values.get("email_addresses")
    emails = raw_emails if isinstance(raw_emails, list) else [raw_emails] if raw_emails else []
    wanted = {str(e.get("email_address") if isinstance(e, Mapping) else e).strip().casefold() for e in emails}
    if not wanted:
        raise SandboxError("'values' must include email_addresses, the matching attribute")
    existing = next(
        (
            p
            for p in records_of(ws, "people")
            if wanted.intersection(e.casefold() for e in p["email_addresses"])
        ),
        None,
    )
    return _upsert(ws, "people", existing, values)


def _upsert(ws: Workspace, obj: str, existing: Record | None, values: Mapping[str, Any]) -> dict[str, Any]:
    if existing is None:
        record = blank_record(obj, new_id(), now_iso())
        apply_values(ws, obj, record, values, creating=True)
        records_of(ws, obj).append(record)
    else:
        record = existing
        apply_values(ws, obj, record, values, creating=False)
    return {"data": record_json(ws, obj, record)}


# --- notes ----------------------------------------------------------------------------------------


def _note_json(note: Record) -> dict[str, Any]:
    return {
        "id": {"workspace_id": WORKSPACE_SLUG, "note_id": note["id"]},
        "parent_object": note["parent_object"],
        "parent_record_id": note["parent_record_id"],
        "title": note["title"],
        "content_plaintext": note["content"],
        "content_markdown": note["content"],
        "created_by_actor": {"type": "api-token", "id": None},
        "created_at": note["created_at"],
    }


def create_note(ws: Workspace, args: Args) -> dict[str, Any]:
    obj = args["parent_object"]
    find_record(ws, obj, args["parent_record_id"])
    created_at = args.get("created_at") or now_iso()
    parse_iso_datetime(created_at, "created_at")
    note = {
        "id": new_id(),
        "parent_object": obj,
        "parent_record_id": args["parent_record_id"],
        "title": args["title"],
        "content": args["content"],
        "created_at": created_at,
    }
    ws["attio"]["notes"].append(note)
    return {"data": _note_json(note)}


def list_notes(ws: Workspace, args: Args) -> dict[str, Any]:
    notes = list(reversed(ws["attio"]["notes"]))  # newest first, as Attio lists them
    if args.get("parent_object"):
        records_of(ws, args["parent_object"])
        notes = [n for n in notes if n["parent_object"] == args["parent_object"]]
    if args.get("parent_record_id"):
        notes = [n for n in notes if n["parent_record_id"] == args["parent_record_id"]]
    notes = page(notes, offset=args.get("offset", 0), limit=args.get("limit", 10))
    return {"data": [_note_json(note) for note in notes]}


# --- tasks ----------------------------------------------------------------------------------------


def _task_json(task: Record) -> dict[str, Any]:
    return {
        "id": {"workspace_id": WORKSPACE_SLUG, "task_id": task["id"]},
        "content_plaintext": task["content"],
        "format": "plaintext",
        "deadline_at": task["deadline_at"],
        "is_completed": task["is_completed"],
        "linked_records": [
            {"target_object_id": link["target_object"], "target_record_id": link["target_record_id"]}
            for link in task["linked_records"]
        ],
        "assignees": [
            {"referenced_actor_type": "workspace-member", "referenced_actor_id": member_id}
            for member_id in task["assignees"]
        ],
        "created_by_actor": {"type": "api-token", "id": None},
        "created_at": task["created_at"],
    }


def _links(ws: Workspace, raw: list[Mapping[str, Any]]) -> list[dict[str, str]]:
    links = []
    for link in raw:
        obj, record_id = link.get("target_object"), link.get("target_record_id")
        if not isinstance(obj, str) or not isinstance(record_id, str):
            raise SandboxError("Each linked record needs target_object and target_record_id")
        find_record(ws, obj, record_id)
        links.append({"target_object": obj, "target_record_id": record_id})
    return links


def _assignees(ws: Workspace, raw: list[Mapping[str, Any]]) -> list[str]:
    ids = []
    for actor in raw:
        ref = actor.get("referenced_actor_id") or actor.get("workspace_member_email_address")
        if actor.get("referenced_actor_type", "workspace-member") != "workspace-member" or not isinstance(
            ref, str
        ):
            raise SandboxError(
                "Each assignee needs referenced_actor_type 'workspace-member' and referenced_actor_id"
            )
        ids.append(find_member(ws, ref)["id"])
    return ids


def _deadline(value: str | None) -> str | None:
    if value is not None:
        parse_iso_datetime(value, "deadline_at")
    return value


def create_task(ws: Workspace, args: Args) -> dict[str, Any]:
    task = {
        "id": new_id(),
        "content": args["content"],
        "deadline_at": _deadline(args.get("deadline_at")),
        "is_completed": args.get("is_completed", False),
        "linked_records": _links(ws, args.get("linked_records", [])),
        "assignees": _assignees(ws, args.get("assignees", [])),
        "created_at": now_iso(),
    }
    ws["attio"]["tasks"].append(task)
    return {"data": _task_json(task)}


_TASK_FIELDS = ("deadline_at", "is_completed", "linked_records", "assignees")


def _find_task(ws: Workspace, task_id: str) -> Record:
    task = first_match(ws["attio"]["tasks"], "id", task_id)
    if task is None:
        raise SandboxError(f"Task not found: '{task_id}'")
    return task


def update_task(ws: Workspace, args: Args) -> dict[str, Any]:
    task = _find_task(ws, args["task_id"])
    changes = args["data"]
    unknown = sorted(set(changes) - set(_TASK_FIELDS))
    if unknown:
        raise SandboxError(f"Only {', '.join(_TASK_FIELDS)} can change on a task, not {', '.join(unknown)}")
    if "deadline_at" in changes:
        task["deadline_at"] = _deadline(changes["deadline_at"])
    if "is_completed" in changes:
        task["is_completed"] = changes["is_completed"]
    if "linked_records" in changes:
        task["linked_records"] = _links(ws, changes["linked_records"])
    if "assignees" in changes:
        task["assignees"] = _assignees(ws, changes["assignees"])
    return {"data": _task_json(task)}


def delete_task(ws: Workspace, args: Args) -> dict[str, Any]:
    ws["attio"]["tasks"].remove(_find_task(ws, args["task_id"]))
    return {}


def list_tasks(ws: Workspace, args: Args) -> dict[str, Any]:
    tasks = list(ws["attio"]["tasks"])
    if "is_completed" in args:
        tasks = [t for t in tasks if t["is_completed"] == args["is_completed"]]
    if args.get("assignee"):
        member_id = find_member(ws, args["assignee"])["id"]
        tasks = [t for t in tasks if member_id in t["assignees"]]
    if args.get("linked_object"):
        obj = args["linked_object"]
        tasks = [t for t in tasks if any(link["target_object"] == obj for link in t["linked_records"])]
    if args.get("linked_record_id"):
        rid = args["linked_record_id"]
        tasks = [t for t in tasks if any(link["target_record_id"] == rid for link in t["linked_records"])]
    if args.get("sort") == "created_at:desc":
        tasks.reverse()
    tasks = page(tasks, offset=args.get("offset", 0), limit=args.get("limit", 500))
    return {"data": [_task_json(task) for task in tasks]}


# --- workspace configuration ----------------------------------------------------------------------


def list_statuses(ws: Workspace, args: Args) -> dict[str, Any]:
    target, identifier, attribute = args["target"], args["identifier"], args["attribute"]
    if target != "objects" or identifier not in OBJECTS:
        raise SandboxError(f"No {target} '{identifier}' in this workspace")
    if (identifier, attribute) != ("deals", "stage"):
        raise SandboxError(f"Attribute '{attribute}' on {identifier} is not a status attribute")
    return {
        "data": [
            {
                "id": {
                    "workspace_id": WORKSPACE_SLUG,
                    "object_id": "deals",
                    "attribute_id": "stage",
                    "status_id": stage["id"],
                },
                "title": stage["title"],
                "is_archived": False,
                "celebration_enabled": stage["title"] == "Won",
                "target_time_in_status": None,
            }
            for stage in ws["attio"]["deal_stages"]
        ]
    }


def list_members(ws: Workspace, args: Args) -> dict[str, Any]:
    members = []
    for member in ws["attio"]["workspace_members"]:
        first, _, last = member["name"].partition(" ")
        members.append(
            {
                "id": {"workspace_id": WORKSPACE_SLUG, "workspace_member_id": member["id"]},
                "first_name": first,
                "last_name": last,
                "avatar_url": None,
                "email_address": member["email"],
                "access_level": "admin" if member.get("is_me") else "member",
                "created_at": member.get("created_at", SEED_TIMESTAMP),
            }
        )
    return {"data": members}


READS: dict[str, Handler] = {
    "ATTIO_SEARCH_RECORDS": search_records,
    "ATTIO_FIND_RECORD": find_record_tool,
    "ATTIO_QUERY_RECORDS": query_records,
    "ATTIO_LIST_ATTRIBUTE_STATUSES": list_statuses,
    "ATTIO_LIST_WORKSPACE_MEMBERS": list_members,
    "ATTIO_LIST_NOTES": list_notes,
    "ATTIO_GET_V2_TASKS": list_tasks,
}

WRITES: dict[str, Handler] = {
    "ATTIO_CREATE_RECORD": create_record,
    "ATTIO_UPDATE_RECORD": update_record,
    "ATTIO_ASSERT_COMPANY": assert_company,
    "ATTIO_ASSERT_PERSON": assert_person,
    "ATTIO_CREATE_NOTE": create_note,
    "ATTIO_CREATE_TASK": create_task,
    "ATTIO_UPDATE_TASK": update_task,
    "ATTIO_DELETE_TASK": delete_task,
    "ATTIO_DELETE_RECORD": delete_record,
}
