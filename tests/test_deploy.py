"""The systemd units in deploy/ are valid: `systemd-analyze verify` accepts them with this checkout in
place of /opt/planner-mcp (verify also checks that ExecStart's program exists and is executable)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ("planner-mcp.service", "planner-telegram.service")


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is missing (Debian package `systemd`; .ci/run installs it)",
)
def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    for unit in UNITS:
        text = (ROOT / "deploy" / unit).read_text(encoding="utf-8")
        assert "/opt/planner-mcp/.venv/bin/planner-mcp" in text
        (tmp_path / unit).write_text(text.replace("/opt/planner-mcp", str(ROOT)), encoding="utf-8")

    done = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / u) for u in UNITS)],
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == "", "systemd-analyze warned: " + done.stdout + done.stderr


def test_the_units_start_what_the_readme_documents() -> None:
    server = (ROOT / "deploy" / "planner-mcp.service").read_text(encoding="utf-8")
    bot = (ROOT / "deploy" / "planner-telegram.service").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "planner-mcp serve --http" in server and "EnvironmentFile=/etc/planner-mcp/planner.env" in server
    assert "planner-mcp telegram" in bot and "After=network-online.target planner-mcp.service" in bot
    assert "## Run it for a team" in readme and "deploy/planner-mcp.service" in readme
    for example in ("planner.env.example", "telegram.env.example"):
        assert (ROOT / "deploy" / example).exists()
