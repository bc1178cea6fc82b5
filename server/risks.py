"""Risks only the server can see: a date in a draft that is already past by the server's clock.

The planner resolves dates against the `now` it is given, and a model may give a wrong one (the
wrong year drafted an event two years back). The server's clock is the truth, so each write whose
date has passed is flagged, with the date shown in full (weekday and year) for the person to check.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from planner.models import Plan, RiskFlag
from planner.wording import DATE_KEYS, iso_moment, moment

__all__ = ["past_date_risks"]


def _dates(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in DATE_KEYS and isinstance(inner, str):
                yield inner
            else:
                yield from _dates(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _dates(inner)


def past_date_risks(plan: Plan, clock: datetime, zone: str) -> list[RiskFlag]:
    """One `past_date` risk per write whose date is before `clock` (a date: before its day)."""
    tz = ZoneInfo(zone)
    today = clock.astimezone(tz).date()
    risks = []
    for number, action in enumerate(plan.actions, 1):
        if action.read_only:
            continue
        past = []
        for text in _dates(action.args):
            found = iso_moment(text)
            if isinstance(found, datetime):
                late = (found if found.tzinfo else found.replace(tzinfo=tz)) < clock
            else:
                late = found is not None and found < today
            if late:
                past.append(moment(text, plan.language, zone=zone))
        if past:
            shown = ", ".join(past)
            details = (
                f"Шаг {number}: дата уже прошла — {shown}. Проверьте день и год."
                if plan.language == "ru"
                else f"Step {number}: this date has passed — {shown}. Check the day and the year."
            )
            risks.append(RiskFlag(kind="past_date", details=details))
    return risks
