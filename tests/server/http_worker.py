"""One client process for the HTTP concurrency tests (started by `servers.WorkerPool`; not a test).

Reads one JSON job line on stdin: {"url", "token", "connections": n, and either "calls":
[{"tool", "args"}] (independent calls, one phase) or "flows": [{"user", "text"}] (three phases: every
flow's plan, then every confirm, then every execute)}. Opens its connections and, before each phase,
prints "ready" and waits for "go" on stdin (the parent releases all processes at once); within a phase
every call runs concurrently over the connections (round robin). Finally prints one JSON report,
{"replies": [...]}: a reply per call, or per flow {"user", "text", "plan", "confirm", "execute"}.
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
HARMLESS: dict[str, dict[str, Any]] = {  # a call of each tool that changes nothing and logs nothing
    "plan": {"text": " ", "user_id": "warm-up"},
    "confirm_draft": {"draft_id": "warm-up", "user_id": "warm-up"},
    "execute_draft": {"draft_id": "warm-up", "user_id": "warm-up"},
    "cancel_draft": {"draft_id": "warm-up", "user_id": "warm-up"},
    "list_drafts": {"user_id": "warm-up"},
}


def structured(result: Any) -> dict[str, Any]:
    if result.is_error and not isinstance(result.structured_content, dict):
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
        # Connected and warm: each client compiles a tool's output-schema validator on its first result
        # (~0.15 s of CPU), so call every tool of the job once, harmlessly, before the barrier.
        tools = {c["tool"] for c in job["calls"]} if "calls" in job else set(HARMLESS)
        await asyncio.gather(*(c.call_tool(t, HARMLESS[t]) for c in clients for t in sorted(tools)))

        async def phase(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
            print("ready", flush=True)
            if (await asyncio.to_thread(sys.stdin.readline)).strip() != "go":
                raise SystemExit(2)
            return list(
                await asyncio.gather(
                    *(call(clients[i % len(clients)], tool, args) for i, (tool, args) in enumerate(calls))
                )
            )

        if "calls" in job:
            replies: list[dict[str, Any]] = await phase([(c["tool"], c["args"]) for c in job["calls"]])
        else:
            flows = [{"user": f["user"], "text": f["text"]} for f in job["flows"]]
            plans = await phase(
                [("plan", {"text": f["text"], "user_id": f["user"], "now": REF_NOW}) for f in flows]
            )
            drafts = [(p.get("draft") or {}).get("id") for p in plans]
            for f, p in zip(flows, plans, strict=True):
                f["plan"] = p
            for step in ("confirm_draft", "execute_draft"):
                done = await phase(
                    [
                        (step, {"draft_id": d, "user_id": f["user"]})
                        for f, d in zip(flows, drafts, strict=True)
                        if d
                    ]
                )
                for f, r in zip([f for f, d in zip(flows, drafts, strict=True) if d], done, strict=True):
                    f[step.split("_")[0]] = r
            replies = flows
    print(json.dumps({"replies": replies}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
