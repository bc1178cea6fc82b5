"""Which store a deployment gets: `open_store(target)` picks SQLite or PostgreSQL, and `DraftStore`
is the interface both implement (what the server, the executor and recovery rely on).

The PostgreSQL store is imported only when a `postgresql://` URL is given, so a single-process
install on SQLite never loads psycopg (an optional extra: `pip install planner-mcp[postgres]`).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from drafts.executor import ExecutionStore
from drafts.journal import CALLBACK_LEASE_S, LedgerEntry
from drafts.models import Draft
from drafts.store import SqliteStore, StaleClaim
from toolkits.base import ToolAction
from toolkits.postgres import is_postgres_url

if TYPE_CHECKING:
    from drafts.pg_store import PgStore

__all__ = ["DraftStore", "open_store"]


class DraftStore(ExecutionStore, Protocol):
    """Every method of `SqliteStore` and `PgStore`, with the same semantics on both (the store
    test suite runs against each)."""

    async def close(self) -> None: ...

    async def save_plan(
        self, plan_id: str, user_id: str, conversation_id: str | None, state: dict[str, Any], ttl_s: float
    ) -> None: ...

    async def load_plan(self, plan_id: str, user_id: str) -> dict[str, Any] | None: ...

    async def update_plan(
        self, plan_id: str, user_id: str, state: dict[str, Any], *, ttl_s: float | None = None
    ) -> bool: ...

    async def create_draft(
        self,
        *,
        user_id: str,
        conversation_id: str | None,
        plan_id: str,
        summary: str,
        language: str,
        actions: list[ToolAction],
        bulk_count: int | None,
        ttl_s: float,
        now: datetime,
    ) -> Draft: ...

    async def list_drafts(self, user_id: str, *, open_only: bool = True, limit: int = 50) -> list[Draft]: ...

    async def open_beyond(self, user_id: str, keep: int) -> list[Draft]: ...

    async def pending_in_conversation(self, user_id: str, conversation_id: str) -> Draft | None: ...

    async def transition(
        self, draft_id: str, user_id: str, from_states: Iterable[str], to_state: str
    ) -> bool: ...

    async def stuck_drafts(
        self, older_than_s: float, *, now: datetime | None = None
    ) -> list[tuple[str, str]]: ...

    async def take_over(
        self, draft_id: str, user_id: str, older_than_s: float, *, now: datetime | None = None
    ) -> bool: ...

    async def stale_claims(self, older_than_s: float, *, now: datetime | None = None) -> list[StaleClaim]: ...

    async def draft_events(self, draft_id: str, user_id: str) -> list[dict[str, str]]: ...

    async def prune(
        self,
        *,
        callback_max_age_s: float = 48 * 3600,
        unconfirmed_max_age_s: float = ...,
        finished_max_age_s: float = ...,
    ) -> int: ...

    async def ledger_claim(self, scope: str, draft_id: str, index: int, payload_sha: str) -> LedgerEntry: ...

    async def ledger_finish(
        self,
        scope: str,
        state: Literal["succeeded", "failed", "unknown"],
        result: Any = None,
        error: str | None = None,
        *,
        draft_id: str | None = None,
    ) -> bool: ...

    async def ledger_lookup(self, scopes: Sequence[str]) -> dict[str, LedgerEntry]: ...

    async def callback_begin(
        self, user_id: str, callback_id: str, tool: str
    ) -> tuple[bool, dict[str, Any] | None]: ...

    async def callback_finish(self, user_id: str, callback_id: str, reply: dict[str, Any]) -> bool: ...

    async def callback_abandon(self, user_id: str, callback_id: str) -> None: ...

    async def callback_get(self, user_id: str, callback_id: str) -> dict[str, Any] | None: ...

    async def callback_renew(self, user_id: str, callback_id: str) -> bool: ...

    async def callback_wait(
        self, user_id: str, callback_id: str, *, timeout_s: float = 5.0, interval_s: float = 0.05
    ) -> dict[str, Any] | None: ...

    async def audit(
        self,
        *,
        user_id: str,
        conversation_id: str | None,
        input_message: str,
        intent: str | None,
        decision: str,
        tool_calls: list[dict[str, Any]] | None,
        response_preview: str | None,
        now: datetime | None = None,
        producer: str | None = None,
    ) -> None: ...

    async def read_audit(self, user_id: str, limit: int = 50) -> list[dict[str, Any]]: ...

    # -- for an operator (drafts.operator / drafts._pg_operator) --
    async def ready(self) -> bool: ...

    async def draft_counts(self) -> dict[str, int]: ...

    def export_audit(
        self, *, since: datetime | None = None, user_id: str | None = None
    ) -> AsyncIterator[dict[str, Any]]: ...

    async def purge(self, older_than: datetime) -> dict[str, int]: ...


def open_store(
    target: str | os.PathLike[str] | None,
    *,
    clock: Callable[[], datetime] | None = None,
    callback_stale_s: float = CALLBACK_LEASE_S,
    pool_max: int = 10,
) -> SqliteStore | PgStore:
    """The store for `target`: a `postgresql://` (or `postgres://`) URL gives a `PgStore`, which
    connects on its first call; anything else is a SQLite file path (None: in memory).

    Args:
        target: `PLANNER_DATABASE_URL` when set, else the `PLANNER_DB` path.
        clock: the current time (tests pass a fixed one); defaults to the UTC wall clock.
        callback_stale_s: when an unfinished callback claim may be taken over.
        pool_max: PostgreSQL only: the most connections this process opens.

    Raises:
        ImportError: a PostgreSQL URL without psycopg installed (the `postgres` extra).
        sqlite3.Error: the SQLite file cannot be opened or migrated.
    """
    if is_postgres_url(target):
        try:
            from drafts.pg_store import PgStore
        except ImportError as exc:
            raise ImportError(
                "PLANNER_DATABASE_URL names PostgreSQL, which needs psycopg: pip install 'planner-mcp[postgres]'"
            ) from exc
        return PgStore(str(target), clock=clock, callback_stale_s=callback_stale_s, pool_max=pool_max)
    return SqliteStore(target, clock=clock, callback_stale_s=callback_stale_s)
