"""Helpers for the bot's end-to-end tests: the real planner over Streamable HTTP as a subprocess, the
test's own MCP client to check what happened, and the bot as `planner-mcp telegram` runs it.

(A module, not a conftest.py: a second non-package conftest would shadow `tests/conftest.py` for
every later `from conftest import ...`.)
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from telegram_fakes import FakeTelegram, Person

from bot.app import TelegramBot
from bot.config import BotConfig

ROOT = Path(__file__).resolve().parents[2]
START_DEADLINE_S = 30.0
TOKEN = "123456:TEST-bot-token-not-real"


@dataclass(frozen=True)
class Planner:
    url: str
    token: str
    db: Path
    log: Path


def _wait_until_listening(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_DEADLINE_S
    while True:
        if proc.poll() is not None:
            pytest.fail(f"planner exited with {proc.returncode}:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(
                    f"planner did not listen in {START_DEADLINE_S}s:\n{log.read_text(errors='replace')}"
                )
            time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def planner_process(workdir: Path, *, port: int | None = None, token: str | None = None) -> Iterator[Planner]:
    """`planner-mcp serve --http` on a free port with a random PLANNER_HTTP_TOKEN and a fresh PLANNER_DB
    (or the given port and token, to restart it in place)."""
    port, token = port or free_port(), token or secrets.token_urlsafe(24)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSIO_", "PLANNER_", "TELEGRAM_"))}
    env.update(PLANNER_DB=str(workdir / "planner.db"), PLANNER_HTTP_TOKEN=token)
    log = workdir / "planner.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--http",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
        )
    try:
        _wait_until_listening(proc, port, log)
        yield Planner(f"http://127.0.0.1:{port}/mcp", token, workdir / "planner.db", log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@asynccontextmanager
async def planner_client(planner: Planner) -> AsyncIterator[Client]:
    """The test's own MCP client, with the bot's token: it sees what a Telegram user's drafts did."""
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {planner.token}"}, timeout=30) as http:
        async with Client(streamable_http_client(planner.url, http_client=http)) as client:
            yield client


async def ask_planner(planner: Planner, tool: str, **args: Any) -> dict[str, Any]:
    async with planner_client(planner) as client:
        result = await client.call_tool(tool, args)
    assert not result.is_error, result
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def find_dicts(obj: Any, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        if pred(obj):
            found.append(obj)
        for value in obj.values():
            found += find_dicts(value, pred)
    elif isinstance(obj, list):
        for value in obj:
            found += find_dicts(value, pred)
    return found


async def issues_with(planner: Planner, marker: str) -> set[str]:
    """Linear issues (in the sandbox) whose title carries `marker`, found by asking the planner."""
    reply = await ask_planner(planner, "plan", text=f"Найди в Linear задачи {marker}", user_id="checker")
    assert reply["status"] == "answered", reply
    hits = find_dicts(reply.get("results"), lambda d: "identifier" in d and marker in str(d.get("title", "")))
    return {str(h["id"]) for h in hits}


async def executions(planner: Planner, telegram_user_id: int) -> int:
    """How many drafts the planner executed for this Telegram user (its audit log's EXECUTE records)."""
    audit = await ask_planner(planner, "read_audit_log", user_id=f"telegram:{telegram_user_id}")
    return sum(1 for row in audit["results"] if row.get("decision_type") == "EXECUTE")


def new_user_id() -> int:
    return 10_000_000 + uuid.uuid4().int % 1_000_000_000


def new_marker() -> str:
    return "tg" + uuid.uuid4().hex[:8]


@dataclass
class Harness:
    fake: FakeTelegram
    bot: TelegramBot
    planner: Planner

    def person(self, name: str = "Иван", language_code: str = "ru", chat_id: int | None = None) -> Person:
        return Person(self.fake, new_user_id(), name, language_code, chat_id)


def bot_config(planner: Planner | None, base_url: str, **overrides: Any) -> BotConfig:
    config = BotConfig(
        telegram_token=TOKEN,
        planner_url=planner.url if planner else None,
        planner_token=planner.token if planner else None,
        api_url=base_url,
        speech_url=f"{base_url}/voice-command",
        poll_timeout_s=1.0,
        timezone="Europe/Moscow",
    )
    return replace(config, **overrides)


@asynccontextmanager
async def running_bot(config: BotConfig) -> AsyncIterator[TelegramBot]:
    bot = TelegramBot(config)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
