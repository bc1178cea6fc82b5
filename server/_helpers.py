"""Small pure helpers of the service: choice matching, re-asking, parsing `now`, summarising calls."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from planner.dialogue import position_of
from planner.models import Plan
from server.replies import Reply

__all__ = ["call_summary", "command_text", "issue_rows", "lang_of", "match_choice", "parse_now", "reask"]


def reask(state: dict[str, Any], message: str) -> Reply:
    q = state["open_question"]
    return Reply(
        ok=False,
        status="needs_clarification",
        clarifying_question=q["question"],
        question_id=q["id"],
        choices=q.get("choices", []),
        user_message=message,
        plan=Plan.model_validate(state["plan"]) if state.get("plan") else None,
    )


def match_choice(answer: str, choices: list[dict[str, str]]) -> str | None:
    """A choice by value, by label, by its position in the list ("2", "the second one", «вторую»,
    "last one"), or by the start of its label; "to won" / «в выигранные» name the label after a
    preposition and in another form of the word."""
    chosen = _match_choice(answer, choices)
    if chosen is None and (bare := _LEADING_PREPOSITION.sub("", answer.strip())) != answer.strip() and bare:
        chosen = _match_choice(bare, choices)
    return chosen


# "to Won", "into Proposal", "as lost", «в выигранные», «на Макса»: the answer names the choice after it
_LEADING_PREPOSITION = re.compile(r"(?i)^(?:to|into|in|as|for|в|во|на|к|ко|как)\s+")


def _match_choice(answer: str, choices: list[dict[str, str]]) -> str | None:
    low = answer.lower()
    for c in choices:
        if answer == c["value"] or low == c["label"].lower():
            return c["value"]
    numeric_values = any(c["value"].isdigit() for c in choices)  # "3" is then a value, not a position
    if not (numeric_values and re.fullmatch(r"#?[0-9]{1,3}", answer.strip())):
        position = position_of(answer, len(choices))
        if position is not None:
            return choices[position]["value"]
    starts = [c["value"] for c in choices if c["label"].lower().startswith(low)]
    if len(starts) == 1:
        return starts[0]
    contains = [c["value"] for c in choices if len(low) >= 3 and low in c["label"].lower()]
    if len(contains) == 1:
        return contains[0]
    return _by_sound(answer, choices) or _by_stem(low, choices)


def _by_stem(low: str, choices: list[dict[str, str]]) -> str | None:
    """«выигранные» picks «Выиграна», «квалификацию» «Квалификация»: one word whose first six letters
    begin exactly one label (a Russian word's ending changes with how it is said)."""
    if not re.fullmatch(r"[^\W\d_]{6,}", low):
        return None
    hits = [c["value"] for c in choices if c["label"].lower().startswith(low[:6])]
    return hits[0] if len(hits) == 1 else None


def _by_sound(answer: str, choices: list[dict[str, str]]) -> str | None:
    """ "Олег" picks "Oleg Ivanov": every word of the answer sounds like a word of exactly one label."""
    from planner.resolve import keys_for, match_words

    wanted = [k for k in keys_for(answer) if len(k.text) > 1]
    if not wanted:
        return None
    hits = [c["value"] for c in choices if match_words(wanted, keys_for(c["label"]))]
    return hits[0] if len(hits) == 1 else None


def issue_rows(data: Any) -> list[dict[str, Any]]:
    rows = data.get("issues") if isinstance(data, dict) else None
    if isinstance(data, dict) and data.get("identifier"):
        rows = [data]
    return [r for r in rows or [] if isinstance(r, dict) and r.get("identifier")]


def call_summary(a: Any) -> dict[str, Any]:
    return {"tool_slug": a.tool_slug, "operation": a.operation, "idempotency_scope": a.idempotency_scope}


def lang_of(text: str) -> str:
    from planner.text import detect_language

    return detect_language(text[:20_000])


def command_text(command: Any) -> str:
    try:
        return "[command] " + json.dumps(command, ensure_ascii=False)[:500]
    except (TypeError, ValueError):
        return "[command]"


def parse_now(now: str | None, tz: ZoneInfo) -> datetime | None:
    if now is None:
        return None
    try:
        dt = datetime.fromisoformat(str(now)[:64].replace("Z", "+00:00"))
        return dt.replace(tzinfo=tz) if dt.tzinfo is None else dt.astimezone(tz)
    except (ValueError, OverflowError):  # "9999-12-31T23:59:59-14:00" is past year 9999 in UTC
        return None
