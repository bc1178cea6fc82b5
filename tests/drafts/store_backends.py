"""The store test suite runs against both backends: the `database` fixture yields SQLite (a file of
the test's own) or PostgreSQL (a schema of the test's own, dropped afterwards).

A module rather than `tests/drafts/conftest.py`: a second conftest would shadow the root one that
other test modules import by name (`from conftest import ...`). Test modules import the fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from postgres_support import fresh_schema, require_postgres

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


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "planner.db"))
        return
    with fresh_schema(require_postgres()) as (_, url):
        yield Database("postgres", url)
