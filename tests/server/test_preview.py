"""`planner-mcp plan "…" --dry-run`: the draft's preview, then every request whole; nothing changes."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from conftest import REF_NOW

from server.cli import main


def plan(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["plan", *args, "--now", REF_NOW]) == 0
    return capsys.readouterr().out


def draft_statuses(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT status FROM drafts")]


def test_a_dry_run_prints_the_draft_preview_then_every_request_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    words = " ".join(f"word{n}" for n in range(70))
    out = plan(capsys, f"Create an issue in ENG: {words}", "--dry-run")
    preview, requests = out.split("The requests that would be sent:")
    assert preview.startswith("Draft - nothing changes until you confirm:\n1. Linear ENG: new issue")
    title = re.search(r"new issue '([^']+)'", preview)
    assert title is not None and len(title.group(1)) > 200
    body = json.loads(requests[requests.index("{") : requests.rindex("}") + 1])
    assert "1. LINEAR_RUN_QUERY_OR_MUTATION" in requests  # the exact request, whole (once cut at 300)
    assert body["variables"]["input"]["title"] == title.group(1) and body["variables"]["input"]["stateId"]
    assert "Dry run: nothing changed, the draft was cancelled." in out
    assert "Confirmed" not in out and "confirmed" not in out.replace("until you confirm", "")
    assert draft_statuses(tmp_path / "planner.db") == ["cancelled"]


def test_a_question_is_printed_once_with_numbered_choices_and_no_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = plan(capsys, "Move Acme to negotiation", "--dry-run")
    assert out.count("Which deal do you mean?") == 1
    assert "  1) Acme Corp — annual license" in out and "  2) Acme Logistics — pilot" in out
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-|p_[A-Za-z0-9_-]{8}|c0\.deal", out), out


def test_json_adds_the_whole_replies(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "Закрой ENG-101", "--dry-run", "--json")
    replies = json.loads(out[out.index("\n[") + 1 :])
    assert [r["status"] for r in replies] == ["draft_pending", "dry_run"]
