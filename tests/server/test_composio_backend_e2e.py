"""The whole server on the real composio SDK: COMPOSIO_API_KEY set, COMPOSIO_BASE_URL pointing at the
sandbox served in Composio's REST shape on 127.0.0.1, conversations through the in-memory MCP client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import WORKSPACE, Conversation
from mcp import Client

from server.app import build_server
from server.cli import main as cli
from server.service import Service
from server.settings import Settings
from server.wiring import build_service
from toolkits.registry import TOOLKITS
from toolkits.sandbox import SandboxBackend
from toolkits.sandbox_api import SandboxAccounts, build_app, run_in_thread

pytestmark = pytest.mark.anyio

DEAL = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}
JOHN = "3dbaa42b-7e8d-5a25-b269-ab7e1aef79b9"
SNAPSHOT = Path(__file__).resolve().parents[2] / "toolkits" / "data" / "composio_tools.json"


class Remote:
    """The sandbox behind the Composio-shaped API: what actually reached "Composio"."""

    def __init__(self, backend: SandboxBackend, app: Any) -> None:
        self.backend, self.app = backend, app

    def writes(self) -> list[tuple[str, dict[str, Any]]]:
        return list(self.backend.write_calls)


@pytest.fixture
def remote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Remote]:
    backend = SandboxBackend(tmp_path / "remote.db")
    app = build_app(backend, api_key="ak_test", accounts=SandboxAccounts({"anna-co": TOOLKITS}))
    with run_in_thread(app) as url:
        monkeypatch.setenv("COMPOSIO_BASE_URL", url)
        yield Remote(backend, app)
    asyncio.run(backend.aclose())


@pytest.fixture
async def service(remote: Remote, tmp_path: Path) -> AsyncIterator[Service]:
    settings = Settings(
        db_path=tmp_path / "planner.db", composio_api_key="ak_test", composio_user_id="anna-co"
    )
    svc = build_service(settings)
    assert svc.backend.name == "composio"
    yield svc
    await svc.backend.aclose()
    await svc.store.close()


@pytest.fixture
async def anna(service: Service) -> AsyncIterator[Conversation]:
    async with Client(build_server(service, service.settings)) as client:
        yield Conversation(client)


async def run(c: Conversation, text: str) -> dict[str, Any]:
    r = await c.say(text)
    assert r["status"] == "draft_pending", (text, r["status"], r.get("clarifying_question"))
    draft = r["draft"]["id"]
    assert (await c.call("confirm_draft", draft_id=draft))["status"] == "confirmed"
    done = await c.call("execute_draft", draft_id=draft)
    assert done["status"] == "executed", (text, done["user_message"])
    return done


async def test_a_conversation_runs_on_the_real_sdk_and_each_change_lands_once(
    anna: Conversation, remote: Remote
) -> None:
    # a deal stage change: nothing is sent before the confirmation
    r = await anna.say("Переведи сделку Globex pilot в стадию Won")
    assert r["status"] == "draft_pending" and remote.writes() == []
    await anna.call("confirm_draft", draft_id=r["draft"]["id"])
    assert (await anna.call("execute_draft", draft_id=r["draft"]["id"]))["status"] == "executed"
    assert remote.writes() == [
        (
            "ATTIO_UPDATE_RECORD",
            {"object_type": "deals", "record_id": DEAL["globex-pilot"]["id"], "values": {"stage": "Won"}},
        )
    ]
    shown = await anna.say("Покажи сделку Globex pilot")
    assert shown["status"] == "answered" and "Won" in json.dumps(shown["results"], ensure_ascii=False)

    # a Linear issue, executed twice (and concurrently): one issue, with its link
    r = await anna.say("Создай задачу в Linear: проверить идемпотентность 7731")
    draft = r["draft"]["id"]
    await anna.call("confirm_draft", draft_id=draft)
    replies = await asyncio.gather(*[anna.call("execute_draft", draft_id=draft) for _ in range(5)])
    again = await anna.call("execute_draft", draft_id=draft)
    assert {x["status"] for x in replies} == {"executed"} and again["results"] == replies[0]["results"]
    assert replies[0]["results"][0]["link"].startswith("https://linear.app/")
    creates = [a for s, a in remote.writes() if s == "LINEAR_RUN_QUERY_OR_MUTATION"]
    assert len(creates) == 1 and creates[0]["variables"]["input"]["title"] == "проверить идемпотентность 7731"

    # a note on a person, and a timeblock in the calendar
    note = await run(anna, "Add a note to John Smith: prefers calls after 3pm")
    assert note["results"][0]["data"]["data"]["parent_record_id"] == JOHN
    block = await run(anna, "Поставь блок на завтра в 14:00 на 60 минут")
    assert block["results"][0]["data"]
    assert [s for s, _ in remote.writes()] == [
        "ATTIO_UPDATE_RECORD",
        "LINEAR_RUN_QUERY_OR_MUTATION",
        "ATTIO_CREATE_NOTE",
        "GOOGLECALENDAR_CREATE_EVENT",
    ]

    # a query is answered at once
    r = await anna.say("Покажи мои задачи в Linear")
    assert r["status"] == "answered" and "ENG-104" in r["user_message"]

    # every call went through the SDK for the configured user at the pinned versions
    sent = [x for x in remote.app.state.requests if x["route"] == "execute"]
    assert sent and {x["user_id"] for x in sent} == {"anna-co"}
    assert all(x["version"] for x in sent)


async def test_refresh_schemas_rewrites_the_snapshot_from_composio(
    remote: Remote, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "composio_tools.json"
    assert await asyncio.to_thread(cli, ["refresh-schemas", "--out", str(out)]) == 2  # no key
    assert not out.exists()
    monkeypatch.setenv("COMPOSIO_API_KEY", "ak_test")
    assert await asyncio.to_thread(cli, ["refresh-schemas", "--out", str(out)]) == 0
    before, after = (
        json.loads(SNAPSHOT.read_text(encoding="utf-8")),
        json.loads(out.read_text(encoding="utf-8")),
    )
    assert after["tools"] == before["tools"]  # the sandbox serves the snapshot's own schemas
    assert set(after["toolkits"]) == set(before["toolkits"])
    assert all(t["refreshed_at"] for t in after["toolkits"].values())
    fetched = {x["slug"] for x in remote.app.state.requests if x["route"] == "retrieve"}
    assert fetched == set(before["tools"])


async def test_a_deal_create_whose_connection_dropped_before_the_write_is_settled_and_sent_once(
    remote: Remote, tmp_path: Path
) -> None:
    import os

    import httpx

    settings = Settings(
        db_path=tmp_path / "grace0.db",
        composio_api_key="ak_test",
        composio_user_id="anna-co",
        reconcile_grace_s=0,
    )
    svc = build_service(settings)
    url = os.environ["COMPOSIO_BASE_URL"]
    fault = {
        "clear": True,
        "faults": [{"kind": "drop_before_write", "slug": "ATTIO_CREATE_RECORD", "times": 1}],
    }
    try:
        async with Client(build_server(svc, settings)) as client:
            anna = Conversation(client)
            httpx.post(f"{url}/_faults", json=fault, headers={"x-api-key": "ak_test"}).raise_for_status()
            done = await run(
                anna, "Create a deal 'Zeta pilot' for Acme Corp"
            )  # looked up: absent, sent again
            assert done["results"][0]["status"] == "succeeded"
            again = await anna.say("Create a deal 'Zeta pilot' for Acme Corp")
            assert again["status"] == "answered" and "already exists" in again["user_message"]
    finally:
        await svc.backend.aclose()
        await svc.store.close()
    creates = [a for s, a in remote.writes() if s == "ATTIO_CREATE_RECORD"]
    assert len(creates) == 1 and creates[0]["values"]["name"] == "Zeta pilot"
