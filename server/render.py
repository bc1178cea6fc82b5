"""Short, readable messages for a person: previews, query answers, execution results."""

from __future__ import annotations

from typing import Any

from drafts import Draft
from planner.models import Plan

__all__ = ["draft_message", "execution_message", "query_message", "t"]


def t(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


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


def _first(values: dict[str, Any], key: str, sub: str = "value") -> Any:
    seq = values.get(key) or []
    if isinstance(seq, list) and seq and isinstance(seq[0], dict):
        return seq[0].get(sub)
    return None


def _line(row: dict[str, Any]) -> str:
    if "identifier" in row:
        state = (row.get("state") or {}).get("name", "")
        who = (row.get("assignee") or {}).get("name", "")
        due = row.get("dueDate")
        bits = [b for b in (state, who, f"due {due}" if due else "") if b]
        return f"{row['identifier']} {row.get('title', '')}" + (f" — {', '.join(bits)}" if bits else "")
    values = row.get("values")
    if isinstance(values, dict):
        name = _first(values, "name") or _first(values, "name", "full_name") or ""
        stage = (_first(values, "stage", "status") or {}).get("title", "") if values.get("stage") else ""
        amount = _first(values, "value", "currency_value")
        cur = _first(values, "value", "currency_code") or ""
        bits = [b for b in (stage, f"{amount:,} {cur}".replace(",", " ") if amount else "") if b]
        return str(name) + (f" — {', '.join(bits)}" if bits else "")
    if "summary" in row and "start" in row:
        return f"{(row.get('start') or {}).get('dateTime', '')} {row.get('summary', '')}"
    if "record_text" in row:
        return str(row["record_text"])
    if "content_plaintext" in row:
        return str(row["content_plaintext"])[:200]
    return str(row.get("name") or row.get("title") or row.get("id") or "")


def query_message(plan: Plan, results: list[dict[str, Any]]) -> str:
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
        lines.extend(f"• {_line(row)}" for row in rows[:15])
        if len(rows) > 15:
            lines.append(t(lang, f"…и ещё {len(rows) - 15}", f"…and {len(rows) - 15} more"))
    return "\n".join(lines)[:3500]


def draft_message(plan: Plan, draft: Draft, notes: str = "") -> str:
    lang = plan.language
    steps = "\n".join(f"{a.index + 1}. {a.preview}" for a in draft.actions)
    risks = "\n".join(f"⚠ {r.details}" for r in plan.risks)
    head = t(
        lang,
        "Черновик — ничего не изменено, пока вы не подтвердите:",
        "Draft - nothing changes until you confirm:",
    )
    ask = t(lang, "Подтвердить?", "Confirm?")
    if draft.bulk_count:
        ask = t(
            lang,
            f"Это {draft.bulk_count} изменений: подтверждение числом {draft.bulk_count}.",
            f"That is {draft.bulk_count} changes: you will confirm by typing {draft.bulk_count}.",
        )
    return "\n".join(x for x in (notes, head, steps, risks, ask) if x)


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
