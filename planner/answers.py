"""What a `find` asks of its read's rows: filters the tool could not apply, a limit, and the totals
("сколько", "their sum"), stated in the person's language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Refine", "keep_deal", "keep_issue", "refine"]


@dataclass
class Refine:
    action: int
    object: str
    aggregate: str | None = None
    limit: int | None = None
    filters: dict[str, Any] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # member and user ids -> names
    team: str | None = None  # the team's name, to tell one team's list from another's
    group_by: str | None = None  # "by stage", "per owner": a total per value of this field


def _told_by(spec: Refine, key: str) -> str:
    value = spec.team if key == "team" else spec.filters.get(key)
    return str(value) if value else ""


def _rows_in(data: Any) -> tuple[list[dict[str, Any]], Any]:
    """The row list inside a tool's `data`, and where it sits: the list itself or (container, key)."""
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)], data
    if isinstance(data, dict):
        for key in ("issues", "data", "items", "results", "nodes", "events", "tasks", "notes"):
            value = data.get(key)
            if isinstance(value, list):
                return [x for x in value if isinstance(x, dict)], (data, key)
            if isinstance(value, dict):
                rows, where = _rows_in(value)
                if where is not None:
                    return rows, where
    return [], None


def _first(values: dict[str, Any], key: str, sub: str) -> Any:
    seq = values.get(key) or []
    if isinstance(seq, list) and seq and isinstance(seq[0], dict):
        return seq[0].get(sub)
    return None


def _deal(row: dict[str, Any]) -> dict[str, Any]:
    v = row.get("values") or {}
    status = _first(v, "stage", "status")
    return {
        "stage": (status or {}).get("title") if isinstance(status, dict) else None,
        "owner": _first(v, "owner", "referenced_actor_id"),
        "company": _first(v, "associated_company", "target_record_id"),
        "amount": _first(v, "value", "currency_value"),
        "currency": _first(v, "value", "currency_code"),
        "name": _first(v, "name", "value"),
    }


def keep_deal(row: dict[str, Any], f: dict[str, Any]) -> bool:
    d = _deal(row)
    if f.get("stage") and (d["stage"] or "").lower() != str(f["stage"]).lower():
        return False
    if f.get("open") and (d["stage"] or "") in ("Won", "Lost"):
        return False
    if f.get("owner") and d["owner"] != f["owner"]:
        return False
    if f.get("currency") and str(d["currency"] or "").upper() != f["currency"]:
        return False
    return not (f.get("company") and d["company"] != f["company"])


def keep_issue(row: dict[str, Any], f: dict[str, Any]) -> bool:
    state = row.get("state") or {}
    if f.get("state") == "open":
        if state.get("type") in ("completed", "canceled"):
            return False
    elif f.get("state") and str(state.get("name", "")).lower() != f["state"]:
        return False
    if f.get("label"):
        names = {str(x.get("name", "")).lower() for x in _labels(row)}
        if str(f["label"]).lower() not in names:
            return False
    if f.get("priority") and row.get("priority") != f["priority"]:
        return False
    if f.get("unassigned") and row.get("assignee"):
        return False
    if f.get("assignee") and (row.get("assignee") or {}).get("id") != f["assignee"]:
        return False
    if f.get("team") and (row.get("team") or {}).get("id") != f["team"]:
        return False
    if str(row.get("identifier") or "").upper() in f.get("exclude", ()):
        return False
    due = row.get("dueDate")
    if f.get("no_due") and due:
        return False
    if f.get("has_due") and not due:
        return False
    if f.get("no_project") and row.get("project"):
        return False  # "issues with no project"
    if f.get("due_before") and not (due and due[:10] <= f["due_before"]):
        return False
    if f.get("due_after") and not (due and due[:10] >= f["due_after"]):
        return False
    return not (f.get("text") and str(f["text"]).lower() not in str(row.get("title", "")).lower())


def _labels(row: dict[str, Any]) -> list[dict[str, Any]]:
    labels = row.get("labels") or []
    if isinstance(labels, dict):
        labels = labels.get("nodes") or []
    return [x for x in labels if isinstance(x, dict)]


def _money(n: float) -> str:
    whole = int(n) if float(n).is_integer() else n
    return f"{whole:,}".replace(",", "\u00a0")


def _deal_sums(rows: list[dict[str, Any]]) -> dict[str, float]:
    sums: dict[str, float] = {}
    for row in rows:
        d = _deal(row)
        if isinstance(d["amount"], int | float):
            sums[str(d["currency"] or "")] = sums.get(str(d["currency"] or ""), 0.0) + d["amount"]
    return sums


def _said_sum(sums: dict[str, float]) -> str:
    return " + ".join(f"{_money(v)} {k}".strip() for k, v in sorted(sums.items())) or "0"


