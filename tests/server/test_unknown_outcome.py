"""An unknown outcome never blocks for ever (DESIGN §7), seen from the person's side: a write whose
answer was lost and could not be looked up is shown with what to check, and the person's explicit
"send it anyway" is a new draft under a new scope that supersedes the unknown one, audit-logged."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Conversation
from mcp import Client

from server.app import build_server
from server.service import Service
from server.settings import Settings
from server.wiring import build_service
from toolkits.sandbox import Fault, FaultPlan, SandboxBackend

pytestmark = pytest.mark.anyio


@pytest.fixture
async def faulty(tmp_path: Path) -> AsyncIterator[tuple[Service, Client, FaultPlan]]:
    settings = Settings(db_path=tmp_path / "p.db", reconcile_grace_s=0)
    plan = FaultPlan()
    service = build_service(settings, backend=SandboxBackend(str(settings.db_path), faults=plan))
    async with Client(build_server(service, settings)) as client:
        yield service, client, plan


async def deals_named(service: Service, name: str) -> int:
    raw = await service.backend.execute("ATTIO_QUERY_RECORDS", {"object": "deals", "filter": {"name": name}})
    return len(raw["data"]["data"])


async def run(c: Conversation, text: str) -> dict[str, Any]:
    r = await c.say(text)
    assert r["status"] == "draft_pending", r["user_message"]
    await c.call("confirm_draft", draft_id=r["draft"]["id"])
    return await c.call("execute_draft", draft_id=r["draft"]["id"])


async def test_an_unsettled_create_says_what_to_check_and_send_it_anyway_supersedes_it(
    faulty: tuple[Service, Client, FaultPlan],
) -> None:
    service, client, plan = faulty
    anna = Conversation(client)
    draft = (await anna.say("Create a deal 'Zeta pilot' for Acme Corp"))["draft"]
    plan.add("ATTIO_CREATE_RECORD", Fault("unknown_before"), calls=1)  # the request never landed
    plan.add("ATTIO_QUERY_RECORDS", Fault("unavailable"))  # and the look-up cannot tell
    await anna.call("confirm_draft", draft_id=draft["id"])
    lost = await anna.call("execute_draft", draft_id=draft["id"])
    assert lost["status"] == "failed" and lost["draft"]["actions"][0]["status"] == "unknown"
    assert "check there before retrying" in lost["user_message"]
    assert 'say "send it anyway"' in lost["user_message"]
    service.backend.faults = None  # type: ignore[attr-defined]

    again = await anna.say("send it anyway")
    assert again["status"] == "draft_pending"
    old_scope = lost["draft"]["actions"][0]["idempotency_scope"]
    action = again["draft"]["actions"][0]
    assert action["supersedes"] == old_scope
    assert action["idempotency_scope"] == f"{old_scope}:anyway:{again['draft']['id']}"
    await anna.call("confirm_draft", draft_id=again["draft"]["id"])
    done = await anna.call("execute_draft", draft_id=again["draft"]["id"])
    assert done["status"] == "executed"
    assert await deals_named(service, "Zeta pilot") == 1
    ledger = await service.store.ledger_lookup([old_scope])
    assert ledger[old_scope].state == "succeeded"  # superseded: done, by the new scope
    audit = await anna.call("read_audit_log")
    assert any(row["classified_intent"] == "SEND_ANYWAY" for row in audit["results"])


async def test_send_it_anyway_with_nothing_in_doubt_is_planned_as_ordinary_words(
    faulty: tuple[Service, Client, FaultPlan],
) -> None:
    _, client, _ = faulty
    r = await Conversation(client).say("send it anyway")
    assert r["status"] != "draft_pending"


async def test_asking_for_a_deal_that_already_exists_says_so_instead_of_a_second_create(
    faulty: tuple[Service, Client, FaultPlan],
) -> None:
    service, client, _ = faulty
    anna = Conversation(client)
    assert (await run(anna, "Create a deal 'Zeta pilot' for Acme Corp"))["status"] == "executed"
    again = await anna.say("Create a deal 'Zeta pilot' for Acme Corp")
    assert again["status"] == "answered" and "already exists" in again["user_message"]
    assert await deals_named(service, "Zeta pilot") == 1
