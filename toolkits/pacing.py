"""Pacing: keep each toolkit's calls within its rate budget (a token bucket per toolkit), so a large
draft is slowed down rather than throttled halfway by the provider (DESIGN §6 `rate_limit_risk`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from toolkits import metrics, registry
from toolkits.base import Backend, ToolResult
from toolkits.schemas import toolkit_of

__all__ = ["PacedBackend"]


class _Bucket:
    def __init__(self, per_minute: int, clock: Callable[[], float]) -> None:
        self.capacity = float(max(1, per_minute))
        self.rate = self.capacity / 60.0
        self.tokens = self.capacity
        self.clock = clock
        self.stamp = clock()
        self.lock = asyncio.Lock()

    def wait_for_token(self) -> float:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        wait = (1.0 - self.tokens) / self.rate
        self.tokens = 0.0
        self.stamp = now + wait
        return wait


class PacedBackend:
    """Wraps a backend; every call first takes a token from its toolkit's bucket."""

    def __init__(
        self,
        backend: Backend,
        *,
        budgets: Mapping[str, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.inner = backend
        self.name = backend.name
        self._budgets = dict(budgets) if budgets is not None else None
        self._clock, self._sleep = clock, sleep
        self._buckets: dict[str, _Bucket] = {}

    def _bucket(self, toolkit: str) -> _Bucket:
        if toolkit not in self._buckets:
            budget = (self._budgets or {}).get(toolkit) or registry.rate_budget(toolkit)
            self._buckets[toolkit] = _Bucket(budget, self._clock)
        return self._buckets[toolkit]

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        try:
            toolkit = toolkit_of(slug)
        except Exception:  # an unknown slug: let the backend refuse it with its own error
            return await self.inner.execute(slug, arguments)
        bucket = self._bucket(toolkit)
        async with bucket.lock:
            wait = bucket.wait_for_token()
        if wait > 0:
            metrics.pacing_wait(toolkit, wait)
            await self._sleep(wait)
        return await self.inner.execute(slug, arguments)

    def __getattr__(self, name: str) -> Any:  # e.g. the sandbox's `write_calls`, for tests and the demo
        return getattr(self.inner, name)

    async def aclose(self) -> None:
        await self.inner.aclose()