def _totals(spec: Refine, rows: list[dict[str, Any]], lang: str, *, several: bool = False) -> list[str]:
    lines: list[str] = []
    ru = lang == "ru"
    if spec.aggregate == "count" or spec.aggregate and spec.aggregate.startswith("sum"):
        lines.append(f"Найдено: {len(rows)}" if ru else f"Found: {len(rows)}")
    if spec.aggregate and spec.aggregate.startswith("sum") and spec.object == "deals":
        total = _said_sum(_deal_sums(rows))
        lines.append(f"Сумма: {total}" if ru else f"Total: {total}")
    if spec.group_by:  # "who's overloaded?", "pipeline by stage", «задачи по приоритетам»: per value
        if not lines:
            lines.append(f"Найдено: {len(rows)}" if ru else f"Found: {len(rows)}")
        lines += _per_group(spec, rows, ru)
    if spec.object == "deals" and len(rows) == 1 and spec.names and not several:  # "who owns …": one deal
        d = _deal(rows[0])
        owner = spec.names.get(str(d["owner"]))
        if owner:
            lines.append(f"Ответственный: {owner}" if ru else f"Owner: {owner}")
    return lines


_NONE = {  # a row without the field: said as what it lacks
    "owner": ("без ответственного", "no owner"),
    "company": ("без компании", "no company"),
    "assignee": ("не назначены", "unassigned"),
    "label": ("без метки", "no label"),
    "project": ("без проекта", "no project"),
}


_LEVELS = ("Urgent", "High", "Medium", "Low", "No priority")


def _group_keys(spec: Refine, row: dict[str, Any]) -> list[str]:
    """The value(s) of the grouped field in one row, as a person reads them (a label each)."""
    g = spec.group_by
    if spec.object == "deals":
        d = _deal(row)
        value = spec.names.get(str(d[g]), None) if g in ("owner", "company") else d.get(g or "")
        return [str(value)] if value else []
    if g == "label":
        return [str(x.get("name")) for x in _labels(row) if x.get("name")]
    if g == "priority":
        return [str(row.get("priorityLabel") or "")] if row.get("priorityLabel") else []
    value = row.get(g or "") or {}
    return [str(value.get("name"))] if isinstance(value, dict) and value.get("name") else []


def _per_group(spec: Refine, rows: list[dict[str, Any]], ru: bool) -> list[str]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        none = _NONE.get(spec.group_by or "", ("—", "—"))[0 if ru else 1]
        for key in _group_keys(spec, row) or [none]:
            groups.setdefault(key, []).append(row)
    lines = []

    def order(item: tuple[str, list[dict[str, Any]]]) -> tuple[int, int, str]:
        level = _LEVELS.index(item[0]) if item[0] in _LEVELS else len(_LEVELS)
        return (level, -len(item[1]), item[0])  # priorities from the most urgent; else the largest first

    for key, members in sorted(groups.items(), key=order):
        line = f"{key}: {len(members)}"
        if spec.object == "deals":  # a pipeline's breakdown is its money as much as its count
            line += f" · {_said_sum(_deal_sums(members))}"
        lines.append(line)
    return lines


def refine(results: list[dict[str, Any]], specs: list[Refine], lang: str) -> list[str]:
    """Filters and limits each find's rows in place (the reply shows what was asked for) and returns
    the lines that state totals and owners."""
    lines: list[str] = []
    summed: list[dict[str, Any]] = []  # several deal lists summed: their sum together too
    # several lists: each total is named by what tells them apart ("Engineering: 6", "Lead: 1")
    varying = [
        k
        for k in ("team", "stage", "label", "state", "assignee", "owner", "project", "currency")
        if len({_told_by(s, k) for s in specs}) > 1
    ] or ["stage", "label", "state"]
    # several finds may read one list ("in rubles and in dollars": one read of the deals): each filters the
    # rows as read, and the list shown is what any of them kept
    read: dict[int, list[dict[str, Any]]] = {}
    shown: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
    for spec in specs:
        if spec.action >= len(results) or not results[spec.action].get("ok", True):
            continue
        entry = results[spec.action]
        rows, where = _rows_in(entry.get("data"))
        rows = read.setdefault(spec.action, rows)
        data = entry.get("data")
        if where is None and isinstance(data, dict):  # one record: {"data": {...}} or the record itself
            inner = data.get("data")
            one: dict[str, Any] = inner if isinstance(inner, dict) else data
            rows = [one] if one.get("id") or one.get("values") else []
        keep = keep_deal if spec.object == "deals" else keep_issue if spec.object == "issues" else None
        if keep is not None and spec.filters:
            rows = [r for r in rows if keep(r, spec.filters)]
        if spec.limit:
            rows = rows[: spec.limit]
        kept = shown.setdefault(spec.action, (where, []))[1]
        kept += [r for r in rows if not any(r is k for k in kept)]
        said = _totals(spec, rows, lang, several=len(specs) > 1)
        which = next((_told_by(spec, k) for k in varying if _told_by(spec, k)), "")
        lines += [f"{which}: {line}" for line in said] if len(specs) > 1 and which else said
        if spec.aggregate and spec.aggregate.startswith("sum") and spec.object == "deals":
            summed.append({"rows": rows})
    for where, rows in shown.values():
        if isinstance(where, tuple):
            where[0][where[1]] = rows
        elif isinstance(where, list):
            where[:] = rows
    if len(summed) > 1:  # «Лиды и квалификация — на какую сумму?»: each stage's, then both
        both = _said_sum(_deal_sums([r for s in summed for r in s["rows"]]))
        lines.append(f"Всего: {both}" if lang == "ru" else f"Altogether: {both}")
    return lines
