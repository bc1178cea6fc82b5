"""Retention: what the database keeps, pruned at start and then every hour by each server process
(deletes are idempotent, so several processes on one database do no harm) and on demand by
`planner-mcp audit prune`.

Always: expired plans and callback replies older than 48 h (`DraftStore.prune`). With
`PLANNER_AUDIT_RETENTION_DAYS`: also audit records, plans and final drafts older than that
(`DraftStore.purge`). The side-effect ledger is kept: a scope done once stays done.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from drafts import DraftStore

__all__ = ["RETENTION_EVERY_S", "apply_retention", "retention_loop"]

log = logging.getLogger("planner.retention")

RETENTION_EVERY_S = 3600.0


async def apply_retention(store: DraftStore, retention_days: float | None) -> dict[str, int]:
    """Prune once; returns the rows deleted per kind (`expired`: plans and callback replies past
    their time; then `audit_log`, `plans`, `drafts` when a retention is set).

    Raises:
        sqlite3.Error, psycopg.Error: the database failed.
    """
    deleted = {"expired": await store.prune()}
    if retention_days is not None:
        cutoff = datetime.now(UTC) - timedelta(days=retention_days)
        deleted.update(await store.purge(cutoff))
    return deleted


async def retention_loop(
    store: DraftStore, retention_days: float | None, *, every_s: float = RETENTION_EVERY_S
) -> None:
    while True:
        try:
            deleted = await apply_retention(store, retention_days)
            if any(deleted.values()):
                log.info("retention: deleted %s", deleted, extra={"event": "retention", **deleted})
        except Exception:  # a failed prune must never stop the server; the next round tries again
            log.warning("retention: pruning failed", exc_info=True)
        await asyncio.sleep(every_s)
