"""Attio records in the sandbox: the REST v2 record shape, simplified write values, and filters.

Stored records keep the fixture's flat shape (`name`, `domains`, `company_id`, `stage` title…);
this module translates between that and Attio's attribute-value lists.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from toolkits.sandbox._common import SEED_TIMESTAMP, SandboxError, Workspace, first_match

WORKSPACE_SLUG = "northwind"
OBJECTS = ("companies", "people", "deals")

Record = dict[str, Any]


def records_of(ws: Workspace, obj: str) -> list[Record]:
    if obj not in OBJECTS:
        raise SandboxError(
            f"Object '{obj}' does not exist in this workspace (use companies, people or deals)"
        )
    records: list[Record] = ws["attio"][obj]
    return records


def find_record(ws: Workspace, obj: str, record_id: str) -> Record:
    record = first_match(records_of(ws, obj), "id", record_id)
    if record is None:
        raise SandboxError(f"Record not found: no {obj} record with id '{record_id}'")
    return record


def find_member(ws: Workspace, ref: str) -> Record:
    """A workspace member by id or email address."""
    wanted = ref.strip().casefold()
    for member in ws["attio"]["workspace_members"]:
        if member["id"] == ref or member["email"].casefold() == wanted:
            return dict(member)
    raise SandboxError(f"Workspace member not found: '{ref}'")


def find_stage(ws: Workspace, ref: str) -> Record:
    """A deal stage by title (any case) or status id."""
    wanted = ref.strip().casefold()
    for stage in ws["attio"]["deal_stages"]:
        if stage["id"] == ref or stage["title"].casefold() == wanted:
            return dict(stage)
    raise SandboxError(f"Unknown stage '{ref}'")


# --- reading: the Attio REST v2 shape -------------------------------------------------------------


def record_json(ws: Workspace, obj: str, record: Record) -> dict[str, Any]:
    record_id = record["id"]
    return {
        "id": {"workspace_id": WORKSPACE_SLUG, "object_id": obj, "record_id": record_id},
        "created_at": record.get("created_at", SEED_TIMESTAMP),
        "web_url": f"https://app.attio.com/{WORKSPACE_SLUG}/{obj}/record/{record_id}",
        "values": _VALUE_BUILDERS[obj](ws, record),
    }


def reference(target_object: str, record_id: str) -> dict[str, Any]:
    return {
        "target_object": target_object,
        "target_record_id": record_id,
        "attribute_type": "record-reference",
    }


def _text(value: str | None) -> list[dict[str, Any]]:
    return [{"value": value, "attribute_type": "text"}] if value else []


def _split_name(record: Record) -> tuple[str, str]:
    if "first_name" in record or "last_name" in record:
        return record.get("first_name", ""), record.get("last_name", "")
    first, _, last = record.get("name", "").partition(" ")
    return first, last


def _company_values(ws: Workspace, company: Record) -> dict[str, Any]:
    team = [p["id"] for p in ws["attio"]["people"] if p.get("company_id") == company["id"]]
    location = company.get("primary_location")
    return {
        "name": _text(company.get("name")),
        "domains": [
            {"domain": domain, "root_domain": domain, "attribute_type": "domain"}
            for domain in company["domains"]
        ],
        "description": _text(company.get("description")),
        "primary_location": [] if location is None else [_location(location)],
        "team": [reference("people", person_id) for person_id in team],
    }


def _location(location: Any) -> dict[str, Any]:
    if isinstance(location, Mapping):
        return {**location, "attribute_type": "location"}
    return {"line_1": str(location), "attribute_type": "location"}


def _person_values(ws: Workspace, person: Record) -> dict[str, Any]:
    first, last = _split_name(person)
    company_id = person.get("company_id")
    return {
        "name": [
            {
                "first_name": first,
                "last_name": last,
                "full_name": person.get("name", ""),
                "attribute_type": "personal-name",
            }
        ],
        "email_addresses": [
            {
                "email_address": email,
                "email_domain": email.rpartition("@")[2],
                "attribute_type": "email-address",
            }
            for email in person["email_addresses"]
        ],
        "job_title": _text(person.get("job_title")),
        "company": [] if not company_id else [reference("companies", company_id)],
    }


def _deal_values(ws: Workspace, deal: Record) -> dict[str, Any]:
    stage = find_stage(ws, deal["stage"])
    value = deal.get("value")
    owner_id = deal.get("owner_id")
    company_id = deal.get("company_id")
    return {
        "name": _text(deal.get("name")),
        "stage": [
            {
                "status": {
                    "id": {
                        "workspace_id": WORKSPACE_SLUG,
                        "object_id": "deals",
                        "attribute_id": "stage",
                        "status_id": stage["id"],
                    },
                    "title": stage["title"],
                    "is_archived": False,
                },
                "attribute_type": "status",
            }
        ],
        "value": []
        if value is None
        else [
            {
                "currency_value": value["amount"],
                "currency_code": value["currency"],
                "attribute_type": "currency",
            }
        ],
        "owner": []
        if not owner_id
        else [
            {
                "referenced_actor_type": "workspace-member",
                "referenced_actor_id": owner_id,
                "attribute_type": "actor-reference",
            }
        ],
        "associated_company": [] if not company_id else [reference("companies", company_id)],
        "associated_people": [reference("people", person_id) for person_id in deal.get("people_ids", [])],
    }


_VALUE_BUILDERS: dict[str, Callable[[Workspace, Record], dict[str, Any]]] = {
    "companies": _company_values,
    "people": _person_values,
    "deals": _deal_values,
}


def record_text(obj: str, record: Record) -> str:
    return str(record.get("name", ""))


# --- filtering ------------------------------------------------------------------------------------

# The object a reference attribute points at (for `target_object` in filters).
_REFERENCE_TARGETS = {
    ("companies", "team"): "people",
    ("people", "company"): "companies",
    ("deals", "associated_company"): "companies",
    ("deals", "associated_people"): "people",
    ("deals", "owner"): "workspace-member",
}


def attribute_values(
    ws: Workspace, obj: str, record: Record, attribute: str, field: str | None = None
) -> list[Any]:
    """The comparable values of one attribute (or one field of it) of a stored record."""
    if attribute == "record_id":
        return [record["id"]]
    if field in ("target_object", "referenced_actor_type"):
        return [_REFERENCE_TARGETS.get((obj, attribute))]
    if obj == "companies":
        values = _company_filter_values(ws, record, attribute)
    elif obj == "people":
        values = _person_filter_values(record, attribute, field)
    else:
        values = _deal_filter_values(ws, record, attribute, field)
    if values is None:
        raise SandboxError(f"Unknown attribute '{attribute}' on {obj}")
    return values


def _company_filter_values(ws: Workspace, company: Record, attribute: str) -> list[Any] | None:
    if attribute == "team":
        return [p["id"] for p in ws["attio"]["people"] if p.get("company_id") == company["id"]]
    if attribute == "domains":
        return list(company["domains"])
    if attribute in ("name", "description", "primary_location"):
        return [company[attribute]] if company.get(attribute) else []
    return None


def _person_filter_values(person: Record, attribute: str, field: str | None) -> list[Any] | None:
    if attribute == "name":
        first, last = _split_name(person)
        full = str(person.get("name", ""))
        by_field = {"first_name": [first], "last_name": [last], "full_name": [full]}
        return by_field[field] if field in by_field else [full, first, last]
    if attribute == "email_addresses":
        if field == "email_domain":
            return [email.rpartition("@")[2] for email in person["email_addresses"]]
        return list(person["email_addresses"])
    if attribute == "job_title":
        return [person["job_title"]] if person.get("job_title") else []
    if attribute == "company":
        return [person["company_id"]] if person.get("company_id") else []
    return None


def _deal_filter_values(ws: Workspace, deal: Record, attribute: str, field: str | None) -> list[Any] | None:
    if attribute == "name":
        return [deal.get("name", "")]
    if attribute == "stage":
        stage = find_stage(ws, deal["stage"])
        return [stage["title"], stage["id"]]
    if attribute == "value":
        value = deal.get("value")
        if value is None:
            return []
        return [value["currency"]] if field == "currency_code" else [value["amount"]]
    if attribute == "owner":
        if not deal.get("owner_id"):
            return []
        member = find_member(ws, deal["owner_id"])
        return [member["id"], member["email"], member["name"]]
    if attribute == "associated_company":
        return [deal["company_id"]] if deal.get("company_id") else []
    if attribute == "associated_people":
        return list(deal.get("people_ids", []))
    return None


def matches_filter(ws: Workspace, obj: str, record: Record, condition: Mapping[str, Any]) -> bool:
    """Attio's filter language: shorthand `{attr: value}`, `$`-operators, `$and`/`$or`/`$not`."""
    for key, sub in condition.items():
        if key in ("$and", "$or"):
            if not isinstance(sub, list) or not all(isinstance(part, Mapping) for part in sub):
                raise SandboxError(f"'{key}' needs a list of filters")
            results = (matches_filter(ws, obj, record, part) for part in sub)
            if not (all(results) if key == "$and" else any(results)):
                return False
        elif key == "$not":
            if not isinstance(sub, Mapping):
                raise SandboxError("'$not' needs a filter")
            if matches_filter(ws, obj, record, sub):
                return False
        elif key.startswith("$"):
            raise SandboxError(f"Unsupported filter operator '{key}'")
        elif not _attribute_matches(ws, obj, record, key, sub, None):
            return False
    return True


