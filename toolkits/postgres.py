"""What the draft store and the sandbox share when their state lives in PostgreSQL (DESIGN §8).

Only SQL text and a URL check live here, so importing this module never imports psycopg: the
driver is an optional extra (`planner-mcp[postgres]`), loaded only when a PostgreSQL URL is set.

A deployment isolates its tables in a schema by naming it first on the search path, e.g.
`postgresql://db/planner?options=-csearch_path%3Dplanner`; `ENSURE_SCHEMA_SQL` creates that schema
on first start, so the URL is the whole configuration.
"""

from __future__ import annotations

import os

__all__ = ["DRAFTS_LOCK_SQL", "ENSURE_SCHEMA_SQL", "SANDBOX_LOCK_SQL", "is_postgres_url"]

# `CREATE ... IF NOT EXISTS` is not safe against a concurrent twin in PostgreSQL (both can pass the
# check and one fails on a unique index of the catalog), so processes starting at once queue on an
# advisory lock: one key per schema (the search path), so unrelated deployments never wait on each
# other. The `xact` form is released by COMMIT or ROLLBACK: a crash cannot leave it held.
#
# The drafts store and the sandbox take different keys on purpose. The sandbox creates its table
# synchronously (psycopg's blocking driver), possibly on the thread running the event loop; if it
# could wait for the drafts store's key, held by an async migration of the same process that
# cannot advance while the loop is blocked, the process would deadlock.
DRAFTS_LOCK_SQL = "SELECT pg_advisory_xact_lock(72401553, hashtext(current_setting('search_path')))"
SANDBOX_LOCK_SQL = "SELECT pg_advisory_xact_lock(72401554, hashtext(current_setting('search_path')))"

# Creates the first schema on the search path when it does not exist yet ("$user" is left alone).
# The drafts store and the sandbox may both run it at once (under different locks), so losing the
# race to create the schema is not an error. Sent without parameters: psycopg then passes the text
# through untouched, `%I` included.
ENSURE_SCHEMA_SQL = """
DO $$
DECLARE
    wanted text := btrim(split_part(current_setting('search_path'), ',', 1), ' "');
BEGIN
    IF wanted <> '' AND wanted <> '$user'
       AND NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = wanted) THEN
        BEGIN
            EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', wanted);
        EXCEPTION WHEN unique_violation OR duplicate_schema THEN
            NULL;
        END;
    END IF;
END
$$
"""


def is_postgres_url(target: str | os.PathLike[str] | None) -> bool:
    """Whether `target` names a PostgreSQL database (`postgresql://` or `postgres://`) rather than
    a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))
