"""Composio's error envelope, read into what a person can do about it (DESIGN §8).

Composio answers a refused call with `{"error": {"message", "code", "slug", "status", "request_id",
"suggested_fix", "errors"}}`. Not every answer carries every key: the "No connected account found"
answer to `tools/execute` (code 1803, reported in ComposioHQ/composio#1838) has no `slug`, so the
SDK's own `details` narrowing drops it; the raw body is read as well.

Codes seen in Composio's answers (1800-1899 are ActionExecute errors):

    1803, 1810  no connected account for this user id and toolkit
                (ActionExecute_ConnectedAccountNotFound; ToolRouterV2_NoActiveConnection in sessions)
    1811        a connected account id was sent without a user id
                (ActionExecute_ConnectedAccountEntityIdRequired)
    1812        the connected account belongs to another user id
                (ActionExecute_ConnectedAccountEntityIdMismatch)
    ...Expired  the account exists but its authorisation expired (reconnect)

Nothing here imports `composio`: the exception is read through its attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Refusal", "Trouble", "refusal_of", "trouble_of"]

Trouble = Literal["not_connected", "user_mismatch", "user_required", "expired", "key", "other"]

_NOT_CONNECTED_CODES = frozenset({1803, 1810})
_NOT_CONNECTED_SLUGS = frozenset(
    {"ActionExecute_ConnectedAccountNotFound", "ToolRouterV2_NoActiveConnection"}
)


@dataclass(frozen=True)
class Refusal:
    """One refused request: what Composio said, in its own words (not yet cleaned of secrets)."""

    status: int
    code: int | None = None
    slug: str | None = None
    message: str = ""
    suggested_fix: str | None = None
    request_id: str | None = None


def refusal_of(exc: Any) -> Refusal:
    """The envelope of a `composio_client.APIStatusError` (any object with its attributes)."""
    inner: Mapping[str, Any] = {}
    details = getattr(exc, "details", None)
    body = getattr(exc, "body", None)
    if isinstance(details, Mapping):
        inner = details
    elif isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        inner = body["error"]
    elif isinstance(body, Mapping):
        inner = body
    code = inner.get("code")
    if isinstance(code, str) and code.isdecimal():
        code = int(code)
    fix = inner.get("suggested_fix")
    request_id = getattr(exc, "request_id", None) or inner.get("request_id")
    return Refusal(
        status=int(getattr(exc, "status_code", 0) or inner.get("status") or 0),
        code=code if isinstance(code, int) and not isinstance(code, bool) else None,
        slug=str(inner["slug"]) if isinstance(inner.get("slug"), str) else None,
        message=str(inner.get("message") or getattr(exc, "message", "") or ""),
        suggested_fix=str(fix) if isinstance(fix, str) and fix.strip() else None,
        request_id=str(request_id) if request_id else None,
    )


def trouble_of(refusal: Refusal) -> Trouble:
    """Which fix a refusal calls for."""
    text = refusal.message.casefold()
    if refusal.status in (401, 403):
        return "key"
    if refusal.code == 1812 or refusal.slug == "ActionExecute_ConnectedAccountEntityIdMismatch":
        return "user_mismatch"
    if refusal.code == 1811 or refusal.slug == "ActionExecute_ConnectedAccountEntityIdRequired":
        return "user_required"
    if (refusal.slug or "").endswith("ConnectedAccountExpired") or "expired state" in text:
        return "expired"
    if (
        refusal.code in _NOT_CONNECTED_CODES
        or refusal.slug in _NOT_CONNECTED_SLUGS
        or "no connected account" in text
    ):
        return "not_connected"
    return "other"
