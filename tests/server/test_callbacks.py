"""Callback ids (DESIGN §7): a repeated id replays the first delivery's final reply. The first
delivery holds a lease while it works, so a repeat waits for a live owner, takes over from a dead one
at once, and a reply that is not final ("executing") is never stored for replay."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import Conversation
from mcp import Client

from drafts import CALLBACK_LEASE_S, Executor, open_store
from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service
from toolkits import registry
from toolkits.base import ToolResult
from toolkits.sandbox import SandboxBackend, is_write_call

pytestmark = pytest.mark.anyio


class GatedSandbox(SandboxBackend):
    """The sandbox, whose writes wait until the test opens the gate (a slow remote, deterministically)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def execute(self, slug: str, arguments: Mapping[str, Any]) -> ToolResult:
        if is_write_call(slug, arguments):
            self.entered.set()
            await self.gate.wait()
        return await super().execute(slug, arguments)


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class World:
    service: Service
    backend: GatedSandbox
    clock: Clock
    anna: Conversation


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    settings = Settings(db_path=tmp_path / "p.db")
    clock = Clock()
    store = open_store(settings.db_path, clock=clock)
    backend = GatedSandbox(settings.db_path)
    wired = build_service(settings, backend=backend, store=store)
    # a quick give-up for a caller that finds the draft running elsewhere, so "executing" comes back
    executor = Executor(store, backend, link_for=registry.link_for, wait_for_running_s=0.05)
    service = Service(settings, store, backend, wired.planner, executor)
    async with Client(build_server(service, settings)) as client:
        yield World(service, backend, clock, Conversation(client))


async def confirmed_draft(anna: Conversation) -> str:
    r = await anna.say("Archive ENG-106")
    await anna.call("confirm_draft", draft_id=r["draft"]["id"])
    return str(r["draft"]["id"])


async def test_a_repeated_callback_waits_for_the_live_first_delivery_and_replays_its_final_reply(
    world: World,
) -> None:
    d = await confirmed_draft(world.anna)
    with anyio.fail_after(30):
        first = asyncio.create_task(world.anna.call("execute_draft", draft_id=d, callback_id="tg:callback:1"))
        await world.backend.entered.wait()
        again = asyncio.create_task(world.anna.call("execute_draft", draft_id=d, callback_id="tg:callback:1"))
        world.backend.gate.set()
        done, replayed = await first, await again
    assert done["status"] == replayed["status"] == "executed"
    assert replayed["results"] == done["results"]
    assert len(world.backend.write_calls) == 1


async def test_a_reply_that_is_not_final_is_not_stored_so_a_later_repeat_gets_the_outcome(
    world: World,
) -> None:
    d = await confirmed_draft(world.anna)
    with anyio.fail_after(30):
        running = asyncio.create_task(world.anna.call("execute_draft", draft_id=d))
        await world.backend.entered.wait()
        meanwhile = await world.anna.call("execute_draft", draft_id=d, callback_id="tg:callback:7")
        assert meanwhile["status"] == "executing"  # the draft runs elsewhere
        world.backend.gate.set()
        assert (await running)["status"] == "executed"
        later = await world.anna.call("execute_draft", draft_id=d, callback_id="tg:callback:7")
    assert later["status"] == "executed"  # not a stored "Running…"
    assert len(world.backend.write_calls) == 1


async def test_a_callback_whose_first_owner_died_is_taken_over_without_waiting(world: World) -> None:
    d = await confirmed_draft(world.anna)
    world.backend.gate.set()
    # a first delivery claimed the id, then its process was killed: the lease is never renewed
    assert await world.service.store.callback_begin("anna", "tg:callback:9", "execute_draft") == (True, None)
    world.clock.now += timedelta(seconds=CALLBACK_LEASE_S + 1)
    with anyio.fail_after(10):  # far less than the 30 s a repeat used to wait
        r = await world.anna.call("execute_draft", draft_id=d, callback_id="tg:callback:9")
    assert r["status"] == "executed" and len(world.backend.write_calls) == 1


async def test_a_live_owner_renews_its_lease_so_it_is_not_taken_over(world: World) -> None:
    store = world.service.store
    assert (await store.callback_begin("anna", "cb", "plan"))[0]
    world.clock.now += timedelta(seconds=CALLBACK_LEASE_S - 1)
    assert await store.callback_renew("anna", "cb")
    world.clock.now += timedelta(seconds=CALLBACK_LEASE_S - 1)
    assert await store.callback_begin("anna", "cb", "plan") == (False, None)
    world.clock.now += timedelta(seconds=2)
    with anyio.fail_after(10):
        assert await store.callback_wait("anna", "cb", timeout_s=60) is None  # lapsed: at once
    assert (await store.callback_begin("anna", "cb", "plan"))[0]
