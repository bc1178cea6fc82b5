"""The execution lease and recovery of the PostgreSQL store: the twin of the lease section of
`drafts.store` (heartbeats, stuck drafts, take-overs, orphaned ledger claims).

`PgLeaseMixin` is mixed into `PgStore`; it only needs the store's `_db` and `_now`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal

from drafts._db import to_utc
from drafts._pg import PgDatabase, js
from drafts.store import StaleClaim

__all__ = ["BEAT_SQL", "PgLeaseMixin"]

# Monotonic: a take-over stamps the lease at the recoverer's `now`, which a later beat must not undo.
BEAT_SQL = "UPDATE drafts SET heartbeat_at = GREATEST(heartbeat_at, %(now)s) WHERE id = %(id)s AND status = 'executing'"
# SKIP LOCKED: a draft another recoverer is taking right now is left to it, not waited for; the row
# lock re-reads the latest version, so a lease stamped meanwhile no longer qualifies.
_TAKE_OVER = """
UPDATE drafts SET heartbeat_at = %(stamp)s
WHERE id = (SELECT id FROM drafts WHERE id = %(id)s AND owner_user_id = %(user)s AND status = 'executing'
            AND COALESCE(heartbeat_at, '-infinity') < %(cutoff)s FOR UPDATE SKIP LOCKED)
"""


class PgLeaseMixin:
    _db: PgDatabase
    _now: Callable[[], datetime]

    async def heartbeat(self, draft_id: str) -> bool:
        """Renew the lease of an executing draft (its executor calls this while it works).

        Returns:
            Whether the draft is still executing.

        Raises:
            psycopg.Error: the database failed.
        """
        return await self._db.execute(BEAT_SQL, {"now": to_utc(self._now()), "id": draft_id}) == 1

    async def stuck_drafts(
        self, older_than_s: float, *, now: datetime | None = None
    ) -> list[tuple[str, str]]:
        """Drafts of every user left "executing" whose lease was last renewed more than
        `older_than_s` ago: their executor died (a live one renews it every few seconds).

        Returns:
            (draft_id, owner) pairs, oldest lease first.

        Raises:
            psycopg.Error: the database failed.
        """
        cutoff = to_utc(now or self._now()) - timedelta(seconds=older_than_s)
        sql = (
            "SELECT id, owner_user_id FROM drafts WHERE status = 'executing'"
            " AND COALESCE(heartbeat_at, '-infinity') < %s ORDER BY COALESCE(heartbeat_at, '-infinity'), id"
        )
        return [(row[0], row[1]) for row in await self._db.fetchall(sql, (cutoff,))]

    async def take_over(
        self, draft_id: str, user_id: str, older_than_s: float, *, now: datetime | None = None
    ) -> bool:
        """Compare-and-swap a stuck draft's lease to the caller, so one recoverer finishes it.

        Returns:
            True for the one caller that took it; False when it is not executing, its lease is
            fresher than `older_than_s`, or another recoverer is taking it at this moment.

        Raises:
            psycopg.Error: the database failed.
        """
        at = to_utc(now or self._now())
        # Stamped at `now` or later, with a strict comparison: a second taker, even with a zero
        # lease, finds the lease no longer older than its own `now`.
        params = {
            "stamp": max(at, to_utc(self._now())),
            "id": draft_id,
            "user": user_id,
            "cutoff": at - timedelta(seconds=older_than_s),
        }
        return await self._db.execute(_TAKE_OVER, params) == 1

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
            psycopg.Error: the database failed.
        """
        if state not in ("succeeded", "failed", "unknown"):
            raise ValueError(f"not a final ledger state: {state!r}")
        sql = (
            "UPDATE ledger SET state = %s, result = %s, error = %s, updated_at = %s"
            " WHERE scope = %s AND draft_id = %s AND state IN ('started', 'unknown')"
        )
        params = (state, js(result), error, to_utc(self._now()), scope, draft_id)
        return await self._db.execute(sql, params) == 1

    async def stale_claims(self, older_than_s: float, *, now: datetime | None = None) -> list[StaleClaim]:
        """Ledger claims still "started" for longer than `older_than_s` whose draft is not executing
        (finished without settling them, or gone): nobody will settle them but recovery.

        Raises:
            psycopg.Error: the database failed.
        """
        cutoff = to_utc(now or self._now()) - timedelta(seconds=older_than_s)
        sql = (
            "SELECT l.scope, l.draft_id, l.action_index, d.owner_user_id FROM ledger l"
            " LEFT JOIN drafts d ON d.id = l.draft_id"
            " WHERE l.state = 'started' AND l.updated_at <= %s"
            " AND (d.status IS NULL OR d.status <> 'executing') ORDER BY l.updated_at, l.scope"
        )
        return [StaleClaim(*row) for row in await self._db.fetchall(sql, (cutoff,))]
