"""A planner reply (DESIGN §4) as a screen for a phone: short HTML text plus the buttons it needs.

Pure functions over the reply's JSON: no Telegram, no I/O. Buttons carry an `Action` (what a press
means); `keyboards` turns actions into short callback keys. Everything that came from the planner or
from Attio/Linear is escaped: it is data, never markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.i18n import Lang, day_time, tr
from bot.keyboards import Action, Button

__all__ = [
    "FINAL",
    "Screen",
    "draft_row_screen",
    "format_times",
    "progress_screen",
    "reply_screen",
    "voice_screen",
]

Reply = dict[str, Any]

# Telegram caps a message at 4096 characters; leave room for the closing lines and markup.
MAX_TEXT = 3800
FINAL = frozenset({"executed", "partially_executed", "failed", "cancelled", "expired", "not_found"})
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})")
_SHORT_LABEL = 8  # choices this short ("15", "60", "Да") share a row


@dataclass(frozen=True)
class Screen:
    text: str
    buttons: list[list[Button]] = field(default_factory=list)
    question: dict[str, Any] | None = None  # the open question, if this screen asks one


def esc(text: object) -> str:
    return html.escape(str(text), quote=False)


def format_times(text: str, zone: ZoneInfo, lang: Lang) -> str:
    """ISO 8601 moments inside planner text, shown as local wall-clock time in the configured zone
    («пт, 27 нояб., 10:00»; the year too when it is not this year's)."""

    def local(m: re.Match[str]) -> str:
        try:
            moment = datetime.fromisoformat(m.group(0).replace("Z", "+00:00")).astimezone(zone)
        except ValueError:
            return m.group(0)
        return day_time(moment, lang, this_year=datetime.now(zone).year)

    return _ISO.sub(local, text)


def _fit(lines: list[str]) -> str:
    """Join lines, dropping whole lines from the end (never cutting a tag) to stay under the cap."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > MAX_TEXT:
            out.append(f"… (+{len(lines) - i})")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out).strip()


def _link(url: object, lang: Lang) -> str:
    text = str(url or "")
    if not text.startswith(("https://", "http://")):
        return ""
    return f' <a href="{html.escape(text, quote=True)}">{tr(lang, "open")}</a>'


def _risks(reply: Reply, lang: Lang, skip: frozenset[str] = frozenset()) -> list[str]:
    plan = reply.get("plan") or {}
    lines = []
    for risk in plan.get("risks") or []:
        kind = str(risk.get("kind", ""))
        if kind in skip:
            continue
        head = tr(lang, f"risk_{kind}") if f"risk_{kind}" in _RISK_KEYS else kind
        lines.append(f"⚠️ <b>{esc(head)}:</b> {esc(risk.get('details', ''))}")
    return lines


_RISK_KEYS = {
    f"risk_{k}"
    for k in ("bulk", "destructive", "ambiguous", "missing_required", "rate_limit_risk", "past_date")
}


def _steps(draft: dict[str, Any], zone: ZoneInfo, lang: Lang, *, results: bool) -> list[str]:
    lines = []
    for a in draft.get("actions") or []:
        line = f"{int(a.get('index', 0)) + 1}. {esc(format_times(str(a.get('preview', '')), zone, lang))}"
        if results:
            status = str(a.get("status", ""))
            key = f"st_{status}"
            mark = tr(lang, key) if key in _STATUS_KEYS else esc(status)
            line = f"{mark} {line}{_link(a.get('link'), lang)}"
            if a.get("error"):
                line += f"\n    <i>{esc(str(a['error'])[:200])}</i>"
        lines.append(line)
    return lines


_STATUS_KEYS = {
    f"st_{k}" for k in ("succeeded", "already_done", "failed", "skipped", "unknown", "pending", "running")
}


def _until(draft: dict[str, Any], zone: ZoneInfo, lang: Lang) -> str:
    try:
        moment = datetime.fromisoformat(str(draft.get("expires_at", ""))).astimezone(zone)
    except ValueError:
        return ""
    return tr(lang, "draft_until", time=moment.strftime("%H:%M"))


def _count(draft: dict[str, Any]) -> int:
    return len(draft.get("actions") or [])


def draft_row_screen(row: dict[str, Any], zone: ZoneInfo, lang: Lang) -> Screen:
    """A draft of `list_drafts` (id, status, summary, expires_at, actions) with Confirm and Cancel:
    Confirm goes through the planner's confirm_draft, which asks for the count of a bulk draft."""
    try:
        until = datetime.fromisoformat(str(row.get("expires_at", ""))).astimezone(zone).strftime("%H:%M")
    except ValueError:
        until = "?"
    n = int(row.get("actions") or 0)
    draft_id, summary = str(row["id"]), str(row.get("summary", ""))
    text = tr(lang, "draft_row", summary=esc(summary), n=n, time=until)
    buttons = [
        Button(tr(lang, "confirm"), Action("confirm", draft_id=draft_id, count=n, label=summary)),
        Button(tr(lang, "cancel"), Action("cancel", draft_id=draft_id)),
    ]
    return Screen(_fit([text]), [buttons])


def _question_screen(reply: Reply, lang: Lang, *, echo: list[str]) -> Screen:
    plan = reply.get("plan") or {}
    qid = reply.get("question_id")
    asked = next((q for q in plan.get("needs_clarification") or [] if q.get("id") == qid), None)
    question = str(reply.get("clarifying_question") or "")
    lines = [*echo]
    note = str(reply.get("user_message") or "")
    if note and note != question:
        lines.append(esc(note))
    lines.append(f"❓ <b>{esc(question)}</b>")
    choices = reply.get("choices") or []
    free_text = bool(asked.get("free_text_allowed", True)) if asked else True
    if free_text and choices:
        lines.append(f"<i>{tr(lang, 'or_type')}</i>")
    lines.extend(_risks(reply, lang, skip=frozenset({"ambiguous", "missing_required"})))
    buttons = [
        Button(
            str(c.get("label", "")),
            Action(
                "pick",
                plan_id=str(plan.get("plan_id", "")),
                question_id=str(qid or ""),
                value=str(c.get("value", "")),
                label=str(c.get("label", "")),
                prompt=question,
            ),
        )
        for c in choices
    ]
    if buttons and all(len(b.label) <= _SHORT_LABEL for b in buttons):
        rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    else:
        rows = [[b] for b in buttons]
    open_question = {
        "plan_id": plan.get("plan_id"),
        "question_id": qid,
        "free_text_allowed": free_text,
    }
    return Screen(_fit(lines), rows, question=open_question if qid and plan.get("plan_id") else None)


def _draft_screen(reply: Reply, zone: ZoneInfo, lang: Lang, *, echo: list[str]) -> Screen:
    draft = reply.get("draft") or {}
    n = draft.get("bulk_count")
    lines = [*echo, tr(lang, "draft_head"), *_steps(draft, zone, lang, results=False)]
    lines.extend(_risks(reply, lang, skip=frozenset({"bulk"}) if n else frozenset()))
    lines.extend(_already_done(reply, lang))
    if n:
        lines.append(tr(lang, "bulk_note", n=n))
    lines.append(f"<i>{esc(_until(draft, zone, lang))}</i>")
    draft_id, summary = str(draft.get("id", "")), str(draft.get("summary", ""))
    buttons = [
        Button(tr(lang, "confirm"), Action("confirm", draft_id=draft_id, count=_count(draft), label=summary)),
        Button(tr(lang, "cancel"), Action("cancel", draft_id=draft_id)),
    ]
    return Screen(_fit(lines), [buttons])


def _bulk_screen(reply: Reply, zone: ZoneInfo, lang: Lang) -> Screen:
    draft = reply.get("draft") or {}
    n = int(draft.get("bulk_count") or _count(draft))
    lines = [tr(lang, "draft_head"), *_steps(draft, zone, lang, results=False), "", tr(lang, "bulk_ask", n=n)]
    draft_id, summary = str(draft.get("id", "")), str(draft.get("summary", ""))
    buttons = [
        Button(tr(lang, "confirm_n", n=n), Action("count", draft_id=draft_id, count=n, label=summary)),
        Button(tr(lang, "cancel"), Action("cancel", draft_id=draft_id)),
    ]
    return Screen(_fit(lines), [buttons])


def _result_screen(reply: Reply, zone: ZoneInfo, lang: Lang) -> Screen:
    draft = reply.get("draft") or {}
    status = str(reply.get("status"))
    head = {"executed": "done", "partially_executed": "partly", "failed": "failed"}[status]
    return Screen(_fit([tr(lang, head), *_steps(draft, zone, lang, results=True)]))


def _already_done(reply: Reply, lang: Lang) -> list[str]:
    done = [
        r for r in reply.get("results") or [] if isinstance(r, dict) and r.get("status") == "already_done"
    ]
    return [
        f"{tr(lang, 'st_already_done')}: {esc(r.get('preview', ''))}{_link(r.get('link'), lang)}"
        for r in done
    ]


def reply_screen(reply: Reply, zone: ZoneInfo, lang: Lang, *, echo: str | None = None) -> Screen:
    """The screen for any planner reply; `echo` (a voice transcript) is shown first."""
    heard = [tr(lang, "heard", text=esc(echo)), ""] if echo else []
    status = str(reply.get("status"))
    if reply.get("notice") and status == "draft_pending":
        # a draft's screen is built from the draft, not from user_message: say what became of the earlier one
        heard.append(f"<i>{esc(str(reply['notice']))}</i>")
    if status == "needs_clarification" and reply.get("clarifying_question"):
        return _question_screen(reply, lang, echo=heard)
    if status == "draft_pending" and reply.get("draft"):
        return _draft_screen(reply, zone, lang, echo=heard)
    if status == "needs_bulk_confirmation" and reply.get("draft"):
        return _bulk_screen(reply, zone, lang)
    if status in ("executed", "partially_executed", "failed") and reply.get("draft"):
        return _result_screen(reply, zone, lang)
    if status == "cancelled":
        return Screen(tr(lang, "cancelled"))
    if status == "expired":
        return Screen(tr(lang, "expired"))
    if status in ("confirmed", "executing"):
        return Screen(_working(lang, _count(reply.get("draft") or {})))
    message = esc(format_times(str(reply.get("user_message") or ""), zone, lang))
    icon = {"safe_fail": "🤔 ", "failed": "⚠️ ", "not_found": "⚠️ ", "invalid": "⚠️ "}.get(status, "")
    lines = [*heard, icon + (message or tr(lang, "nothing_found")), *_already_done(reply, lang)]
    return Screen(_fit(lines))


def progress_screen(
    lang: Lang, action: Action, *, confirming: bool, done: int = 0, total: int = 0, last: str = ""
) -> Screen:
    """What the draft's message says while the planner works (the keyboard is already gone); with
    `done`/`total`, how far execution has got and the change that finished last."""
    if confirming:
        head = tr(lang, "confirming")
    elif total:
        head = tr(lang, "working_at", done=done, total=total)
    else:
        head = _working(lang, action.count)
    return Screen(_fit([head, esc(action.label), *([esc(last)] if last else [])]))


def _working(lang: Lang, n: int) -> str:
    return tr(lang, "working_n", n=n) if n > 1 else tr(lang, "working")


def voice_screen(transcript: str, lang: Lang, *, ask: bool, action: Action | None = None) -> Screen:
    """The transcript echoed back; when unsure, a yes / "I'll type it" question before planning."""
    lines = [tr(lang, "heard", text=esc(transcript))]
    if not ask or action is None:
        return Screen(_fit([*lines, tr(lang, "heard_bad")]))
    buttons = [Button(tr(lang, "yes"), action), Button(tr(lang, "edit_text"), Action("retype"))]
    return Screen(_fit([*lines, tr(lang, "heard_ask")]), [buttons])
