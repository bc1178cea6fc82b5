"""What only the PostgreSQL store has: migrations raced by processes starting at once, the lease
migration on an existing schema, SKIP LOCKED take-overs, the sandbox row shared by processes, the
wiring of PLANNER_DATABASE_URL, and the rules for when these tests may be skipped.

Everything the two stores share is tested against both by test_store.py, test_executor.py,
test_recovery.py and test_crash_recovery.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import postgres_support
import psycopg
import pytest
from postgres_support import fresh_schema, require_postgres

from drafts import DraftStore, open_store
from drafts.pg_store import PgStore
from toolkits import attio
from toolkits.sandbox import SandboxBackend

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]
ACME = "b0a22383-700d-505a-99c4-e69e9405c278"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def pg() -> Iterator[tuple[str, str]]:
    """(schema, URL selecting it) for a schema that does not exist yet."""
    with fresh_schema(require_postgres()) as found:
        yield found


def rows(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


async def executing_draft(store: DraftStore, user: str = "anna") -> str:
    draft = await store.create_draft(
        user_id=user,
        conversation_id=None,
        plan_id="p",
        summary="s",
        language="en",
        actions=[attio.ops.create_note("companies", ACME, "Signed", "Contract signed.", "note")],
        bulk_count=None,
        ttl_s=1800,
        now=datetime.now(UTC),
    )
    assert await store.transition(draft.id, user, {"pending"}, "confirmed")
    assert await store.transition(draft.id, user, {"confirmed"}, "executing")
    return draft.id


@pytest.mark.postgres
def test_processes_starting_at_once_create_the_schema_and_migrate_it_once(pg: tuple[str, str]) -> None:
    schema, url = pg
    # Half open the sandbox first, half the draft store: both paths race for the fresh schema.
    child = textwrap.dedent(
        """
        import asyncio, sys
        from drafts import open_store
        from toolkits.sandbox import SandboxBackend

        async def main(url: str, sandbox_first: bool) -> None:
            store = open_store(url)
            if sandbox_first:
                SandboxBackend(url)
            await store.open()
            SandboxBackend(url)
            await store.close()

        asyncio.run(main(sys.argv[1], sys.argv[2] == "1"))
        """
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", child, url, str(n % 2)], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        for n in range(4)
    ]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors

    assert rows(url, "SELECT name FROM planner_migrations ORDER BY name") == [
        ("drafts.m001_initial",),
        ("drafts.m002_execution_lease",),
        ("drafts.m003_audit_producer",),
    ]
    assert rows(url, "SELECT id, version FROM sandbox_workspace") == [(1, 1)]
    assert rows(url, "SELECT current_schema()") == [(schema,)]


@pytest.mark.postgres
async def test_reopening_leaves_data_and_other_tables_alone(pg: tuple[str, str]) -> None:
    _, url = pg
    first = open_store(url)
    draft_id = await executing_draft(first)
    await first.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE someone_elses (id TEXT PRIMARY KEY)")
        conn.execute("INSERT INTO someone_elses VALUES ('r1')")

    again = open_store(url)
    try:
        found = await again.get_draft(draft_id, "anna")
        assert found is not None and found.status == "executing"
    finally:
        await again.close()
    assert rows(url, "SELECT id FROM someone_elses") == [("r1",)]
    assert len(rows(url, "SELECT name FROM planner_migrations")) == 3


@pytest.mark.postgres
async def test_a_schema_written_before_the_lease_migration_gets_heartbeats_from_its_last_update(
    pg: tuple[str, str],
) -> None:
    _, url = pg
    old = PgStore(url)
    draft_id = await executing_draft(old)
    await old.close()
    with psycopg.connect(url, autocommit=True) as conn:  # roll the schema back to what m001 produced
        conn.execute("DROP INDEX drafts_by_heartbeat")
        conn.execute("DROP INDEX ledger_by_state")
        conn.execute("ALTER TABLE drafts DROP COLUMN executing_since, DROP COLUMN heartbeat_at")
        conn.execute("DELETE FROM planner_migrations WHERE name = 'drafts.m002_execution_lease'")

    upgraded = PgStore(url)
    try:
        now = datetime.now(UTC)
        assert await upgraded.stuck_drafts(60.0, now=now) == []
        assert await upgraded.stuck_drafts(60.0, now=now + timedelta(seconds=61)) == [(draft_id, "anna")]
    finally:
        await upgraded.close()


@pytest.mark.postgres
async def test_a_draft_another_recoverer_holds_is_skipped_not_waited_for(pg: tuple[str, str]) -> None:
    _, url = pg
    store = PgStore(url)
    try:
        draft_id = await executing_draft(store)
        later = datetime.now(UTC) + timedelta(seconds=60)
        async with await psycopg.AsyncConnection.connect(url) as other:  # a recoverer mid-take-over
            await other.execute("SELECT 1 FROM drafts WHERE id = %s FOR UPDATE", (draft_id,))
            with anyio.fail_after(2.0):
                assert not await store.take_over(draft_id, "anna", 30.0, now=later)
            await other.rollback()
        assert await store.take_over(draft_id, "anna", 30.0, now=later)
        assert not await store.take_over(draft_id, "anna", 30.0, now=later)  # the lease is fresh now
    finally:
        await store.close()


@pytest.mark.postgres
async def test_two_sandboxes_on_one_schema_share_every_write_and_lose_none(pg: tuple[str, str]) -> None:
    _, url = pg
    left, right = SandboxBackend(url), SandboxBackend(url)
    try:

        async def note(backend: SandboxBackend, n: int) -> None:
            action = attio.ops.create_note("companies", ACME, f"load {n}", "body", "note")
            assert (await backend.execute(action.tool_slug, action.args))["successful"]

        await asyncio.gather(*(note(left if n % 2 else right, n) for n in range(20)))

        listing = {"parent_object": "companies", "parent_record_id": ACME, "limit": 50}
        seen = [
            {n["title"] for n in (await b.execute("ATTIO_LIST_NOTES", listing))["data"]["data"]}
            for b in (left, right)
        ]
        assert seen[0] == seen[1] and {f"load {n}" for n in range(20)} <= seen[0]
    finally:
        await left.aclose()
        await right.aclose()
    assert rows(url, "SELECT version FROM sandbox_workspace") == [(21,)]


@pytest.mark.postgres
async def test_planner_database_url_puts_drafts_and_the_sandbox_in_postgres(
    pg: tuple[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from server.settings import Settings
    from server.wiring import build_service

    _, url = pg
    monkeypatch.setenv("PLANNER_DATABASE_URL", url)
    monkeypatch.setenv("PLANNER_DB", str(tmp_path / "never.db"))
    settings = Settings.from_env()
    assert url not in repr(settings)  # a URL may carry a password
    service = build_service(settings)
    try:
        assert isinstance(service.store, PgStore)
        reply = await service.plan(
            "anna",
            text="Создай задачу в Linear: в базе",
            command=None,
            voice=None,
            language=None,
            now=None,
            timezone=None,
            conversation_id="c",
        )
        assert reply.draft is not None
        await service.confirm("anna", reply.draft.id)
        done = await service.execute("anna", reply.draft.id, dry_run=False)
        assert done.status == "executed", done
    finally:
        await service.backend.aclose()
        await service.store.close()
    assert rows(url, "SELECT status FROM drafts") == [("executed",)]
    assert rows(url, "SELECT version FROM sandbox_workspace") == [(2,)]
    assert not (tmp_path / "never.db").exists()


# -- the rules for skipping (no PostgreSQL needed) -------------------------------------------------


def test_the_sqlite_path_never_imports_psycopg() -> None:
    code = (
        "import sys, drafts, server.wiring, toolkits.sandbox; from drafts import open_store; "
        "open_store(None); print('psycopg' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


@pytest.fixture
def nothing_listening(monkeypatch: pytest.MonkeyPatch) -> str:
    from conftest import free_port

    url = f"postgresql://127.0.0.1:{free_port()}/test"
    monkeypatch.delenv("PLANNER_TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("CI", raising=False)
    return url


def test_an_unreachable_default_server_skips_with_the_reason(
    nothing_listening: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_support, "DEFAULT_URL", nothing_listening)

    with pytest.raises(pytest.skip.Exception, match="set PLANNER_TEST_DATABASE_URL"):
        require_postgres()


@pytest.mark.parametrize("how", ["PLANNER_TEST_DATABASE_URL", "CI"])
def test_an_unreachable_server_fails_when_it_is_required(
    nothing_listening: str, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(postgres_support, "DEFAULT_URL", nothing_listening)
    monkeypatch.setenv(how, nothing_listening if how == "PLANNER_TEST_DATABASE_URL" else "true")

    with pytest.raises(pytest.fail.Exception, match="PostgreSQL is required"):
        require_postgres()
