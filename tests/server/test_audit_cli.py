"""`planner-mcp audit export` and `planner-mcp audit prune`, as an operator runs them (subprocesses)
against the database a server wrote, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import ROOT, Conversation
from postgres_support import fresh_schema, require_postgres

from drafts import open_store
from server.settings import Settings

pytestmark = pytest.mark.anyio

CLI = str(ROOT / ".venv" / "bin" / "planner-mcp")


def audit_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PLANNER_", "COMPOSIO_"))}
    return subprocess.run(
        [CLI, "audit", *args], env={**base, **env}, capture_output=True, text=True, timeout=120, cwd=ROOT
    )


async def test_the_audit_export_writes_each_decision_as_json_lines_filtered_by_user_and_time(
    anna: Conversation, settings: Settings
) -> None:
    await anna.say("Покажи сделку Globex pilot")
    draft = await anna.say("Создай задачу в ENG: =HYPERLINK(1)")
    assert draft["status"] == "draft_pending", draft
    boris = Conversation(anna.client, user="boris")
    await boris.say("Что по сделке Globex pilot?")
    env = {"PLANNER_DB": str(settings.db_path)}

    everything = audit_cli("export", env=env)
    annas = audit_cli("export", "--user", "anna", env=env)
    future = audit_cli("export", "--since", (datetime.now(UTC) + timedelta(days=1)).isoformat(), env=env)
    recent = audit_cli("export", "--since", "1h", "--user", "boris", env=env)

    assert everything.returncode == 0, everything.stderr
    rows = [json.loads(line) for line in everything.stdout.splitlines()]
    assert [r["user_id"] for r in rows] == ["anna", "anna", "boris"]
    assert rows[1]["decision_type"] == "REQUEST_CONFIRMATION"
    assert rows[1]["tool_calls"][0]["operation"] == "create_issue"
    assert set(rows[0]) == {
        "id", "timestamp", "conversation_id", "user_id", "input_message", "classified_intent",
        "decision_type", "tool_calls", "response_preview", "producer",
    }  # fmt: skip
    assert "3 records" in everything.stderr
    assert [json.loads(line)["user_id"] for line in annas.stdout.splitlines()] == ["anna", "anna"]
    assert future.returncode == 0 and future.stdout == ""
    assert [json.loads(line)["user_id"] for line in recent.stdout.splitlines()] == ["boris"]


async def test_the_csv_export_has_a_header_and_never_hands_a_spreadsheet_a_formula(
    anna: Conversation, settings: Settings, tmp_path: Path
) -> None:
    await anna.say("Создай задачу в ENG: =HYPERLINK(1)")
    out = tmp_path / "audit.csv"

    done = audit_cli(
        "export", "--format", "csv", "--out", str(out), env={"PLANNER_DB": str(settings.db_path)}
    )

    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[0][:4] == ["id", "timestamp", "conversation_id", "user_id"]
    assert len(rows) == 2
    record = dict(zip(rows[0], rows[1], strict=True))
    assert "HYPERLINK" in record["input_message"] and not record["input_message"].startswith("=")
    assert json.loads(record["tool_calls"])[0]["operation"] == "create_issue"


def test_the_audit_commands_refuse_bad_input_and_a_missing_database_clearly(tmp_path: Path) -> None:
    bad_since = audit_cli("export", "--since", "last tuesday", env={"PLANNER_DB": str(tmp_path / "p.db")})
    missing = audit_cli("export", env={"PLANNER_DB": str(tmp_path / "nowhere.db")})
    bad_days = audit_cli(
        "prune", env={"PLANNER_DB": str(tmp_path / "p.db"), "PLANNER_AUDIT_RETENTION_DAYS": "-1"}
    )

    assert bad_since.returncode == 2 and "--since" in bad_since.stderr and "Traceback" not in bad_since.stderr
    assert missing.returncode == 2 and "no database" in missing.stderr
    assert not (tmp_path / "nowhere.db").exists()  # an export never creates an empty database
    assert bad_days.returncode == 2 and "PLANNER_AUDIT_RETENTION_DAYS" in bad_days.stderr


@pytest.mark.postgres
async def test_prune_applies_the_retention_on_postgresql_and_the_export_reads_what_is_left() -> None:
    with fresh_schema(require_postgres()) as (_, url):
        store = open_store(url)
        now = datetime.now(UTC)
        for days, text in ((40, "old"), (1, "new")):
            await store.audit(
                user_id="telegram:42",
                conversation_id="tg:42",
                input_message=text,
                intent="QUERY",
                decision="INVOKE_TOOL",
                tool_calls=None,
                response_preview="ok",
                now=now - timedelta(days=days),
            )
        await store.close()
        env = {"PLANNER_DATABASE_URL": url, "PLANNER_AUDIT_RETENTION_DAYS": "30"}

        pruned = audit_cli("prune", env=env)
        left = audit_cli("export", env=env)

        assert pruned.returncode == 0, pruned.stderr
        assert '"audit_log": 1' in pruned.stderr
        assert [json.loads(line)["input_message"] for line in left.stdout.splitlines()] == ["new"]
