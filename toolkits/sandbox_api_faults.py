"""Fault injection for the sandbox's Composio-shaped HTTP API (`toolkits.sandbox_api`).

These faults live at the HTTP layer: status codes with Composio's envelope, tool-level failures
inside a 200, slow answers, answers lost after the call was applied, dropped connections. Faults of
the backend itself (raised as toolkit errors) are `toolkits.sandbox.FaultPlan`'s business.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["HttpFault", "HttpFaultKind", "HttpFaults"]

HttpFaultKind = Literal["latency", "status", "tool_error", "timeout_after_write", "drop_before_write"]
_KINDS = ("latency", "status", "tool_error", "timeout_after_write", "drop_before_write")


@dataclass
class HttpFault:
    """One injected misbehaviour, matched against calls of `slug` (None: every slug) on `route`.

    kind:
        latency              wait `seconds` before handling (every matching call while `times` lasts)
        status               answer HTTP `status` with Composio's envelope (and `Retry-After:
                             retry_after` when set) without applying anything; `message`, `code`
                             and `suggested_fix`, when set, fill the envelope
        tool_error           answer HTTP 200 `successful: false` with `message` (e.g. a provider's
                             "RATELIMITED"), without applying anything
        timeout_after_write  apply the call, then hold the response for `seconds` or until the client
                             gives up (`drop`: close the connection instead)
        drop_before_write    close the connection without applying anything
    times: how many matching calls it affects; None means all of them.
    """

    kind: HttpFaultKind
    slug: str | None = None
    route: Literal["execute", "retrieve"] = "execute"
    times: int | None = 1
    seconds: float = 30.0
    status: int = 500
    retry_after: float | None = None
    drop: bool = False
    message: str = "Linear API error: RATELIMITED (rate limit exceeded)"
    code: int | None = None
    suggested_fix: str | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> HttpFault:
        """Build a fault from its JSON form (the field names above).

        Raises:
            ValueError: unknown fields or values of the wrong kind.
        """
        unknown = set(obj) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown fault fields: {', '.join(sorted(unknown))}")
        if obj.get("kind") not in _KINDS:
            raise ValueError(f"fault kind must be one of {', '.join(_KINDS)}")
        if obj.get("route", "execute") not in ("execute", "retrieve"):
            raise ValueError("route must be 'execute' or 'retrieve'")
        fault = cls(**dict(obj))
        if fault.kind == "latency" and "times" not in obj:
            fault.times = None
        if fault.times is not None and (isinstance(fault.times, bool) or not isinstance(fault.times, int)):
            raise ValueError("times must be an integer or null")
        if not isinstance(fault.seconds, int | float) or fault.seconds < 0:
            raise ValueError("seconds must be a non-negative number")
        if not isinstance(fault.status, int) or not 400 <= fault.status <= 599:
            raise ValueError("status must be an HTTP error status (400-599)")
        if fault.retry_after is not None and (
            not isinstance(fault.retry_after, int | float) or fault.retry_after < 0
        ):
            raise ValueError("retry_after must be a non-negative number or null")
        if not isinstance(fault.message, str) or not isinstance(fault.drop, bool):
            raise ValueError("message must be a string and drop a boolean")
        if fault.code is not None and (isinstance(fault.code, bool) or not isinstance(fault.code, int)):
            raise ValueError("code must be an integer or null")
        if fault.suggested_fix is not None and not isinstance(fault.suggested_fix, str):
            raise ValueError("suggested_fix must be a string or null")
        return fault


class HttpFaults:
    """The faults of one app; shared by the app, the tests and `POST /_faults`, hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[HttpFault] = []

    def add(self, *faults: HttpFault) -> None:
        with self._lock:
            self._items.extend(faults)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def describe(self) -> list[dict[str, Any]]:
        with self._lock:
            return [asdict(f) for f in self._items]

    def latency(self, slug: str, route: str) -> float:
        """Seconds to wait for this call: the sum of the matching latency faults (each used once)."""
        return sum(f.seconds for f in self._take_all(slug, route, "latency"))

    def take(self, slug: str, route: str, kind: HttpFaultKind) -> HttpFault | None:
        """The first matching fault of `kind`, counting this call against its `times`."""
        with self._lock:
            for fault in self._items:
                if fault.kind == kind and self._matches(fault, slug, route):
                    self._use(fault)
                    return fault
        return None

    def _take_all(self, slug: str, route: str, kind: HttpFaultKind) -> list[HttpFault]:
        with self._lock:
            found = [f for f in self._items if f.kind == kind and self._matches(f, slug, route)]
            for fault in found:
                self._use(fault)
            return found

    @staticmethod
    def _matches(fault: HttpFault, slug: str, route: str) -> bool:
        return (
            fault.route == route and fault.slug in (None, slug) and (fault.times is None or fault.times > 0)
        )

    def _use(self, fault: HttpFault) -> None:
        if fault.times is not None:
            fault.times -= 1
            if fault.times <= 0:
                self._items.remove(fault)
