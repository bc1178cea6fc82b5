"""The PostgreSQL twin of `drafts.operator`: readiness, drafts by state, audit export, retention.

Readiness is bounded: when the database is down the pool would wait its whole open timeout, so
the check gives up after `READY_TIMEOUT_S` and answers False.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

from drafts._db import iso, to_utc
from drafts._pg import PgDatabase
from drafts._pg_migrations import MIGRATIONS
from drafts.models import FINAL_STATES
from drafts.operator import AUDIT_EXPORT_KEYS

__all__ = ["READY_TIMEOUT_S", "PgOperatorMixin"]

READY_TIMEOUT_S = 3.0
_FINAL = sorted(FINAL_STATES)
_BATCH = 500


class PgOperatorMixin:
    _db: PgDatabase
    _now: Callable[[], datetime]

    async def ready(self) -> bool:
        """Whether the database answers and every migration of this version is applied.

        Never raises: a failure or a timeout is the answer False.
        """
        wanted = {name for name, _ in MIGRATIONS}
        try:
            async with asyncio.timeout(READY_TIMEOUT_S):
                await self._db.check()
                rows = await self._db.fetchall("SELECT name FROM planner_migrations")
        except Exception:  # down, timed out, or the table is gone: not ready, whatever the cause
            return False
        return wanted <= {row[0] for row in rows}

    async def draft_counts(self) -> dict[str, int]:
        """How many drafts are in each state.

        Raises:
            psycopg.Error: the database failed.
        """
        rows = await self._db.fetchall("SELECT status, count(*) FROM drafts GROUP BY status")
        return {str(status): int(n) for status, n in rows}

    async def export_audit(
        self, *, since: datetime | None = None, user_id: str | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Audit records, oldest first, from `since` on and of `user_id` only when given, in batches.

        Raises:
            psycopg.Error: the database failed.
        """
        where = ["id > %(after)s"]
        params: dict[str, Any] = {"after": 0}
        if since is not None:
            where.append("timestamp >= %(since)s")
            params["since"] = to_utc(since)
        if user_id is not None:
            where.append("user_id = %(user)s")
            params["user"] = user_id
        sql = f"SELECT {', '.join(AUDIT_EXPORT_KEYS)} FROM audit_log WHERE {' AND '.join(where)} ORDER BY id LIMIT {_BATCH}"
        while True:
            rows = await self._db.fetchall(sql, params)
            for row in rows:
                record = dict(zip(AUDIT_EXPORT_KEYS, row, strict=True))
                record["timestamp"] = iso(record["timestamp"])
                yield record
            if len(rows) < _BATCH:
                return
            params["after"] = rows[-1][0]

    async def purge(self, older_than: datetime) -> dict[str, int]:
        """Delete audit records, plans and final drafts last changed before `older_than`, in one
        transaction.

        Returns:
            The rows deleted per kind: {"audit_log", "plans", "drafts"}.

        Raises:
            psycopg.Error: the database failed (nothing is deleted).
        """
        cutoff = to_utc(older_than)
        async with self._db.transaction() as conn:
            audit = await conn.execute("DELETE FROM audit_log WHERE timestamp < %s", (cutoff,))
            plans = await conn.execute("DELETE FROM plans WHERE updated_at < %s", (cutoff,))
            drafts = await conn.execute(
                "DELETE FROM drafts WHERE status = ANY(%s) AND updated_at < %s", (_FINAL, cutoff)
            )
            return {"audit_log": audit.rowcount, "plans": plans.rowcount, "drafts": drafts.rowcount}
