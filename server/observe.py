"""Every tool call, observed in one place: its latency and reply status as metrics, and one log line.

The line carries the tool, a hash of the user, the plan and draft ids, the status, the latency and
the ids of the Composio requests it made; never the person's words, the reply's text or a record's
contents (those belong in the audit log, which the person can read and the operator can export).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from server.logs import user_hash
from server.replies import Reply
from toolkits import metrics

__all__ = ["observed"]

log = logging.getLogger("planner.tool")


async def observed(tool: str, user: str, fn: Callable[[], Awaitable[Reply]]) -> Reply:
    start = time.perf_counter()
    status = "error"
    reply: Reply | None = None
    with metrics.composio_request_ids() as request_ids:
        try:
            reply = await fn()
            status = reply.status
            return reply
        finally:
            seconds = time.perf_counter() - start
            metrics.tool_call(tool, status, seconds)
            fields = {
                "event": "tool",
                "tool": tool,
                "user": user_hash(user),
                "status": status,
                "latency_ms": round(seconds * 1000, 1),
                "plan_id": _plan_id(reply),
                "draft_id": reply.draft.id if reply is not None and reply.draft is not None else None,
                "composio_request_ids": list(request_ids),
            }
            log.info("tool %s: %s", tool, status, extra=fields)


def _plan_id(reply: Reply | None) -> str | None:
    if reply is not None and reply.plan is not None:
        return reply.plan.plan_id
    if reply is not None and reply.draft is not None:
        return reply.draft.plan_id
    return None
