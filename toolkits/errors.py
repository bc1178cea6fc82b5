"""Errors raised by toolkits and their backends.

ToolkitError                 base; its message is safe to show a person (no secrets, no payloads)
├── InvalidArguments         arguments do not fit the tool's input schema (never retried)
├── UnknownTool              a slug this project does not know
├── UpstreamRejected         the remote refused the call (4xx, `successful: false`); never retried
├── UpstreamUnavailable      transient: connection error, 408, 429, 5xx; safe to retry for reads
│   └── OutcomeUnknown       the request may have been applied (timeout after sending); reconcile first
└── NotConnected             no credentials / connected account for this toolkit; `fix` says what to run

Every error may carry the `request_id` of the remote answer it came from (for the log, never shown).
"""

from __future__ import annotations

__all__ = [
    "InvalidArguments",
    "NotConnected",
    "OutcomeUnknown",
    "ToolkitError",
    "UnknownTool",
    "UpstreamRejected",
    "UpstreamUnavailable",
]


class ToolkitError(Exception):
    """Base class; `str(error)` is written for a person and carries no secrets."""

    request_id: str | None = None


class InvalidArguments(ToolkitError):
    def __init__(self, slug: str, problems: list[str]) -> None:
        self.slug = slug
        self.problems = problems
        super().__init__(f"{slug}: " + "; ".join(problems))


class UnknownTool(ToolkitError):
    pass


class UpstreamRejected(ToolkitError):
    pass


class UpstreamUnavailable(ToolkitError):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class OutcomeUnknown(UpstreamUnavailable):
    pass


class NotConnected(ToolkitError):
    """The toolkit cannot be reached for this Composio user.

    `reason`: "not_connected" (no active connected account), "user_mismatch" (the configured account
    belongs to another user id), "user_required", "expired" (reconnect), "key" (the API key was
    refused or is missing). `toolkit` and `user_id` name what is concerned; `fix` is the command or
    setting that fixes it, e.g. "planner-mcp connect linear"; `detail` is Composio's own message
    and suggested fix, cleaned of secrets.
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str = "key",
        toolkit: str | None = None,
        user_id: str | None = None,
        fix: str | None = None,
        detail: str | None = None,
    ) -> None:
        self.reason = reason
        self.toolkit = toolkit
        self.user_id = user_id
        self.fix = fix
        self.detail = detail
        super().__init__(message)
