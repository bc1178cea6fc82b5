"""A tool call on the Composio backend (the real SDK against the sandbox in Composio's REST shape):
its log line names the x-request-id of every Composio call it made, and the Composio counter moves."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REF_NOW, reply_of
from mcp import Client
from prometheus_client.parser import text_string_to_metric_families

from server.app import build_server
from server.settings import Settings
from server.wiring import build_service
from toolkits import metrics
from toolkits.sandbox import SandboxBackend
from toolkits.sandbox_api import build_app, run_in_thread

pytestmark = pytest.mark.anyio


SENT: list[str] = []  # the x-request-id of every execute that reached "Composio"


@pytest.fixture
def composio_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    remote = SandboxBackend(tmp_path / "remote.db")
    app = build_app(remote, api_key="ak_test")

    async def recording(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and "/tools/execute/" in scope["path"]:
            SENT.append(dict(scope["headers"]).get(b"x-request-id", b"").decode())
        await app(scope, receive, send)

    SENT.clear()
    with run_in_thread(recording) as url:
        monkeypatch.setenv("COMPOSIO_BASE_URL", url)
        yield url
    asyncio.run(remote.aclose())


@pytest.fixture
async def client(tmp_path: Path, composio_url: str) -> AsyncIterator[Client]:
    settings = Settings(
        db_path=tmp_path / "planner.db", composio_api_key="ak_test", composio_user_id="default"
    )
    service = build_service(settings)
    async with Client(build_server(service, settings)) as c:
        yield c


def composio_calls() -> float:
    return sum(
        s.value
        for family in text_string_to_metric_families(metrics.exposition().decode())
        for s in family.samples
        if s.name == "planner_composio_calls_total" and s.labels.get("outcome") == "ok"
    )


async def test_a_tool_line_names_the_composio_request_ids_and_the_counter_counts_each_call(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    before = composio_calls()
    with caplog.at_level(logging.INFO, logger="planner.tool"):
        result = await client.call_tool(
            "plan", {"text": "Покажи сделку Globex pilot", "user_id": "anna", "now": REF_NOW}
        )
    assert reply_of(result)["status"] == "answered"

    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "tool"]
    ids = line.composio_request_ids  # type: ignore[attr-defined]
    assert ids and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids) and len(set(ids)) == len(ids)
    assert composio_calls() - before == len(ids)
    assert ids == SENT  # the ids in the log are the ones Composio received
    assert line.user != "anna" and "Globex" not in line.getMessage()  # type: ignore[attr-defined]