def _attribute_matches(
    ws: Workspace, obj: str, record: Record, attribute: str, condition: Any, field: str | None
) -> bool:
    if isinstance(condition, Mapping):
        if "path" in condition or "constraints" in condition:
            raise SandboxError("Path filters are not supported in the sandbox")
        values = attribute_values(ws, obj, record, attribute, field)
        for key, operand in condition.items():
            if key.startswith("$"):
                if not _apply_operator(values, key, operand):
                    return False
            elif not _attribute_matches(ws, obj, record, attribute, operand, key):
                return False
        return True
    values = attribute_values(ws, obj, record, attribute, field)
    if isinstance(condition, list):
        return any(_equal(value, wanted) for value in values for wanted in condition)
    return any(_equal(value, condition) for value in values)


def _equal(actual: Any, wanted: Any) -> bool:
    if isinstance(actual, str) and isinstance(wanted, str):
        return actual.casefold() == wanted.strip().casefold()
    return bool(actual == wanted)


_TEXT_TESTS: dict[str, Callable[[str, str], bool]] = {
    "$contains": operator.contains,
    "$starts_with": str.startswith,
    "$ends_with": str.endswith,
}
_ORDERINGS: dict[str, Callable[[Any, Any], bool]] = {
    "$lt": operator.lt,
    "$lte": operator.le,
    "$gt": operator.gt,
    "$gte": operator.ge,
}


