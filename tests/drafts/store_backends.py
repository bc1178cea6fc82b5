"""The store test suite runs against both backends: the `database` fixture yields SQLite (a file of
the test's own) or PostgreSQL (a schema of the session's own, emptied before each test and dropped
at the end: emptying nine tables is much cheaper than migrating a new schema per test, and the
migrations themselves are tested in test_pg_store.py).

A module rather than `tests/drafts/conftest.py`: a second conftest would shadow the root one that
other test modules import by name (`from conftest import ...`). Test modules import the fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import psycopg
import pytest
from postgres_support import drop_schema, new_schema_name, require_postgres, with_search_path

from drafts import DraftStore, open_store
from toolkits.sandbox import SandboxBackend


@dataclass(frozen=True)
class Database:
    """One database for the test: every store and sandbox opened on it shares its state."""

    kind: Literal["sqlite", "postgres"]
    target: str  # a SQLite path or a postgresql:// URL selecting the test's schema

    def store(self, **kwargs: Any) -> DraftStore:
        return open_store(self.target, **kwargs)

    def sandbox(self, **kwargs: Any) -> SandboxBackend:
        return SandboxBackend(self.target, **kwargs)


_SESSION: dict[str, str] = {}


def _session_schema(request: pytest.FixtureRequest) -> str:
    """The URL of this session's schema (created by the first store opened on it, dropped at the
    end). Not a session fixture: each test module imports `database`, and a fixture imported into
    several modules is defined once per module."""
    if "url" not in _SESSION:
        base, schema = require_postgres(), new_schema_name()
        _SESSION["url"] = with_search_path(base, schema)
        request.config.add_cleanup(lambda: drop_schema(base, schema))
    return _SESSION["url"]


def _empty(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename <> 'planner_migrations'"
        )
        tables = [row[0] for row in cur.fetchall()]
        if tables:  # the sandbox row goes too: the next sandbox seeds a fresh workspace
            # DELETE, not TRUNCATE: on a few rows it is several times faster (no new files).
            conn.execute("; ".join(f"DELETE FROM {table}" for table in tables))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "planner.db"))
        return
    url = _session_schema(request)
    _empty(url)
    yield Database("postgres", url)
