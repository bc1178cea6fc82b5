"""Sandbox mode, made visible: with no Composio key every change lands in the embedded workspace, whose
links look real (app.attio.com, linear.app), so a person could believe their records changed.

`serve` says so once on stderr at start; every reply carries `sandbox: true`; drafts and execution
results end with a line saying that nothing real changes.
"""

from __future__ import annotations

from server.render import t
from server.replies import Reply

__all__ = ["MARKED", "mark", "startup_line"]

# replies that preview or report changes: the person must not mistake them for real ones
MARKED = frozenset(
    {"draft_pending", "needs_bulk_confirmation", "confirmed", "executed", "partially_executed", "dry_run"}
)


def startup_line(where: str) -> str:
    return (
        f"planner-mcp: SANDBOX MODE - no COMPOSIO_API_KEY, so every change goes to the embedded sandbox "
        f"workspace ({where}), not to your Attio, Linear or Google Calendar. "
        "`planner-mcp doctor` shows how to connect them."
    )


def mark(reply: Reply, sandbox: bool) -> Reply:
    """`reply` with `sandbox: true` and, for a preview or a result, the sandbox line; unchanged when
    the server runs on Composio."""
    if not sandbox:
        return reply
    message = reply.user_message
    if message and (reply.status in MARKED or (reply.status == "failed" and reply.draft is not None)):
        lang = reply.draft.language if reply.draft else reply.plan.language if reply.plan else "en"
        line = t(
            lang,
            "🧪 Песочница: ваши настоящие Attio, Linear и Google Calendar не меняются.",
            "🧪 Sandbox: your real Attio, Linear and Google Calendar are not changed.",
        )
        message = message if line in message else f"{message}\n{line}"
    return reply.model_copy(update={"sandbox": True, "user_message": message})
