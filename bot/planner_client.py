"""The bot's one MCP session with the planner, owned by one task and reconnected on failure.

Why an owner task: the SDK's client contexts hold anyio cancel scopes that must be exited by the task
that entered them, while Telegram handlers run in many short-lived tasks (and PTB's start/stop hooks
in different ones). So one background task opens the session, publishes it, and closes it; handlers
only borrow it. When a call fails at the transport level the session is marked broken, the owner
reconnects (with backoff) and the call is retried once. That retry is safe because every call that
changes anything carries a `callback_id`, which the planner replays instead of running twice.

This is the only module of the bot that imports the MCP SDK: the bot is an MCP client and nothing
more (it never imports the planner's packages).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import httpx2
from mcp import Client, StdioServerParameters  # noqa: TID251 - the bot is an MCP client
from mcp.client.streamable_http import streamable_http_client  # noqa: TID251
from mcp.shared.dispatcher import ProgressFnT  # noqa: TID251
from mcp.types import CallToolResult  # noqa: TID251

__all__ = [
    "PlannerError",
    "PlannerGateway",
    "PlannerUnavailable",
    "ToolCaller",
    "http_connector",
    "stdio_connector",
]

log = logging.getLogger("bot.planner")


class PlannerUnavailable(RuntimeError):
    """The planner could not be reached (nothing was done, or the call's outcome is replayable)."""


class PlannerError(RuntimeError):
    """The planner refused the call itself (bad arguments): a bug on the bot's side, not the person's."""


class ToolCaller(Protocol):
    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: ProgressFn | None = None,
    ) -> CallToolResult: ...


Connector = Callable[[], AbstractAsyncContextManager[ToolCaller]]
# (progress, total, message) as the planner reports it while a tool runs (execute_draft: actions done).
ProgressFn = ProgressFnT


def http_connector(url: str, token: str, timezone: str, *, read_timeout_s: float = 120.0) -> Connector:
    """Streamable HTTP with the delegating bearer token; X-Timezone tells the planner the person's zone."""

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[ToolCaller]:
        headers = {"Authorization": f"Bearer {token}", "X-Timezone": timezone}
        timeout = httpx2.Timeout(30.0, read=read_timeout_s)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                yield client

    return connect


# The spawned planner learns that its client speaks for several people (DESIGN §10): a `user_id` the
# bot leaves out must never fall back to the previous person's.
DELEGATE_ENV = {"PLANNER_STDIO_DELEGATE": "1"}


def stdio_connector(command: tuple[str, ...], env: Mapping[str, str]) -> Connector:
    """Spawn the planner as a child process (for a single-machine setup without a planner URL)."""

    @contextlib.asynccontextmanager
    async def connect() -> AsyncIterator[ToolCaller]:
        params = StdioServerParameters(
            command=command[0], args=list(command[1:]), env={**env, **DELEGATE_ENV}
        )
        async with Client(params) as client:
            yield client

    return connect


class PlannerGateway:
    def __init__(
        self,
        connector: Connector,
        *,
        call_timeout_s: float = 120.0,
        connect_timeout_s: float = 30.0,
        concurrency: int = 8,
        max_backoff_s: float = 10.0,
    ) -> None:
        self._connector = connector
        self._call_timeout = call_timeout_s
        self._connect_timeout = connect_timeout_s
        self._max_backoff = max_backoff_s
        # Calls share the session concurrently (each is its own request), bounded so a burst of chats
        # cannot pile hundreds of requests onto the planner at once.
        self._slots = asyncio.Semaphore(concurrency)
        self._client: ToolCaller | None = None
        self._ready = asyncio.Event()
        self._broken = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self.connections = 0  # how many sessions were opened (observability, tests)

    @property
    def connected(self) -> bool:
        """Whether a session is open and not known to be broken."""
        return self._ready.is_set()

    async def start(self, *, wait: bool = True) -> None:
        """Start the owner task; with `wait`, give the first connection a moment (it keeps retrying)."""
        if self._task is None:
            self._task = asyncio.create_task(self._own(), name="planner-session")
        if wait:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), self._connect_timeout)

    async def stop(self) -> None:
        self._stopping = True
        self._broken.set()
        task, self._task = self._task, None
        if task is None:
            return
        done, _ = await asyncio.wait({task}, timeout=10)
        if not done:  # stuck connecting: cancelling is safe, the owner task exits its own scopes
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _own(self) -> None:
        backoff = 0.25
        while not self._stopping:
            try:
                async with self._connector() as client:
                    self.connections += 1
                    self._client = client
                    self._ready.set()
                    backoff = 0.25
                    await self._broken.wait()
            except Exception as exc:  # any failure of the transport: log its kind (never its text: URLs)
                log.warning("planner session failed (%s); reconnecting", _kinds(exc))
            finally:
                self._client = None
                self._ready.clear()
                self._broken.clear()
            if not self._stopping:
                with contextlib.suppress(TimeoutError):  # `stop()` ends the wait early
                    await asyncio.wait_for(self._broken.wait(), backoff)
                backoff = min(backoff * 2, self._max_backoff)

    def _mark_broken(self, client: ToolCaller) -> None:
        if self._client is client:  # only the session that failed; a fresh one is left alone
            self._ready.clear()
            self._broken.set()

    async def call(
        self, tool: str, arguments: Mapping[str, Any], *, progress: ProgressFn | None = None
    ) -> dict[str, Any]:
        """Call a planner tool; returns its structured reply (DESIGN §4). `progress` hears the
        planner's progress notifications for this call.

        Raises:
            PlannerUnavailable: no session within the connect timeout, or the call failed twice.
            PlannerError: the planner refused the arguments.
        """
        args = {k: v for k, v in arguments.items() if v is not None}
        for attempt in (1, 2):
            try:
                await asyncio.wait_for(self._ready.wait(), self._connect_timeout)
            except TimeoutError as exc:
                raise PlannerUnavailable("no planner session") from exc
            client = self._client
            if client is None:
                continue
            try:
                async with self._slots:
                    result = await client.call_tool(
                        tool, args, read_timeout_seconds=self._call_timeout, progress_callback=progress
                    )
            except Exception as exc:
                log.warning("planner call %s failed (%s), attempt %d", tool, type(exc).__name__, attempt)
                self._mark_broken(client)
                if attempt == 2:
                    raise PlannerUnavailable(f"{tool} failed") from exc
                continue
            return _reply_of(tool, result)
        raise PlannerUnavailable(f"{tool}: no session")


def _kinds(exc: BaseException) -> str:
    """An exception's type, and its leaves' types for a group (anyio wraps transport errors)."""
    if isinstance(exc, BaseExceptionGroup):
        return f"{type(exc).__name__}[{', '.join(_kinds(e) for e in exc.exceptions)}]"
    return type(exc).__name__


def _reply_of(tool: str, result: CallToolResult) -> dict[str, Any]:
    text = " ".join(str(getattr(c, "text", "")) for c in result.content)
    if (
        result.is_error
        and isinstance(result.structured_content, dict)
        and "status" in result.structured_content
    ):
        return dict(result.structured_content)  # `not_found` / `invalid`: a reply the person can read
    if result.is_error:
        raise PlannerError(f"{tool} refused: {text[:300]}")
    if isinstance(result.structured_content, dict):
        return dict(result.structured_content)
    try:  # a server that only returns text content still returns the reply as JSON text
        data = json.loads(text)
    except ValueError as exc:
        raise PlannerError(f"{tool} returned no structured reply") from exc
    if not isinstance(data, dict):
        raise PlannerError(f"{tool} returned no structured reply")
    return data
