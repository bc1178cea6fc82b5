"""Rate limits: Telegram's flood control on what the bot sends (`RetryAfterLimiter`), and a per-person
limit on what people send it (`UserRateLimit`).

Flood control: on 429 wait `retry_after` seconds and send again.

A one-to-one assistant sends about one message per update, far below Telegram's limits (≈1 msg/s per
chat, 30/s overall), so throttling every request would only add latency; reacting to the 429 that
Telegram sends when a burst does hit the limit is enough. PTB's own `AIORateLimiter` would do the
same but needs an extra dependency (aiolimiter).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

__all__ = ["RetryAfterLimiter", "UserRateLimit"]

log = logging.getLogger("bot.telegram")

JSONReply = bool | dict[str, Any] | list[dict[str, Any]]


class RetryAfterLimiter(BaseRateLimiter[int]):
    def __init__(self, *, max_retries: int = 3, max_wait_s: float = 60.0) -> None:
        self.max_retries = max_retries
        self.max_wait_s = max_wait_s  # a longer ban is reported, not slept through inside a handler
        self.waited: list[float] = []  # every wait, for observability and tests

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONReply]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> JSONReply:
        attempt = 0
        while True:
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                wait = _seconds(exc.retry_after)
                attempt += 1
                if attempt > self.max_retries or wait > self.max_wait_s:
                    raise
                log.info("Telegram flood control on %s: waiting %.1f s", endpoint, wait)
                self.waited.append(wait)
                await asyncio.sleep(wait)


def _seconds(value: int | dtm.timedelta) -> float:
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


class UserRateLimit:
    """Requests per person (messages and button presses): a token bucket of `per_window` requests
    that refills over `window_s`. It protects the planner, the team's Composio budget and the other
    people from one person (or one stolen account) sending in a loop.

    `take` is synchronous (no await between check and update), so concurrent updates cannot
    overdraw a bucket.
    """

    def __init__(self, per_window: int, window_s: float, *, clock: Callable[[], float] | None = None) -> None:
        import time

        self.capacity = float(max(1, per_window))
        self.rate = self.capacity / max(window_s, 1e-9)
        self._clock = clock or time.monotonic
        # user -> (tokens, when counted, already told to slow down in this throttled stretch)
        self._buckets: OrderedDict[int, tuple[float, float, bool]] = OrderedDict()

    def take(self, user_id: int) -> tuple[float, bool]:
        """Spend one request. Returns (0, False) when allowed; otherwise the seconds until the next
        request is, and whether this is the first refusal since the person was last let through
        (tell them once, then drop quietly)."""
        now = self._clock()
        tokens, stamp, told = self._buckets.pop(user_id, (self.capacity, now, False))
        tokens = min(self.capacity, tokens + (now - stamp) * self.rate)
        if tokens >= 1.0:
            self._buckets[user_id] = (tokens - 1.0, now, False)
            result = (0.0, False)
        else:
            self._buckets[user_id] = (tokens, now, True)
            result = ((1.0 - tokens) / self.rate, not told)
        while len(self._buckets) > 100_000:  # idle people fall out; they come back with a full bucket
            self._buckets.popitem(last=False)
        return result
