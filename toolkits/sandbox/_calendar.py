"""Google Calendar tools of the sandbox: create an event, list events."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from toolkits.sandbox._common import Args, Handler, SandboxError, Workspace, now_iso, page, parse_iso_datetime

Event = dict[str, Any]

_LONGEST_EVENT_MINUTES = 366 * 24 * 60


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise SandboxError(f"Invalid time zone '{name}': use an IANA name such as Europe/Moscow") from None


def _owner_email(ws: Workspace) -> str:
    me = next(m for m in ws["attio"]["workspace_members"] if m.get("is_me"))
    return str(me["email"])


def _calendar(ws: Workspace, calendar_id: str) -> dict[str, Any]:
    wanted = "primary" if calendar_id.casefold() == _owner_email(ws).casefold() else calendar_id
    for calendar in ws["calendar"]["calendars"]:
        if calendar["id"] == wanted:
            return dict(calendar)
    raise SandboxError(f"Calendar not found: '{calendar_id}'")


def _instant(value: str, field: str, zone: ZoneInfo) -> datetime:
    moment = parse_iso_datetime(value, field)
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment


def _event_node(ws: Workspace, event: Event, zone: ZoneInfo | None = None) -> dict[str, Any]:
    shown = zone or ZoneInfo(event["timezone"])
    owner = _owner_email(ws)
    node: dict[str, Any] = {
        "kind": "calendar#event",
        "id": event["id"],
        "status": "confirmed",
        "htmlLink": f"https://calendar.google.com/calendar/event?eid={event['id']}",
        "created": event["created"],
        "updated": event["updated"],
        "summary": event["summary"],
        "creator": {"email": owner, "self": True},
        "organizer": {"email": owner, "self": True},
        "start": {"dateTime": _render(event["start"], shown), "timeZone": event["timezone"]},
        "end": {"dateTime": _render(event["end"], shown), "timeZone": event["timezone"]},
        "iCalUID": f"{event['id']}@google.com",
        "sequence": 0,
        "attendees": [dict(attendee) for attendee in event["attendees"]],
        "eventType": event["event_type"],
        "reminders": {"useDefault": True},
    }
    for key in ("description", "location", "visibility", "transparency", "hangoutLink"):
        if event.get(key):
            node[key] = event[key]
    if event.get("recurrence"):
        node["recurrence"] = list(event["recurrence"])
    if event.get("extended_properties"):
        node["extendedProperties"] = {k: dict(v) for k, v in event["extended_properties"].items()}
    return node


def _extended_properties(raw: Any) -> dict[str, dict[str, str]]:
    """Google's `{"private": {k: v}, "shared": {k: v}}`, string values only."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or set(raw) - {"private", "shared"}:
        raise SandboxError("extended_properties takes only 'private' and 'shared' maps")
    props: dict[str, dict[str, str]] = {}
    for scope, values in raw.items():
        if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
            raise SandboxError(f"extended_properties.{scope} must map names to strings")
        if values:
            props[scope] = {str(k): v for k, v in values.items()}
    return props


def _has_private_property(event: Event, constraint: str) -> bool:
    name, sep, value = constraint.partition("=")
    if not sep:
        raise SandboxError("privateExtendedProperty must look like propertyName=value")
    private = (event.get("extended_properties") or {}).get("private") or {}
    return bool(private.get(name) == value)


def _render(iso: str, zone: ZoneInfo) -> str:
    return datetime.fromisoformat(iso).astimezone(zone).isoformat()


