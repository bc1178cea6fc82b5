"""Ordered schema migrations of the draft store on PostgreSQL, the twins of `drafts._migrations`.

Same names, same order, same tables and meaning as the SQLite ones; the types are PostgreSQL's own
(`timestamptz` for moments, `json` for payloads: unlike `jsonb` it keeps the text, key order
included, exactly as written). Applied migrations are recorded in `planner_migrations`. Append new
migrations at the end of both lists; never edit one that has shipped.
"""

from __future__ import annotations

from datetime import UTC, datetime

from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from toolkits.postgres import DRAFTS_LOCK_SQL, ENSURE_SCHEMA_SQL

__all__ = ["MIGRATIONS", "apply_migrations"]

M001_INITIAL = [
    """CREATE TABLE plans (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        conversation_id TEXT,
        state JSON NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    )""",
    # `seq` orders drafts by creation, as SQLite's rowid does ("newest first").
    """CREATE TABLE drafts (
        seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        id TEXT PRIMARY KEY,
        owner_user_id TEXT NOT NULL,
        conversation_id TEXT,
        plan_id TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL,
        language TEXT NOT NULL,
        bulk_count INTEGER,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
    )""",
    "CREATE INDEX drafts_by_owner ON drafts(owner_user_id, conversation_id, status)",
    """CREATE TABLE draft_actions (
        draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        action JSON NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        result JSON,
        error TEXT,
        link TEXT,
        updated_at TIMESTAMPTZ,
        PRIMARY KEY (draft_id, idx)
    )""",
    """CREATE TABLE draft_events (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
        from_state TEXT NOT NULL,
        to_state TEXT NOT NULL,
        at TIMESTAMPTZ NOT NULL
    )""",
    "CREATE INDEX draft_events_by_draft ON draft_events(draft_id, id)",
    # A trigger, not application code, writes the transition log, so no status change (CAS, lazy
    # expiry, recovery in another process) can bypass it.
    """CREATE FUNCTION drafts_status_log() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO draft_events(draft_id, from_state, to_state, at)
        VALUES (NEW.id, OLD.status, NEW.status, NEW.updated_at);
        RETURN NULL;
    END
    $$""",
    """CREATE TRIGGER drafts_status_log AFTER UPDATE OF status ON drafts
       FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
       EXECUTE FUNCTION drafts_status_log()""",
    # No foreign key to drafts: a scope outlives the draft that first ran it (§7 of DESIGN).
    """CREATE TABLE ledger (
        scope TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('started', 'succeeded', 'failed', 'unknown')),
        draft_id TEXT NOT NULL,
        action_index INTEGER NOT NULL,
        payload_sha TEXT NOT NULL,
        result JSON,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 1,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
    )""",
    """CREATE TABLE callback_replies (
        user_id TEXT NOT NULL,
        callback_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        reply JSON,
        started_at TIMESTAMPTZ NOT NULL,
        finished_at TIMESTAMPTZ,
        PRIMARY KEY (user_id, callback_id)
    )""",
    """CREATE TABLE audit_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        timestamp TIMESTAMPTZ NOT NULL,
        conversation_id TEXT,
        user_id TEXT NOT NULL,
        input_message TEXT NOT NULL,
        classified_intent TEXT,
        decision_type TEXT NOT NULL,
        tool_calls JSON,
        response_preview TEXT NOT NULL
    )""",
    "CREATE INDEX audit_log_by_user ON audit_log(user_id, id)",
]

# The execution lease (see drafts._migrations.m002): drafts already executing get their last
# update as the heartbeat.
M002_EXECUTION_LEASE = [
    "ALTER TABLE drafts ADD COLUMN executing_since TIMESTAMPTZ",
    "ALTER TABLE drafts ADD COLUMN heartbeat_at TIMESTAMPTZ",
    "UPDATE drafts SET executing_since = updated_at, heartbeat_at = updated_at WHERE status = 'executing'",
    "CREATE INDEX drafts_by_heartbeat ON drafts(status, heartbeat_at)",
    "CREATE INDEX ledger_by_state ON ledger(state, updated_at)",
]

# Which producer understood the request (see drafts._migrations.m003).
M003_AUDIT_PRODUCER = ["ALTER TABLE audit_log ADD COLUMN producer TEXT"]

MIGRATIONS: list[tuple[str, list[str]]] = [
    ("drafts.m001_initial", M001_INITIAL),
    ("drafts.m002_execution_lease", M002_EXECUTION_LEASE),
    ("drafts.m003_audit_producer", M003_AUDIT_PRODUCER),
]


async def apply_migrations(conn: AsyncConnection[TupleRow]) -> list[str]:
    """Apply every migration not yet recorded, all in one transaction under an advisory lock.

    Safe when several processes start at once on a fresh database: the second waits for the lock,
    then finds everything recorded. DDL is transactional in PostgreSQL, so a failed migration
    leaves nothing half-done. The first schema on the search path is created if missing.

    Args:
        conn: an autocommit connection.

    Returns:
        The names applied by this call.

    Raises:
        psycopg.Error: a migration failed; nothing of this call is kept.
    """
    applied: list[str] = []
    async with conn.transaction():
        await conn.execute(DRAFTS_LOCK_SQL)
        await conn.execute(ENSURE_SCHEMA_SQL)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS planner_migrations"
            " (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
        )
        cur = await conn.execute("SELECT name FROM planner_migrations")
        done = {row[0] for row in await cur.fetchall()}
        for name, statements in MIGRATIONS:
            if name in done:
                continue
            for sql in statements:
                await conn.execute(sql)
            await conn.execute(
                "INSERT INTO planner_migrations(name, applied_at) VALUES (%s, %s)", (name, datetime.now(UTC))
            )
            applied.append(name)
    return applied
