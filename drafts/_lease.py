"""The SQLite store's execution lease and crash recovery: an executor renews its draft's lease while
it works; a draft whose lease ran out belongs to a dead process, and one recoverer takes it over by
compare-and-swap. Ledger claims nobody will settle any more are found here too."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from drafts._db import Database, dumps, iso

__all__ = ["HEARTBEAT_SQL", "LeaseMixin", "StaleClaim"]

# Monotonic: a take-over stamps the lease at the recoverer's `now`, which a later beat must not undo.
HEARTBEAT_SQL = (
    "UPDATE drafts SET heartbeat_ts = MAX(COALESCE(heartbeat_ts, 0), ?) WHERE id = ? AND status = 'executing'"
)


class StaleClaim(NamedTuple):
    """A ledger claim still "started" although no executor works on its draft any more."""

    scope: str
    draft_id: str
    action_index: int
    owner: str | None  # None when the draft is gone


class LeaseMixin:
    _db: Database
    _now: Callable[[], datetime]

    async def heartbeat(self, draft_id: str) -> bool:
        """Renew the lease of an executing draft (its executor calls this while it works).

        Returns:
            Whether the draft is still executing.

        Raises:
            sqlite3.Error: the database failed.
        """
        params = (self._now().timestamp(), draft_id)
        return await self._db.write(lambda conn: conn.execute(HEARTBEAT_SQL, params).rowcount == 1)

    async def stuck_drafts(
        self, older_than_s: float, *, now: datetime | None = None
    ) -> list[tuple[str, str]]:
        """Drafts of every user left "executing" whose lease was last renewed more than
        `older_than_s` ago: their executor died (a live one renews it every few seconds).

        Returns:
            (draft_id, owner) pairs, oldest lease first.

        Raises:
            sqlite3.Error: the database failed.
        """
        cutoff = (now or self._now()).timestamp() - older_than_s
        sql = (
            "SELECT id, owner_user_id FROM drafts WHERE status = 'executing'"
            " AND COALESCE(heartbeat_ts, 0) < ? ORDER BY COALESCE(heartbeat_ts, 0), id"
        )
        return await self._db.read(lambda conn: [(r[0], r[1]) for r in conn.execute(sql, (cutoff,))])

    async def take_over(
        self, draft_id: str, user_id: str, older_than_s: float, *, now: datetime | None = None
    ) -> bool:
        """Compare-and-swap a stuck draft's lease to the caller, so one recoverer finishes it.

        Returns:
            True for the one caller that took it; False when it is not executing or its lease is
            fresher than `older_than_s`.

        Raises:
            sqlite3.Error: the database failed.
        """
        at = (now or self._now()).timestamp()
        sql = (
            "UPDATE drafts SET heartbeat_ts = ? WHERE id = ? AND owner_user_id = ?"
            " AND status = 'executing' AND COALESCE(heartbeat_ts, 0) < ?"
        )
        # Stamped at `now` or later, with a strict comparison: a second taker, even with a zero
        # lease, finds the lease no longer older than its own `now`.
        params = (max(at, self._now().timestamp()), draft_id, user_id, at - older_than_s)
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def ledger_settle(
        self,
        scope: str,
        draft_id: str,
        state: Literal["succeeded", "failed", "unknown"],
        result: Any = None,
        error: str | None = None,
    ) -> bool:
        """Record what reconciliation found for a claim of `draft_id` left "started" or "unknown".

        Returns:
            Whether the row changed (False: another draft holds the scope, or it is settled).

        Raises:
            ValueError: `state` is not a final ledger state.
            sqlite3.Error: the database failed.
        """
        if state not in ("succeeded", "failed", "unknown"):
            raise ValueError(f"not a final ledger state: {state!r}")
        sql = (
            "UPDATE ledger SET state = ?, result = ?, error = ?, updated_at = ?"
            " WHERE scope = ? AND draft_id = ? AND state IN ('started', 'unknown')"
        )
        params = (state, dumps(result), error, iso(self._now()), scope, draft_id)
        return await self._db.write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def stale_claims(self, older_than_s: float, *, now: datetime | None = None) -> list[StaleClaim]:
        """Ledger claims still "started" for longer than `older_than_s` whose draft is not executing
        (finished without settling them, or gone): nobody will settle them but recovery.

        Raises:
            sqlite3.Error: the database failed.
        """
        cutoff = iso(datetime.fromtimestamp((now or self._now()).timestamp() - older_than_s, UTC))
        sql = (
            "SELECT l.scope, l.draft_id, l.action_index, d.owner_user_id FROM ledger l"
            " LEFT JOIN drafts d ON d.id = l.draft_id"
            " WHERE l.state = 'started' AND julianday(l.updated_at) <= julianday(?)"
            " AND (d.status IS NULL OR d.status <> 'executing') ORDER BY l.updated_at, l.scope"
        )
        return await self._db.read(lambda conn: [StaleClaim(*row) for row in conn.execute(sql, (cutoff,))])
