"""Ordered schema migrations for the draft store's tables.

The database file is shared with the sandbox backend, so every name here is ours alone (`plans`,
`drafts`, `draft_actions`, `draft_events`, `ledger`, `callback_replies`, `audit_log`) and each
migration is recorded in the shared `schema_migrations` table under a `drafts.` prefix. Append new
migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

__all__ = ["MIGRATIONS", "apply_migrations"]

Migration = Callable[[sqlite3.Connection], None]


def m001_initial(conn: sqlite3.Connection) -> None:
    statements = [
        """CREATE TABLE plans (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            conversation_id TEXT,
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            expires_ts REAL NOT NULL
        )""",
        """CREATE TABLE drafts (
            id TEXT PRIMARY KEY,
            owner_user_id TEXT NOT NULL,
            conversation_id TEXT,
            plan_id TEXT NOT NULL,
            status TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            summary TEXT NOT NULL,
            language TEXT NOT NULL,
            bulk_count INTEGER,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            expires_ts REAL NOT NULL,
            updated_at TEXT NOT NULL
        )""",
        "CREATE INDEX drafts_by_owner ON drafts(owner_user_id, conversation_id, status)",
        """CREATE TABLE draft_actions (
            draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            action TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            result TEXT,
            error TEXT,
            link TEXT,
            updated_at TEXT,
            PRIMARY KEY (draft_id, idx)
        )""",
        """CREATE TABLE draft_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
            from_state TEXT NOT NULL,
            to_state TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        "CREATE INDEX draft_events_by_draft ON draft_events(draft_id, id)",
        # A trigger, not application code, writes the transition log, so no status change (CAS,
        # lazy expiry, a future completer) can bypass it.
        """CREATE TRIGGER drafts_status_log AFTER UPDATE OF status ON drafts
           WHEN OLD.status IS NOT NEW.status
           BEGIN
             INSERT INTO draft_events(draft_id, from_state, to_state, at)
             VALUES (NEW.id, OLD.status, NEW.status, NEW.updated_at);
           END""",
        # No foreign key to drafts: a scope outlives the draft that first ran it (§7 of DESIGN).
        """CREATE TABLE ledger (
            scope TEXT PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('started', 'succeeded', 'failed', 'unknown')),
            draft_id TEXT NOT NULL,
            action_index INTEGER NOT NULL,
            payload_sha TEXT NOT NULL,
            result TEXT,
            error TEXT,
            attempts INTEGER NOT NULL DEFAULT 1,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""",
        """CREATE TABLE callback_replies (
            user_id TEXT NOT NULL,
            callback_id TEXT NOT NULL,
            tool TEXT NOT NULL,
            reply TEXT,
            started_ts REAL NOT NULL,
            finished_at TEXT,
            PRIMARY KEY (user_id, callback_id)
        )""",
        """CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            timestamp TEXT NOT NULL,
            conversation_id TEXT,
            user_id TEXT NOT NULL,
            input_message TEXT NOT NULL,
            classified_intent TEXT,
            decision_type TEXT NOT NULL,
            tool_calls TEXT,
            response_preview TEXT NOT NULL
        )""",
        "CREATE INDEX audit_log_by_user ON audit_log(user_id, id)",
    ]
    for sql in statements:
        conn.execute(sql)


def m002_execution_lease(conn: sqlite3.Connection) -> None:
    # An executing draft carries a heartbeat: its executor refreshes it while it works, so a draft
    # whose heartbeat is older than the lease belongs to a dead process and recovery may take it
    # over (drafts/recovery.py). Drafts already executing get their last update as the heartbeat.
    statements = [
        "ALTER TABLE drafts ADD COLUMN executing_since REAL",
        "ALTER TABLE drafts ADD COLUMN heartbeat_ts REAL",
        """UPDATE drafts SET executing_since = (julianday(updated_at) - 2440587.5) * 86400.0,
                  heartbeat_ts = (julianday(updated_at) - 2440587.5) * 86400.0
           WHERE status = 'executing'""",
        "CREATE INDEX drafts_by_heartbeat ON drafts(status, heartbeat_ts)",
        "CREATE INDEX ledger_by_state ON ledger(state, updated_at)",
    ]
    for sql in statements:
        conn.execute(sql)


def m003_audit_producer(conn: sqlite3.Connection) -> None:
    # Which producer understood the request (rules, a client's intents, a command, the model
    # interpreter); older records have none.
    conn.execute("ALTER TABLE audit_log ADD COLUMN producer TEXT")


MIGRATIONS: list[tuple[str, Migration]] = [
    ("drafts.m001_initial", m001_initial),
    ("drafts.m002_execution_lease", m002_execution_lease),
    ("drafts.m003_audit_producer", m003_audit_producer),
]


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration not yet recorded, each in its own `BEGIN IMMEDIATE` transaction.

    Safe when several processes open a fresh file at once: the check and the migration run under the
    write lock, so exactly one of them applies each step.

    Args:
        conn: an autocommit (`isolation_level=None`) connection.

    Returns:
        The names applied by this call.

    Raises:
        sqlite3.Error: a migration failed; its transaction is rolled back.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    applied: list[str] = []
    for name, migration in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = conn.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone()
            if done is None:
                migration(conn)
                conn.execute(
                    "INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)",
                    (name, datetime.now(UTC).isoformat()),
                )
                applied.append(name)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return applied
