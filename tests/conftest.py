"""Shared fixtures: a fresh sandbox + draft store per test, the real MCP client in memory."""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service

REF_NOW = "2026-11-25T12:00:00+03:00"
ROOT = Path(__file__).resolve().parents[1]
WORKSPACE = json.loads((ROOT / "toolkits" / "data" / "workspace.json").read_text(encoding="utf-8"))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "COMPOSIO_API_KEY",
        "COMPOSIO_BASE_URL",
        "PLANNER_DRY_RUN",
        "PLANNER_HTTP_TOKEN",
        "PLANNER_HTTP_TOKENS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PLANNER_DB", str(tmp_path / "planner.db"))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "planner.db")


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[Service]:
    svc = build_service(settings)
    yield svc
    await svc.backend.aclose()
    await svc.store.close()


@pytest.fixture
async def client(service: Service, settings: Settings) -> AsyncIterator[Client]:
    async with Client(build_server(service, settings)) as c:
        yield c


def reply_of(result: Any) -> dict[str, Any]:
    """The structured reply of a tool call."""
    sc = result.structured_content
    assert isinstance(sc, dict), result
    return sc


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The plan's intents that change something, without their confidence and span."""
    return [
        {k: v for k, v in i.items() if k not in ("confidence", "span")}
        for i in reply["plan"]["intents"]
        if i["op"] != "find"
    ]


def ops(reply: dict[str, Any]) -> list[str]:
    """The ops of `writes(reply)`, in order."""
    return [i["op"] for i in writes(reply)]


def drafted(reply: dict[str, Any]) -> list[str]:
    """The write actions of the plan, as toolkit:operation."""
    return [f"{a['toolkit']}:{a['operation']}" for a in reply["plan"]["actions"] if not a["read_only"]]


class Conversation:
    """One person talking to the server: fills user_id, conversation_id and now."""

    def __init__(self, client: Client, user: str = "anna", conversation: str = "chat-1") -> None:
        self.client, self.user, self.conversation = client, user, conversation

    async def call(self, tool: str, **args: Any) -> dict[str, Any]:
        args.setdefault("user_id", self.user)
        if tool == "plan":
            args.setdefault("conversation_id", self.conversation)
            args.setdefault("now", REF_NOW)
        result = await self.client.call_tool(tool, args)
        if result.is_error and not isinstance(result.structured_content, dict):  # refused by the schema
            return {
                "ok": False,
                "status": "tool_error",
                "user_message": " ".join(getattr(c, "text", "") for c in result.content),
            }
        return reply_of(result)

    async def say(self, text: str, **args: Any) -> dict[str, Any]:
        return await self.call("plan", text=text, **args)


async def run(who: Conversation, reply: dict[str, Any]) -> dict[str, Any]:
    """Confirm and execute a draft, as a client does after the person says yes."""
    draft_id = reply["draft"]["id"]
    assert (await who.call("confirm_draft", draft_id=draft_id))["status"] == "confirmed"
    done = await who.call("execute_draft", draft_id=draft_id)
    assert done["status"] == "executed", done["user_message"]
    return done


@pytest.fixture
def anna(client: Client) -> Conversation:
    return Conversation(client)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def port() -> Iterator[int]:
    yield free_port()


# ---- nothing leaves the machine: every test is guarded (issue 4) ----------------------------------

_LOCAL_NAMES = {"localhost", "localhost.", "ip6-localhost"}


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return False
    return True


def is_loopback(host: object) -> bool:
    """Whether `host` (an address or a name) stays on this machine."""
    text = str(host).strip("[]").split("%")[0].lower()
    if text in _LOCAL_NAMES or text.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse (and fail the test for) any connection or name lookup beyond the loopback.

    Refusing alone would not do: a daemon thread (the composio SDK's telemetry) swallows the error,
    so every attempt is also recorded and the test fails at teardown if there was one.
    """
    attempts: list[str] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback(address[0]):
            attempts.append(f"connect {address[0]}:{address[1]}")
            raise ConnectionRefusedError(f"network guard: {address[0]} is not loopback")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        # a numeric address needs no lookup; `connect` decides about it
        if name is not None and not _is_address(str(name)) and not is_loopback(name):
            attempts.append(f"resolve {host}")
            raise socket.gaierror(socket.EAI_NONAME, f"network guard: {host} is not loopback")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert attempts == [], f"tests must not leave 127.0.0.1: {attempts}"
