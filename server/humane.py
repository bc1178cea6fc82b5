"""Dates and amounts the way a person reads them, in one format everywhere the server writes them:
«пт, 27 нояб. 2026, 10:00» / "Fri, 27 Nov 2026, 10:00", «50 000 USD»."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

__all__ = ["DATE_KEYS", "day", "iso_moment", "money", "moment"]

_WEEKDAYS = {
    "ru": ("пн", "вт", "ср", "чт", "пт", "сб", "вс"),
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
}
_MONTHS = {
    "ru": ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
# Argument names that carry a date a person chose (Linear, Attio, Google Calendar), wherever nested.
DATE_KEYS = frozenset(
    {"start_datetime", "dueDate", "due_date", "deadline_at", "target_date", "targetDate", "startDate"}
)


def iso_moment(value: Any) -> date | datetime | None:
    """A date or datetime written in ISO 8601 (`2026-11-27`, `2026-11-27T10:00:00+03:00`), else None."""
    if not isinstance(value, str) or not _ISO.match(value.strip()):
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def day(d: date, lang: str, *, year: bool = True) -> str:
    """«пт, 27 нояб. 2026» / "Fri, 27 Nov 2026"; without the year when `year` is false."""
    key = "ru" if lang == "ru" else "en"
    text = f"{_WEEKDAYS[key][d.weekday()]}, {d.day} {_MONTHS[key][d.month - 1]}"
    return f"{text} {d.year}" if year else text


def moment(value: Any, lang: str, *, zone: str | None = None, today: date | None = None) -> str:
    """An ISO date or datetime as a person reads it; anything else comes back as it was.

    The year is shown unless the moment falls in `today`'s year (so a date a year off never hides),
    and a moment on `today` itself is just its time. Datetimes are shown in `zone` when given."""
    found = iso_moment(value)
    if found is None:
        return str(value)
    if isinstance(found, datetime):
        if zone and found.tzinfo is not None:
            found = found.astimezone(ZoneInfo(zone))
        clock = found.strftime("%H:%M")
        if today is not None and found.date() == today:
            return clock
        return f"{day(found.date(), lang, year=today is None or found.year != today.year)}, {clock}"
    return day(found, lang, year=today is None or found.year != today.year)


def money(amount: Any, currency: Any = "") -> str:
    """«50 000 USD», «1 250.5 EUR»: thousands apart by a no-break space, one format for all."""
    try:
        value = float(amount)
    except (TypeError, ValueError):
        return f"{amount} {currency}".strip()
    whole = f"{value:,.2f}".rstrip("0").rstrip(".").replace(",", "\u00a0")
    return f"{whole} {currency or ''}".strip()
