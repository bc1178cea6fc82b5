"""What an operator asks of the SQLite store: is it ready, how many drafts in each state, the audit
log for export, and retention (`OperatorMixin`, mixed into `SqliteStore`; the PostgreSQL twin is
`drafts._pg_operator`).

Retention deletes what is older than a cutoff: audit records, plans (and the conversation memory
stored with them), and drafts that reached a final state (their actions and transition log go with
them). The side-effect ledger is never pruned: a scope done once must stay done, whatever its age.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

from drafts._db import Database, iso, loads
from drafts._migrations import MIGRATIONS
from drafts.journal import _AUDIT_KEYS
from drafts.models import FINAL_STATES

__all__ = ["AUDIT_EXPORT_KEYS", "OperatorMixin"]

AUDIT_EXPORT_KEYS = ("id", *_AUDIT_KEYS)  # the journal's columns, with the row id to resume from
_FINAL = tuple(sorted(FINAL_STATES))
_BATCH = 500


class OperatorMixin:
    _db: Database
    _now: Callable[[], datetime]

    async def ready(self) -> bool:
        """Whether the database answers and every migration of this version is applied.

        Never raises: a failure is the answer False.
        """
        wanted = {name for name, _ in MIGRATIONS}

        def tx(conn: sqlite3.Connection) -> bool:
            rows = conn.execute("SELECT name FROM schema_migrations WHERE name LIKE 'drafts.%'").fetchall()
            return wanted <= {row[0] for row in rows}

        try:
            return await self._db.read(tx)
        except (sqlite3.Error, RuntimeError):
            return False

    async def draft_counts(self) -> dict[str, int]:
        """How many drafts are in each state.

        Raises:
            sqlite3.Error: the database failed.
        """
        sql = "SELECT status, count(*) FROM drafts GROUP BY status"
        return await self._db.read(lambda conn: {s: int(n) for s, n in conn.execute(sql)})

    async def export_audit(
        self, *, since: datetime | None = None, user_id: str | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """Audit records, oldest first, from `since` on and of `user_id` only when given; read in
        batches so an export of any size holds one batch in memory.

        Raises:
            sqlite3.Error: the database failed.
        """
        where: list[str] = ["id > ?"]
        params: list[Any] = [0]
        if since is not None:
            where.append("julianday(timestamp) >= julianday(?)")
            params.append(iso(since))
        if user_id is not None:
            where.append("user_id = ?")
            params.append(user_id)
        sql = f"SELECT {', '.join(AUDIT_EXPORT_KEYS)} FROM audit_log WHERE {' AND '.join(where)} ORDER BY id LIMIT {_BATCH}"
        while True:
            rows = await self._db.read(lambda conn: conn.execute(sql, params).fetchall())
            for row in rows:
                record = dict(zip(AUDIT_EXPORT_KEYS, row, strict=True))
                record["tool_calls"] = loads(record["tool_calls"])
                yield record
            if len(rows) < _BATCH:
                return
            params[0] = rows[-1][0]

    async def purge(self, older_than: datetime) -> dict[str, int]:
        """Delete audit records, plans and final drafts last changed before `older_than`.

        Returns:
            The rows deleted per kind: {"audit_log", "plans", "drafts"}.

        Raises:
            sqlite3.Error: the database failed (nothing is deleted).
        """
        cutoff = iso(older_than)
        marks = ",".join("?" * len(_FINAL))

        def tx(conn: sqlite3.Connection) -> dict[str, int]:
            audit = conn.execute(
                "DELETE FROM audit_log WHERE julianday(timestamp) < julianday(?)", (cutoff,)
            ).rowcount
            plans = conn.execute(
                "DELETE FROM plans WHERE julianday(updated_at) < julianday(?)", (cutoff,)
            ).rowcount
            drafts = conn.execute(
                f"DELETE FROM drafts WHERE status IN ({marks}) AND julianday(updated_at) < julianday(?)",
                (*_FINAL, cutoff),
            ).rowcount
            return {"audit_log": audit, "plans": plans, "drafts": drafts}

        return await self._db.write(tx)
