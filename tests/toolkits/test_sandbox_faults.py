"""Injected faults are deterministic, come after argument validation, and mean what they say."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from toolkits.errors import InvalidArguments, OutcomeUnknown, UpstreamUnavailable
from toolkits.sandbox import Fault, FaultPlan, SandboxBackend

pytestmark = pytest.mark.anyio

ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
NOTE = {"parent_object": "companies", "parent_record_id": ACME, "title": "Kickoff", "content": "Signed"}
LIST = {"parent_object": "companies", "parent_record_id": ACME, "limit": 50}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def plan_and_backend() -> AsyncIterator[tuple[FaultPlan, SandboxBackend]]:
    plan = FaultPlan()
    backend = SandboxBackend(None, faults=plan)
    yield plan, backend
    await backend.aclose()


async def notes(backend: SandboxBackend) -> int:
    raw = await backend.execute("ATTIO_LIST_NOTES", LIST)
    return sum(1 for n in raw["data"]["data"] if n["title"] == "Kickoff")


async def test_unknown_after_applies_the_write_and_unknown_before_does_not(
    plan_and_backend: tuple[FaultPlan, SandboxBackend],
) -> None:
    plan, backend = plan_and_backend
    plan.add("ATTIO_CREATE_NOTE", Fault("unknown_before"), calls=1)
    plan.add("ATTIO_CREATE_NOTE", Fault("unknown_after"), calls=2)

    with pytest.raises(OutcomeUnknown):
        await backend.execute("ATTIO_CREATE_NOTE", NOTE)
    assert await notes(backend) == 0
    with pytest.raises(OutcomeUnknown):
        await backend.execute("ATTIO_CREATE_NOTE", NOTE)
    assert await notes(backend) == 1
    assert (await backend.execute("ATTIO_CREATE_NOTE", NOTE))["successful"]
    assert plan.fired == [
        ("ATTIO_CREATE_NOTE", 1, "unknown_before"),
        ("ATTIO_CREATE_NOTE", 2, "unknown_after"),
    ]


async def test_unavailable_carries_retry_after_and_applies_nothing(
    plan_and_backend: tuple[FaultPlan, SandboxBackend],
) -> None:
    plan, backend = plan_and_backend
    plan.add("*", Fault("unavailable", retry_after=2.5), only="write")

    with pytest.raises(UpstreamUnavailable) as caught:
        await backend.execute("ATTIO_CREATE_NOTE", NOTE)

    assert caught.value.retry_after == 2.5 and not isinstance(caught.value, OutcomeUnknown)
    assert await notes(backend) == 0  # reads are not matched by a writes-only rule


async def test_arguments_are_validated_before_any_fault(
    plan_and_backend: tuple[FaultPlan, SandboxBackend],
) -> None:
    plan, backend = plan_and_backend
    plan.add("ATTIO_CREATE_NOTE", Fault("unknown_after"))

    with pytest.raises(InvalidArguments):
        await backend.execute("ATTIO_CREATE_NOTE", {**NOTE, "colour": "red"})
    assert plan.fired == []


async def test_latency_is_added_to_the_call(plan_and_backend: tuple[FaultPlan, SandboxBackend]) -> None:
    plan, backend = plan_and_backend
    plan.add("ATTIO_LIST_NOTES", Fault("latency", seconds=0.05), calls=2)

    started = time.monotonic()
    await backend.execute("ATTIO_LIST_NOTES", LIST)
    first = time.monotonic() - started
    await backend.execute("ATTIO_LIST_NOTES", LIST)
    second = time.monotonic() - started - first

    assert second >= 0.05 > first


def test_a_seeded_probability_fires_the_same_calls_every_time() -> None:
    def fired(seed: int) -> list[int]:
        plan = FaultPlan(seed=seed).add("X", Fault("unavailable"), probability=0.3)
        return [n for n in range(1, 41) if plan.on_call("X", write=True)]

    assert fired(7) == fired(7)
    assert fired(7) != fired(8)
    assert 0 < len(fired(7)) < 40


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError):
        FaultPlan().add("X", Fault("unavailable"), calls=0)
    with pytest.raises(ValueError):
        FaultPlan().add("X", Fault("unavailable"), probability=1.5)


async def test_events_can_be_found_by_a_private_extended_property() -> None:
    async with SandboxBackend(None) as backend:
        args = {"start_datetime": "2026-11-26T14:00:00+03:00", "summary": "Sync"}
        marked = {**args, "extended_properties": {"private": {"planner_ref": "abc"}}}
        created = await backend.execute("GOOGLECALENDAR_CREATE_EVENT", marked)
        await backend.execute("GOOGLECALENDAR_CREATE_EVENT", args)

        found = await backend.execute(
            "GOOGLECALENDAR_EVENTS_LIST", {"privateExtendedProperty": "planner_ref=abc"}
        )

    assert created["data"]["extendedProperties"] == {"private": {"planner_ref": "abc"}}
    assert [e["id"] for e in found["data"]["items"]] == [created["data"]["id"]]