def create_event(ws: Workspace, args: Args) -> dict[str, Any]:
    calendar = _calendar(ws, args.get("calendar_id", "primary"))
    zone_name = args.get("timezone") or calendar["timezone"]
    zone = _zone(zone_name)
    start = _instant(args["start_datetime"], "start_datetime", zone).replace(microsecond=0)
    if not 1900 <= start.year <= 9000:
        raise SandboxError("start_datetime is out of range")
    hours, minutes = args.get("event_duration_hour"), args.get("event_duration_minutes")
    total = 30 if hours is None and minutes is None else (hours or 0) * 60 + (minutes or 0)
    if not 0 < total <= _LONGEST_EVENT_MINUTES:
        raise SandboxError("Event duration must be greater than zero and at most a year")
    end = start + timedelta(minutes=total)
    if args.get("eventType") == "fromGmail":
        raise SandboxError("Events of type fromGmail cannot be created")
    attendees = []
    for email in args.get("attendees", []):
        if "@" not in email:
            raise SandboxError(f"Attendee '{email}' is not an email address")
        attendees.append({"email": email, "responseStatus": "needsAction"})
    if not args.get("exclude_organizer", False):
        owner = _owner_email(ws)
        attendees.insert(0, {"email": owner, "organizer": True, "self": True, "responseStatus": "accepted"})
    event_id = uuid.uuid4().hex
    now = now_iso()
    event: Event = {
        "id": event_id,
        "calendar_id": calendar["id"],
        "summary": args.get("summary", ""),
        "description": args.get("description"),
        "location": args.get("location"),
        "timezone": zone_name,
        "start": start.astimezone(zone).isoformat(),
        "end": end.astimezone(zone).isoformat(),
        "attendees": attendees,
        "recurrence": list(args.get("recurrence", [])),
        "event_type": args.get("eventType", "default"),
        "visibility": args.get("visibility"),
        "transparency": args.get("transparency"),
        "hangoutLink": _meet_link(event_id) if args.get("create_meeting_room", True) else None,
        "extended_properties": _extended_properties(args.get("extended_properties")),
        "created": now,
        "updated": now,
    }
    ws["calendar"]["events"].append(event)
    # Composio's GOOGLECALENDAR_CREATE_EVENT wraps Google's event resource in `response_data`
    return {"response_data": _event_node(ws, event)}


def _meet_link(event_id: str) -> str:
    letters = "".join(chr(ord("a") + int(ch, 16) % 26) for ch in event_id[:10])
    return f"https://meet.google.com/{letters[:3]}-{letters[3:7]}-{letters[7:10]}"


def list_events(ws: Workspace, args: Args) -> dict[str, Any]:
    calendar = _calendar(ws, args.get("calendarId", "primary"))
    calendar_zone = _zone(calendar["timezone"])
    shown_zone = _zone(args["timeZone"]) if args.get("timeZone") else None
    events = [e for e in ws["calendar"]["events"] if e["calendar_id"] == calendar["id"]]
    if args.get("timeMin"):
        low = _instant(args["timeMin"], "timeMin", calendar_zone)
        events = [e for e in events if datetime.fromisoformat(e["end"]) > low]
    if args.get("timeMax"):
        high = _instant(args["timeMax"], "timeMax", calendar_zone)
        events = [e for e in events if datetime.fromisoformat(e["start"]) < high]
    if args.get("q"):
        words = args["q"].casefold().split()
        events = [e for e in events if all(word in _searchable(e) for word in words)]
    if args.get("privateExtendedProperty"):
        events = [e for e in events if _has_private_property(e, args["privateExtendedProperty"])]
    if args.get("iCalUID"):
        events = [e for e in events if f"{e['id']}@google.com" == args["iCalUID"]]
    if args.get("orderBy") == "startTime":
        events.sort(key=lambda e: datetime.fromisoformat(e["start"]))
    elif args.get("orderBy") == "updated":
        events.sort(key=lambda e: e["updated"])
    events = page(events, limit=args.get("maxResults", 250))
    return {
        "kind": "calendar#events",
        "summary": calendar["name"],
        "timeZone": args.get("timeZone") or calendar["timezone"],
        "items": [_event_node(ws, event, shown_zone) for event in events],
    }


def _searchable(event: Event) -> str:
    parts = [event.get("summary"), event.get("description"), event.get("location")]
    parts += [attendee["email"] for attendee in event["attendees"]]
    return " ".join(part for part in parts if part).casefold()


READS: dict[str, Handler] = {"GOOGLECALENDAR_EVENTS_LIST": list_events}
WRITES: dict[str, Handler] = {"GOOGLECALENDAR_CREATE_EVENT": create_event}
