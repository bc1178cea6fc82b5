"""Telegram flood control: on 429 wait `retry_after` seconds and send again.

A one-to-one assistant sends about one message per update, far below Telegram's limits (≈1 msg/s per
chat, 30/s overall), so throttling every request would only add latency; reacting to the 429 that
Telegram sends when a burst does hit the limit is enough. PTB's own `AIORateLimiter` would do the
same but needs an extra dependency (aiolimiter).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

__all__ = ["RetryAfterLimiter"]

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
