"""One client process for the HTTP concurrency tests (started by `servers.WorkerPool`; not a test).

Reads one JSON job line on stdin: {"url", "token", "connections": n, and "calls": [{"tool", "args"}]
(independent calls, all at once) or "flows": [{"user", "text"}] (plan -> confirm -> execute, all flows
at once)}. Opens its connections, prints "ready", waits for "go" on stdin, runs everything
concurrently over the connections (round robin), and prints one JSON report:
{"replies": [...]} with a reply per call (or per flow step: {"plan", "confirm", "execute"}).
A call that raises is reported as {"status": "exception", "user_message": "<type>: <message>"}.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from contextlib import AsyncExitStack
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

REF_NOW = "2026-11-25T12:00:00+03:00"


def structured(result: Any) -> dict[str, Any]:
    if result.is_error:
        text = " ".join(str(getattr(c, "text", "")) for c in result.content)
        return {"ok": False, "status": "tool_error", "user_message": text}
    return dict(result.structured_content or {})


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        reply = structured(await client.call_tool(tool, args))
    except Exception as exc:  # reported, so the parent sees every failure
        reply = {"ok": False, "status": "exception", "user_message": f"{type(exc).__name__}: {exc}"}
    reply["elapsed_s"] = time.perf_counter() - started
    return reply


async def flow(client: Client, user: str, text: str) -> dict[str, Any]:
    out: dict[str, Any] = {"user": user, "text": text}
    out["plan"] = await call(client, "plan", {"text": text, "user_id": user, "now": REF_NOW})
    draft = (out["plan"].get("draft") or {}).get("id")
    if out["plan"].get("status") == "draft_pending" and draft:
        out["confirm"] = await call(client, "confirm_draft", {"draft_id": draft, "user_id": user})
        out["execute"] = await call(client, "execute_draft", {"draft_id": draft, "user_id": user})
    return out


async def main() -> int:
    job = json.loads(sys.stdin.readline())
    async with AsyncExitStack() as stack:
        clients = []
        for _ in range(max(1, int(job.get("connections", 1)))):
            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {job['token']}"}, timeout=60)
            )
            clients.append(
                await stack.enter_async_context(Client(streamable_http_client(job["url"], http_client=http)))
            )
        await asyncio.gather(*(c.list_tools() for c in clients))  # connected and warm
        print("ready", flush=True)
        go = await asyncio.to_thread(sys.stdin.readline)
        if go.strip() != "go":
            return 2
        if "flows" in job:
            tasks = [
                flow(clients[i % len(clients)], f["user"], f["text"]) for i, f in enumerate(job["flows"])
            ]
        else:
            tasks = [
                call(clients[i % len(clients)], c["tool"], c["args"]) for i, c in enumerate(job["calls"])
            ]
        replies = await asyncio.gather(*tasks)
    print(json.dumps({"replies": replies}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
