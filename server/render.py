"""Short, readable messages for a person: previews, query answers, execution results."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from drafts import Draft
from planner.models import Plan
from planner.wording import changes_ru, iso_moment, moment, money

__all__ = [
    "already_done_lines",
    "count_rows",
    "draft_message",
    "draft_steps",
    "execution_message",
    "query_message",
    "t",
    "when",
]


def t(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def when(value: Any, lang: str, *, zone: str | None = None) -> str:
    """A moment in a reply («пт, 27 нояб., 10:00»; just the time today), in `zone` (default: as given)."""
    try:
        today = datetime.now(ZoneInfo(zone) if zone else UTC).date()
    except (ZoneInfoNotFoundError, ValueError):
        today, zone = datetime.now(UTC).date(), None
    return moment(value, lang, zone=zone, today=today)


def draft_steps(draft: Draft) -> list[dict[str, Any]]:
    """Each step of a draft as a card shows it: its system, what it changes, and its outcome."""
    return [
        {
            "index": a.index,
            "system": {"attio": "Attio", "linear": "Linear", "googlecalendar": "Google Calendar"}.get(
                a.toolkit, a.toolkit
            ),
            "operation": a.operation,
            "change": a.preview,
            "status": a.status,
            "link": a.link,
            "error": a.error,
        }
        for a in draft.actions
    ]


def already_done_lines(done: list[dict[str, Any]], lang: str) -> list[str]:
    """Changes a new request asked for again that were done before, each with its link."""
    head = t(lang, "уже сделано", "already done")
    return [f"✓ {d.get('preview', '')} — {head}" + (f" {d['link']}" if d.get("link") else "") for d in done]


def _rows(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)]
    if isinstance(data, dict) and data.get("identifier"):
        return [data]  # one issue (its "labels" list is not the answer)
    if isinstance(data, dict):
        for key in ("issues", "data", "items", "teams", "projects", "users", "labels", "states"):
            v = data.get(key)
            if isinstance(v, list):
                return [x for x in v if isinstance(x, dict)]
            if isinstance(v, dict):
                return [v]
        if data.get("id"):
            return [data]
    return []


def count_rows(result: dict[str, Any]) -> int:
    """How many rows one read returned (a list of projects, members, issues)."""
    return len(_rows(result.get("data"))) if result.get("ok", True) else 0


def _first(values: dict[str, Any], key: str, sub: str = "value") -> Any:
    seq = values.get(key) or []
    if isinstance(seq, list) and seq and isinstance(seq[0], dict):
        return seq[0].get(sub)
    return None


def _line(row: dict[str, Any], lang: str, zone: str | None, stage_label: Callable[[str, str], str]) -> str:
    if "identifier" in row:
        state = (row.get("state") or {}).get("name", "")
        who = (row.get("assignee") or {}).get("name", "")
        due = row.get("dueDate")  # a date: shown as it is, no zone
        # the weekday for a person, the ISO date (DESIGN §9) for anyone who copies it on
        said_due = f"{when(due, lang)} ({due})" if iso_moment(due) else str(due or "")
        bits = [b for b in (state, who, t(lang, "срок ", "due ") + said_due if due else "") if b]
        return f"{row['identifier']} {row.get('title', '')}" + (f" — {', '.join(bits)}" if bits else "")
    values = row.get("values")
    if isinstance(values, dict):
        name = _first(values, "name") or _first(values, "name", "full_name") or ""
        stage = (_first(values, "stage", "status") or {}).get("title", "") if values.get("stage") else ""
        stage = stage_label(stage, lang) if stage else ""
        amount = _first(values, "value", "currency_value")
        cur = _first(values, "value", "currency_code") or ""
        role = _first(values, "job_title") or ""  # a person: who they are and how to reach them
        email = _first(values, "email_addresses", "email_address") or ""
        domain = _first(values, "domains", "domain") or ""
        bits = [b for b in (stage, money(amount, cur) if amount else "", role, email, domain) if b]
        return str(name) + (f" — {', '.join(bits)}" if bits else "")
    if "first_name" in row or "email_address" in row:  # an Attio workspace member
        name = " ".join(str(row.get(k) or "") for k in ("first_name", "last_name")).strip()
        return " — ".join(str(b) for b in (name, row.get("email_address")) if b)
    if "summary" in row and "start" in row:
        start = (row.get("start") or {}).get("dateTime") or (row.get("start") or {}).get("date", "")
        return f"{when(start, lang, zone=zone)} {row.get('summary', '')}"
    if "record_text" in row:
        return str(row["record_text"])
    if "content_plaintext" in row:
        return str(row["content_plaintext"])[:200]
    if row.get("key") and row.get("name"):  # a Linear team: its name and the key its issues carry
        return f"{row['name']} ({row['key']})"
    return str(row.get("name") or row.get("title") or row.get("id") or "")


def _issue_details(row: dict[str, Any], lang: str) -> list[str]:
    """What one issue holds beyond its line: its team, priority, project, labels."""
    details = []
    if isinstance(row.get("team"), dict) and row["team"].get("name"):
        details.append(t(lang, f"команда: {row['team']['name']}", f"team: {row['team']['name']}"))
    if row.get("priorityLabel") and row.get("priority"):
        label = str(row["priorityLabel"])
        ru = {"Urgent": "срочный", "High": "высокий", "Medium": "средний", "Low": "низкий"}.get(label, label)
        details.append(t(lang, f"приоритет: {ru} ({label})", f"priority: {label}"))
    if isinstance(row.get("project"), dict) and row["project"].get("name"):
        details.append(t(lang, f"проект: {row['project']['name']}", f"project: {row['project']['name']}"))
    labels = [str(x["name"]) for x in row.get("labels") or [] if isinstance(x, dict) and x.get("name")]
    if labels:
        details.append(t(lang, "метки: ", "labels: ") + ", ".join(labels))
    return [f"  {'; '.join(details)}"] if details else []


def query_message(
    plan: Plan,
    results: list[dict[str, Any]],
    stage_label: Callable[[str, str], str] = lambda stage, _lang: stage,
) -> str:
    lang = plan.language
    lines: list[str] = []
    for r in results:
        if not r.get("ok", True):
            lines.append(t(lang, f"Не удалось: {r.get('error')}", f"Failed: {r.get('error')}"))
            continue
        rows = _rows(r.get("data"))
        if not rows:
            lines.append(t(lang, "Ничего не найдено.", "Nothing found."))
            continue
        lines.extend(f"• {_line(row, lang, plan.timezone, stage_label)}" for row in rows[:15])
        if len(rows) == 1 and "identifier" in rows[0]:  # one issue asked about: all it holds
            lines.extend(_issue_details(rows[0], lang))
        if len(rows) > 15:
            lines.append(t(lang, f"…и ещё {len(rows) - 15}", f"…and {len(rows) - 15} more"))
    return "\n".join(lines)[:3500]


def draft_message(plan: Plan, draft: Draft, notes: str = "", done: list[dict[str, Any]] | None = None) -> str:
    lang = plan.language
    steps = "\n".join(f"{a.index + 1}. {a.preview}" for a in draft.actions)
    # One bulk warning: the count line below says it; the planner's bulk risk would say it again.
    risks = "\n".join(f"⚠ {r.details}" for r in plan.risks if not (draft.bulk_count and r.kind == "bulk"))
    earlier = "\n".join(already_done_lines(done or [], lang))
    head = t(
        lang,
        "Черновик — ничего не изменено, пока вы не подтвердите:",
        "Draft - nothing changes until you confirm:",
    )
    ask = t(lang, "Подтвердить?", "Confirm?")
    if draft.bulk_count:
        n = draft.bulk_count
        ask = t(
            lang,
            f"⚠ Это {changes_ru(n)} сразу: после «да» нужно будет написать число {n}.",
            f"⚠ That is {n} changes at once: after your yes you will type the number {n}.",
        )
    expires = when(draft.expires_at, lang, zone=plan.timezone)
    until = t(lang, f"Черновик действует до {expires}.", f"The draft is valid until {expires}.")
    return "\n".join(x for x in (notes, head, steps, risks, earlier, ask, until) if x)


def execution_message(draft: Draft) -> str:
    lang = draft.language
    labels = {
        "succeeded": ("готово", "done"), "already_done": ("уже было сделано", "already done"),
        "failed": ("ошибка", "failed"), "skipped": ("пропущено", "skipped"),
        "unknown": ("результат неизвестен — проверьте", "outcome unknown - please check"),
        "pending": ("не выполнялось", "not run"), "running": ("выполняется", "running"),
    }  # fmt: skip
    lines = []
    for a in draft.actions:
        ru, en = labels.get(a.status, (a.status, a.status))
        line = f"{a.index + 1}. {a.preview} — {t(lang, ru, en)}"
        if a.link:
            line += f" {a.link}"
        if a.error:
            line += f" ({a.error[:200]})"
        lines.append(line)
    head = {
        "executed": t(lang, "Выполнено:", "Done:"),
        "partially_executed": t(lang, "Выполнено частично:", "Partly done:"),
        "failed": t(lang, "Не выполнено:", "Not done:"),
    }.get(draft.status, draft.status)
    if any(a.status == "unknown" for a in draft.actions):  # DESIGN §7: the person decides, knowingly
        lines.append(
            t(
                lang,
                "Если там этого нет, напишите «отправь всё равно» — отправлю заново.",
                'If it is not there, say "send it anyway" and I will send it again.',
            )
        )
    return "\n".join([head, *lines])
