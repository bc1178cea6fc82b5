"""Words a person reads, in one format wherever the planner or the server writes them: dates
«пт, 27 нояб. 2026, 10:00» / "Fri, 27 Nov 2026, 10:00", amounts «50 000 USD», deal stages in the
person's language («Переговоры»), record fields by name («должность», not `job_title`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from planner._lazy_re import LazyRe

__all__ = ["DATE_KEYS", "changes_ru", "day", "field_name", "iso_moment", "money", "moment", "stage_name"]

_WEEKDAYS = {
    "ru": ("пн", "вт", "ср", "чт", "пт", "сб", "вс"),
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
}
_MONTHS = {
    "ru": ("янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}
_ISO = LazyRe(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
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


def stage_name(stage: str, lang: str, aliases: dict[str, list[str]]) -> str:
    """A deal stage as a Russian reader calls it («Переговоры» for Negotiation): the workspace's first
    Russian alias; the stage's own name in English or when it has none."""
    said = aliases.get(stage) or []
    return said[0][:1].upper() + said[0][1:] if lang == "ru" and said else stage


_FIELDS = {
    "job_title": ("должность", "job title"), "description": ("описание", "description"), "name": ("название", "name"),
    "domains": ("домен", "domain"), "email_addresses": ("email", "email"), "value": ("сумма", "amount"),
    "owner": ("ответственный", "owner"), "stage": ("стадия", "stage"), "title": ("название", "title"),
    "dueDate": ("срок", "due date"), "assigneeId": ("исполнитель", "assignee"), "company": ("компания", "company"),
}  # fmt: skip


def field_name(attribute: str, lang: str) -> str:
    """An API attribute as words («должность» for job_title), never the API's name."""
    ru, en = _FIELDS.get(attribute, (attribute.replace("_", " "), attribute.replace("_", " ")))
    return ru if lang == "ru" else en


def changes_ru(n: int) -> str:
    """«1 изменение», «3 изменения», «7 изменений», «21 изменение»: the noun agrees with the number."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} изменение"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} изменения"
    return f"{n} изменений"
