"""The real in-memory MCP client, driven from synchronous code (Hypothesis tests are synchronous).

`Client`'s task group must be entered and left in one task, so the client lives in one long-running
task on the caller's event loop (an `asyncio.Runner` kept for the module) and each call is handed to
it through a queue: `runner.run(server.call(tool, args))`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from conftest import reply_of
from mcp import Client
from mcp.types import CallToolResult

__all__ = ["InMemoryServer", "reply_or_error"]

Reply = dict[str, Any]
CALL_TIMEOUT_S = 30.0  # a hang fails the call instead of the whole run


def reply_or_error(result: CallToolResult) -> Reply:
    """The structured reply; a tool error without one becomes {"ok": False, "status": "tool_error", ...}."""
    if result.is_error and not isinstance(result.structured_content, dict):
        text = " ".join(str(getattr(c, "text", "")) for c in result.content)
        return {"ok": False, "status": "tool_error", "user_message": text}
    return reply_of(result)


class InMemoryServer:
    """An MCP server object and a connected in-memory client in its own task."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.queue: asyncio.Queue[tuple[str, dict[str, Any], asyncio.Future[Any]] | None] | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    async def start(self) -> None:
        self.queue = asyncio.Queue()
        ready = asyncio.Event()
        self.task = asyncio.create_task(self._serve(ready))
        waiter = asyncio.create_task(ready.wait())
        await asyncio.wait({self.task, waiter}, timeout=CALL_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
        if not ready.is_set():
            waiter.cancel()
            await self.task  # re-raises why the client could not connect
            raise AssertionError("the in-memory client did not connect")

    async def _serve(self, ready: asyncio.Event) -> None:
        assert self.queue is not None
        async with Client(self.server) as client:
            ready.set()
            while (item := await self.queue.get()) is not None:
                tool, args, reply = item
                try:
                    reply.set_result(await client.call_tool(tool, args))
                except Exception as exc:
                    reply.set_exception(exc)

    async def call_raw(self, tool: str, args: dict[str, Any]) -> CallToolResult:
        assert self.queue is not None and self.running
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.queue.put((tool, args, future))
        result: CallToolResult = await asyncio.wait_for(future, timeout=CALL_TIMEOUT_S)
        return result

    async def call(self, tool: str, args: dict[str, Any]) -> Reply:
        return reply_or_error(await self.call_raw(tool, args))

    async def stop(self) -> None:
        if self.queue is not None and self.task is not None:
            await self.queue.put(None)
            await asyncio.wait_for(self.task, timeout=CALL_TIMEOUT_S)
            self.task = None
