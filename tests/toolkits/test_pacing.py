"""A draft larger than a toolkit's rate budget is paced, not throttled by the provider halfway."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from toolkits.base import ToolResult
from toolkits.pacing import PacedBackend

pytestmark = pytest.mark.anyio


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


class Remote:
    name = "fake"

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.at: list[tuple[str, float]] = []

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        self.at.append((slug, self.clock.now))
        return {"data": {}, "error": None, "successful": True}

    async def aclose(self) -> None:
        return None


async def test_calls_beyond_the_budget_wait_for_the_bucket_to_refill() -> None:
    clock = Clock()
    remote = Remote(clock)
    paced = PacedBackend(remote, budgets={"linear": 3}, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        await paced.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-101"})
    assert clock.slept == [20.0, 20.0]  # 3 a minute: the 4th and 5th wait 20 s each
    assert [t for _, t in remote.at] == [0.0, 0.0, 0.0, 20.0, 40.0]


async def test_each_toolkit_has_its_own_budget() -> None:
    clock = Clock()
    remote = Remote(clock)
    paced = PacedBackend(remote, budgets={"linear": 1, "attio": 1}, clock=clock, sleep=clock.sleep)
    await paced.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-101"})
    await paced.execute("ATTIO_LIST_WORKSPACE_MEMBERS", {})
    assert clock.slept == []