def _apply_operator(values: list[Any], name: str, operand: Any) -> bool:
    strings = [v.casefold() for v in values if isinstance(v, str)]
    needle = operand.casefold() if isinstance(operand, str) else None
    if name == "$eq":
        return any(_equal(value, operand) for value in values)
    if name == "$in":
        if not isinstance(operand, list):
            raise SandboxError("'$in' needs a list")
        return any(_equal(value, wanted) for value in values for wanted in operand)
    if name == "$not_empty":
        return bool(values) == bool(operand)
    if name in _TEXT_TESTS:
        if needle is None:
            raise SandboxError(f"'{name}' needs a string")
        test = _TEXT_TESTS[name]
        return any(test(value, needle) for value in strings)
    if name in _ORDERINGS:
        return any(_compare(value, name, operand) for value in values)
    raise SandboxError(f"Unsupported filter operator '{name}'")


def _compare(value: Any, operator_name: str, operand: Any) -> bool:
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (value, operand))
    texts = isinstance(value, str) and isinstance(operand, str)
    return (numbers or texts) and _ORDERINGS[operator_name](value, operand)


def sort_records(
    ws: Workspace, obj: str, records: list[Record], sorts: list[Mapping[str, Any]]
) -> list[Record]:
    """Records ordered by `sorts` (Attio's `[{attribute, direction, field?}]`); empty values go last."""
    ordered = list(records)
    for spec in reversed(sorts):
        attribute, field = spec.get("attribute"), spec.get("field")
        if not isinstance(attribute, str):
            raise SandboxError("Each sort needs an 'attribute'")
        keyed = [
            (_sort_key(ws, obj, r, attribute, field if isinstance(field, str) else None), r) for r in ordered
        ]
        present = [pair for pair in keyed if pair[0] is not None]
        present.sort(key=lambda pair: pair[0], reverse=spec.get("direction") == "desc")
        ordered = [r for _, r in present] + [r for key, r in keyed if key is None]
    return ordered


def _sort_key(ws: Workspace, obj: str, record: Record, attribute: str, field: str | None) -> Any:
    values = attribute_values(ws, obj, record, attribute, field)
    if not values or values[0] is None:
        return None
    return values[0].casefold() if isinstance(values[0], str) else values[0]
