"""The process that dies: builds the store, sandbox and executor on one database (a SQLite file or a
PostgreSQL URL), confirms a draft of three actions and executes it, SIGKILLing itself at a named
point (or being killed by the parent).

Usage: crash_child.py DB TAG KILL_POINT KILL_INDEX LATENCY_S
    KILL_POINT: after_claim | after_remote | after_record | none (the parent kills at random)

Prints "ready <draft_id> <mcp imported?>" once the draft is confirmed, then "done <status>".
Imports only drafts and toolkits (no mcp, no server), so it starts in a fraction of a second.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import UTC, datetime

from drafts.executor import Executor
from drafts.factory import open_store
from toolkits import attio, linear
from toolkits.base import ToolAction
from toolkits.sandbox.backend import SandboxBackend

ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
USER = "anna"


def actions(tag: str) -> list[ToolAction]:
    """A Linear issue (client id), an Attio note (marker) and a comment on the new issue (marker)."""
    comment = linear.ops.comment_issue("$ref:0.issueCreate.issue.id", f"Comment {tag}", "comment")
    return [
        linear.ops.create_issue(["crash", tag], {"teamId": ENG, "title": f"Issue {tag}"}, "create issue"),
        attio.ops.create_note("companies", ACME, f"Note {tag}", "Signed today.", "add note"),
        comment.model_copy(update={"depends_on": 0}),
    ]


async def main(db: str, tag: str, point: str, index: int, latency: float) -> None:
    def on_event(event: str, draft_id: str, action_index: int) -> None:
        if event == point and action_index == index:
            os.kill(os.getpid(), signal.SIGKILL)

    store = open_store(db)
    backend = SandboxBackend(db, latency=latency)
    draft = await store.create_draft(
        user_id=USER,
        conversation_id=None,
        plan_id="crash",
        summary="crash matrix",
        language="en",
        actions=actions(tag),
        bulk_count=None,
        ttl_s=1800,
        now=datetime.now(UTC),
    )
    assert await store.transition(draft.id, USER, {"pending"}, "confirmed")
    print("ready", draft.id, "mcp" in sys.modules, flush=True)
    executor = Executor(store, backend, on_event=on_event, reconcile_grace_s=0.0)
    done = await executor.execute(draft.id, USER)
    print("done", None if done is None else done.status, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])))
