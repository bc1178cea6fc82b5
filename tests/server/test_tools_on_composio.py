"""The same conversations as test_tools.py, with the server on its Composio backend: the real `composio`
SDK on the wire, talking to the sandbox served in Composio's REST shape on 127.0.0.1 (issue 4)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from test_tools import *  # noqa: F403 - every conversation of the in-process suite, collected again here

from server.service import Service
from server.settings import Settings
from server.wiring import build_service
from toolkits.base import ToolResult
from toolkits.composio_backend import ComposioBackend
from toolkits.registry import TOOLKITS
from toolkits.sandbox import SandboxBackend
from toolkits.sandbox_api import SandboxAccounts, build_app, run_in_thread

pytestmark = pytest.mark.anyio


class OverTheWire:
    """The Composio backend, plus a view of what reached "Composio" (the sandbox behind the API), so the
    suite's assertions about side effects read the remote truth."""

    name = "composio"

    def __init__(self, sdk: ComposioBackend, remote: SandboxBackend) -> None:
        self.sdk, self.remote = sdk, remote

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        return await self.sdk.execute(slug, arguments)

    @property
    def write_calls(self) -> list[tuple[str, dict[str, Any]]]:
        return list(self.remote.write_calls)

    async def aclose(self) -> None:
        await self.sdk.aclose()


@pytest.fixture
def remote_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, SandboxBackend]]:
    remote = SandboxBackend(tmp_path / "remote.db")
    with run_in_thread(
        build_app(remote, api_key="ak_test", accounts=SandboxAccounts({"anna-co": TOOLKITS}))
    ) as url:
        monkeypatch.setenv("COMPOSIO_BASE_URL", url)
        yield url, remote
    asyncio.run(remote.aclose())


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "planner.db", composio_api_key="ak_test", composio_user_id="anna-co")


@pytest.fixture
async def service(settings: Settings, remote_url: tuple[str, SandboxBackend]) -> AsyncIterator[Service]:
    url, remote = remote_url
    backend = OverTheWire(ComposioBackend(api_key="ak_test", user_id="anna-co", base_url=url), remote)
    svc = build_service(settings, backend=backend)
    yield svc
    await svc.backend.aclose()
    await svc.store.close()
