"""Google Calendar: timeblocks and meetings (Composio toolkit 20260212_00)."""

from __future__ import annotations

from typing import Any

from toolkits._ops import Operation, action, digest
from toolkits.base import ToolAction

__all__ = ["OPERATIONS", "TOOLKIT", "link_for", "ops"]

TOOLKIT = "googlecalendar"
VERSION = "20260212_00"
RATE_BUDGET_PER_MINUTE = 60

OPERATIONS: dict[str, Operation] = {
    "list_events": Operation(TOOLKIT, "list_events", "GOOGLECALENDAR_EVENTS_LIST", True),
    # an event has no identity of its own: each request is a new one (DESIGN §7)
    "create_event": Operation(TOOLKIT, "create_event", "GOOGLECALENDAR_CREATE_EVENT", False, per_draft=True),
}


class _Ops:
    def create_event(
        self,
        *,
        start_iso: str,
        minutes: int,
        summary: str,
        timezone: str,
        calendar_id: str = "primary",
        preview: str,
        attendees: list[str] | None = None,
        description: str | None = None,
    ) -> ToolAction:
        args: dict[str, Any] = {
            "calendar_id": calendar_id,
            "summary": summary,
            "start_datetime": start_iso,
            "event_duration_hour": minutes // 60,
            "event_duration_minutes": minutes % 60,
            "timezone": timezone,
        }
        if attendees:
            args["attendees"] = list(attendees)
        if description:
            args["description"] = description
        return action(
            OPERATIONS["create_event"], args, [calendar_id, start_iso, minutes, digest(summary)], preview
        )

    def list_events(
        self, time_min: str, time_max: str, what: str, calendar_id: str = "primary"
    ) -> ToolAction:
        args = {
            "calendarId": calendar_id,
            "timeMin": time_min,
            "timeMax": time_max,
            "singleEvents": True,
            "orderBy": "startTime",
        }
        return action(OPERATIONS["list_events"], args, [calendar_id, time_min, time_max], what)


ops = _Ops()


def link_for(data: Any) -> str | None:
    """The event's link: `htmlLink` of the event, bare or under Composio's `response_data`."""
    if isinstance(data, dict) and isinstance(data.get("response_data"), dict):
        data = data["response_data"]
    if isinstance(data, dict) and data.get("htmlLink"):
        return str(data["htmlLink"])
    return None
