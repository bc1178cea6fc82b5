"""Helpers shared by the sandbox's toolkit modules."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

Workspace = dict[str, Any]
Args = Mapping[str, Any]
Handler = Callable[[Workspace, Args], Any]

# Records that come from the fixture carry no timestamps; give them one fixed, plausible moment.
SEED_TIMESTAMP = "2026-11-02T09:00:00.000Z"

UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


class SandboxError(Exception):
    """A business failure the sandbox reports as `successful: False` (message shown as `error`)."""


def now_iso() -> str:
    """The current UTC time as the APIs print it: `2026-11-25T09:00:00.123Z`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id() -> str:
    return str(uuid.uuid4())


def first_match(items: Iterable[dict[str, Any]], key: str, value: Any) -> dict[str, Any] | None:
    for item in items:
        if item.get(key) == value:
            return item
    return None


def page(items: list[Any], *, offset: int = 0, limit: int | None = None) -> list[Any]:
    if offset < 0:
        raise SandboxError("offset must not be negative")
    if limit is not None and limit < 0:
        raise SandboxError("limit must not be negative")
    end = None if limit is None else offset + limit
    return items[offset:end]


def cursor_page(
    items: list[dict[str, Any]], *, first: int | None, after: str | None, default_first: int = 50
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Relay-style paging over `items` (each has an "id"); the cursor is the last item's id."""
    start = 0
    if after:
        positions = [index for index, item in enumerate(items) if item["id"] == after]
        if not positions:
            raise SandboxError(f"Invalid cursor '{after}'")
        start = positions[0] + 1
    size = default_first if first is None else first
    chunk = items[start : start + size]
    info = {
        "hasNextPage": start + size < len(items),
        "endCursor": chunk[-1]["id"] if chunk else None,
    }
    return chunk, info


def text_matches_all_words(query: str, haystacks: Iterable[str | None]) -> bool:
    """Every whitespace-separated word of `query` occurs (case-insensitively) in one of `haystacks`."""
    text = " ".join(h for h in haystacks if h).casefold()
    return all(word in text for word in query.casefold().split())


def parse_iso_datetime(value: str, field: str) -> datetime:
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        raise SandboxError(f"{field} must be an ISO 8601 date-time, got an unreadable value") from None
