"""Sandbox mode is visible: a person on the embedded sandbox is told, in every preview and result and
by the server at start, that their real Attio, Linear and Google Calendar do not change (issue 13)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, Conversation

pytestmark = pytest.mark.anyio

EN = "🧪 Sandbox: your real Attio, Linear and Google Calendar are not changed."
RU = "🧪 Песочница: ваши настоящие Attio, Linear и Google Calendar не меняются."


async def test_every_reply_says_sandbox_and_previews_and_results_say_nothing_real_changes(
    anna: Conversation,
) -> None:
    draft = await anna.say("Move the Globex pilot deal to Won")
    assert draft["status"] == "draft_pending" and draft["sandbox"] is True
    assert draft["user_message"].endswith(EN)
    confirmed = await anna.call("confirm_draft", draft_id=draft["draft"]["id"])
    done = await anna.call("execute_draft", draft_id=draft["draft"]["id"])
    assert done["status"] == "executed" and done["sandbox"] is True
    assert done["user_message"].startswith("Done:") and done["user_message"].endswith(EN)
    assert confirmed["sandbox"] is True
    answered = await anna.say("Покажи сделку Globex pilot")
    assert answered["sandbox"] is True and RU not in answered["user_message"]  # a read changes nothing
    listed = await anna.call("list_drafts")
    assert listed["sandbox"] is True


async def test_a_russian_preview_is_marked_in_russian(anna: Conversation) -> None:
    draft = await anna.say("Переведи сделку Globex pilot в стадию Won")
    assert draft["user_message"].endswith(RU) and draft["user_message"].count(RU) == 1


@pytest.mark.slow
def test_serve_says_once_on_stderr_that_it_runs_on_the_sandbox(tmp_path: Path) -> None:
    env = {**os.environ, "PLANNER_DB": str(tmp_path / "p.db")}
    env.pop("COMPOSIO_API_KEY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None and proc.stdin is not None
        first = proc.stderr.readline()  # printed before the server reads its first message
        proc.stdin.close()  # end of input: the stdio server stops
        rest = proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stderr is not None:
            proc.stderr.close()
    assert first.startswith("planner-mcp: SANDBOX MODE - no COMPOSIO_API_KEY")
    assert str(tmp_path / "p.db") in first and "not to your Attio, Linear or Google Calendar" in first
    assert "SANDBOX MODE" not in rest  # once
