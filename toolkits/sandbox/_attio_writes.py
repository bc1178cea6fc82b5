"""Attio's simplified write values applied to stored sandbox records.

Every attribute accepts a single value or a list of them, as Attio does. Multi-value attributes
(domains, email addresses, associated people) are replaced on create and appended to on update,
which is what Attio's PATCH does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolkits.sandbox._attio_records import Record, find_member, find_record, find_stage, records_of
from toolkits.sandbox._common import SandboxError, Workspace

Writer = Callable[[Workspace, Record, Any, bool], None]

_REQUIRED_ON_CREATE = {"companies": (), "people": (), "deals": ("name", "stage")}


def apply_values(
    ws: Workspace, obj: str, record: Record, values: Mapping[str, Any], *, creating: bool
) -> None:
    """Write `values` into `record`. Raises SandboxError for unknown attributes or bad references."""
    writers = _WRITERS[obj]
    for slug, raw in values.items():
        writer = writers.get(slug)
        if writer is None:
            raise SandboxError(f"Cannot find attribute with slug '{slug}' on {obj}")
        writer(ws, record, raw, creating)
    if creating:
        missing = [slug for slug in _REQUIRED_ON_CREATE[obj] if not record.get(slug)]
        if missing:
            raise SandboxError(f"Missing required attribute(s) for {obj}: {', '.join(missing)}")
    check_unique(ws, obj, record)


def check_unique(ws: Workspace, obj: str, record: Record) -> None:
    """Domains of companies and email addresses of people are unique attributes in Attio."""
    field = {"companies": "domains", "people": "email_addresses"}.get(obj)
    if field is None:
        return
    mine = {value.casefold() for value in record[field]}
    for other in records_of(ws, obj):
        if other["id"] != record["id"]:
            clash = mine.intersection(value.casefold() for value in other[field])
            if clash:
                raise SandboxError(
                    f"Uniqueness conflict: another {obj} record already has {field} '{sorted(clash)[0]}'"
                )


def _items(raw: Any) -> list[Any]:
    if raw is None:
        return []
    return list(raw) if isinstance(raw, list | tuple) else [raw]


def _single(raw: Any, slug: str) -> Any:
    items = _items(raw)
    if len(items) > 1:
        raise SandboxError(f"Attribute '{slug}' takes a single value")
    return items[0] if items else None


def _text_writer(slug: str) -> Writer:
    def write(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
        value = _single(raw, slug)
        if isinstance(value, Mapping):
            value = value.get("value")
        if value is not None and not isinstance(value, str):
            raise SandboxError(f"Attribute '{slug}' takes text")
        record[slug] = value or ""

    return write


def _multi_text_writer(slug: str, key: str, normalise: Callable[[str], str]) -> Writer:
    def write(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
        new: list[str] = []
        for item in _items(raw):
            text = item.get(key) if isinstance(item, Mapping) else item
            if not isinstance(text, str) or not text.strip():
                raise SandboxError(f"Attribute '{slug}' takes strings or objects with '{key}'")
            new.append(normalise(text))
        existing = [] if creating else list(record.get(slug, []))
        record[slug] = existing + [value for value in dict.fromkeys(new) if value not in existing]

    return write


def normalise_domain(text: str) -> str:
    domain = text.strip().casefold()
    for prefix in ("https://", "http://", "www."):
        domain = domain.removeprefix(prefix)
    return domain.split("/", 1)[0]


def _email(text: str) -> str:
    email = text.strip()
    if "@" not in email:
        raise SandboxError(f"'{email}' is not an email address")
    return email


def _write_location(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    record["primary_location"] = _single(raw, "primary_location")


def _write_team(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    for item in _items(raw):
        person = _resolve_reference(ws, "people", item, "team")
        person["company_id"] = record["id"]


def _write_person_name(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    value = _single(raw, "name")
    if isinstance(value, str):
        first, _, last = value.strip().partition(" ")
        full = value.strip()
    elif isinstance(value, Mapping):
        first, last = str(value.get("first_name") or ""), str(value.get("last_name") or "")
        full = str(value.get("full_name") or f"{first} {last}".strip())
    elif value is None:
        first = last = full = ""
    else:
        raise SandboxError("Attribute 'name' takes a string or {first_name, last_name, full_name}")
    record.update(name=full, first_name=first, last_name=last)


def _resolve_reference(ws: Workspace, target: str, item: Any, slug: str) -> Record:
    """A referenced record: `{target_object, target_record_id}`, or a company by domain / a person by
    email (`{target_object, domains}` / `{target_object, email_addresses}`). Attio refuses a bare id."""
    if not isinstance(item, Mapping) or "target_object" not in item:
        raise SandboxError(
            f'Invalid value was passed to attribute with slug "{slug}": a record reference is '
            f'[{{"target_object": "{target}", "target_record_id": "<uuid>"}}]'
        )
    if item["target_object"] != target:
        raise SandboxError(f"Attribute '{slug}' must reference {target}")
    if isinstance(item.get("target_record_id"), str):
        return find_record(ws, target, item["target_record_id"])
    if target == "companies" and "domains" in item:
        wanted = {normalise_domain(_text_of(d, "domain")) for d in _items(item["domains"])}
        for company in records_of(ws, "companies"):
            if wanted.intersection(company["domains"]):
                return company
        raise SandboxError(f"Record not found: no company with domain {', '.join(sorted(wanted))}")
    if target == "people" and "email_addresses" in item:
        wanted = {_text_of(e, "email_address").casefold() for e in _items(item["email_addresses"])}
        for person in records_of(ws, "people"):
            if wanted.intersection(email.casefold() for email in person["email_addresses"]):
                return person
        raise SandboxError(f"Record not found: no person with email {', '.join(sorted(wanted))}")
    raise SandboxError(f"Attribute '{slug}' takes {{target_object, target_record_id}}")


def _text_of(item: Any, key: str) -> str:
    """The text of a plain string or of `{key: text}`."""
    text = item.get(key) if isinstance(item, Mapping) else item
    if not isinstance(text, str):
        raise SandboxError(f"Expected a string or an object with '{key}'")
    return text


def _single_reference_writer(slug: str, field: str, target: str) -> Writer:
    def write(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
        item = _single(raw, slug)
        record[field] = None if item is None else _resolve_reference(ws, target, item, slug)["id"]

    return write


def _write_associated_people(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    new = [_resolve_reference(ws, "people", item, "associated_people")["id"] for item in _items(raw)]
    existing = [] if creating else list(record.get("people_ids", []))
    record["people_ids"] = existing + [pid for pid in dict.fromkeys(new) if pid not in existing]


def _write_stage(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    value = _single(raw, "stage")
    if isinstance(value, Mapping):
        value = value.get("status", value.get("title"))
    if isinstance(value, Mapping):
        status_id = value.get("id")
        value = value.get("title") or (
            status_id.get("status_id") if isinstance(status_id, Mapping) else status_id
        )
    if not isinstance(value, str):
        raise SandboxError("Attribute 'stage' takes a stage title or status id")
    record["stage"] = find_stage(ws, value)["title"]


def _write_value(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    value = _single(raw, "value")
    current = record.get("value") or {}
    if value is None:
        record["value"] = None
        return
    if isinstance(value, Mapping):
        amount, currency = value.get("currency_value"), value.get("currency_code") or current.get("currency")
    else:
        amount, currency = value, current.get("currency")
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise SandboxError("Attribute 'value' takes a number or {currency_value, currency_code}")
    record["value"] = {"amount": amount, "currency": currency or "USD"}


def _write_owner(ws: Workspace, record: Record, raw: Any, creating: bool) -> None:
    value = _single(raw, "owner")
    if isinstance(value, Mapping):
        value = value.get("referenced_actor_id") or value.get("workspace_member_email_address")
    if value is not None and not isinstance(value, str):
        raise SandboxError("Attribute 'owner' takes a workspace member email or id")
    record["owner_id"] = None if value is None else find_member(ws, value)["id"]


_WRITERS: dict[str, dict[str, Writer]] = {
    "companies": {
        "name": _text_writer("name"),
        "domains": _multi_text_writer("domains", "domain", normalise_domain),
        "description": _text_writer("description"),
        "primary_location": _write_location,
        "team": _write_team,
    },
    "people": {
        "name": _write_person_name,
        "email_addresses": _multi_text_writer("email_addresses", "email_address", _email),
        "job_title": _text_writer("job_title"),
        "company": _single_reference_writer("company", "company_id", "companies"),
    },
    "deals": {
        "name": _text_writer("name"),
        "stage": _write_stage,
        "value": _write_value,
        "owner": _write_owner,
        "associated_company": _single_reference_writer("associated_company", "company_id", "companies"),
        "associated_people": _write_associated_people,
    },
}


def blank_record(obj: str, record_id: str, created_at: str) -> Record:
    base: Record = {"id": record_id, "created_at": created_at}
    if obj == "companies":
        base.update(name="", domains=[])
    elif obj == "people":
        base.update(name="", email_addresses=[], company_id=None, job_title="")
    else:
        base.update(name="", stage="", value=None, company_id=None, people_ids=[], owner_id=None)
    return base
