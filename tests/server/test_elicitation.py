"""Where the client can show a form, `confirm_draft` asks the person directly (DESIGN §10)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import REF_NOW, reply_of
from mcp import Client
from mcp.types import ElicitResult

from server.app import build_server
from server.service import Service
from server.settings import Settings

pytestmark = pytest.mark.anyio


class Person:
    """Stands in for the human answering the client's form; records what they were shown."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action, self.content = action, content
        self.shown: list[str] = []

    async def __call__(self, ctx: Any, params: Any) -> ElicitResult:
        self.shown.append(params.message)
        return ElicitResult(action=self.action, content=self.content)  # type: ignore[arg-type]


async def draft(client: Client, text: str) -> str:
    r = reply_of(await client.call_tool("plan", {"text": text, "user_id": "anna", "now": REF_NOW}))
    assert r["status"] == "draft_pending"
    return str(r["draft"]["id"])


async def confirm(client: Client, draft_id: str) -> dict[str, Any]:
    return reply_of(await client.call_tool("confirm_draft", {"draft_id": draft_id, "user_id": "anna"}))


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_person_sees_the_preview_and_their_yes_confirms(
    service: Service, settings: Settings, mode: str
) -> None:
    person = Person("accept", {"confirm": True})
    async with Client(build_server(service, settings), mode=mode, elicitation_callback=person) as client:  # type: ignore[arg-type]
        d = await draft(client, "Переведи сделку Globex pilot в стадию Won")
        assert (await confirm(client, d))["status"] == "confirmed"
    assert len(person.shown) == 1 and "Переговоры → Выиграна" in person.shown[0]


async def test_the_persons_no_cancels_and_nothing_runs(service: Service, settings: Settings) -> None:
    person = Person("accept", {"confirm": False})
    async with Client(build_server(service, settings), elicitation_callback=person) as client:
        d = await draft(client, "Удали ENG-102")
        assert (await confirm(client, d))["status"] == "cancelled"
        r = reply_of(await client.call_tool("execute_draft", {"draft_id": d, "user_id": "anna"}))
        assert r["status"] == "cancelled"
    assert service.backend.write_calls == []  # type: ignore[attr-defined]


async def test_declining_the_form_cancels_and_dismissing_it_keeps_the_draft(
    service: Service, settings: Settings
) -> None:
    person = Person("decline")
    async with Client(build_server(service, settings), elicitation_callback=person) as client:
        d = await draft(client, "Закрой ENG-101")
        assert (await confirm(client, d))["status"] == "cancelled"
        person.action = "cancel"
        d = await draft(client, "Закрой ENG-104")
        r = await confirm(client, d)
        assert r["status"] == "draft_pending" and r["ok"] is False


async def test_a_bulk_draft_is_confirmed_only_with_the_typed_count(
    service: Service, settings: Settings
) -> None:
    text = "Create issues in DES for: intro, consent, avatar, invite, plan, import, tour"
    person = Person("accept", {"count": 6})
    async with Client(build_server(service, settings), elicitation_callback=person) as c:
        d = await draft(c, text)
        assert (await confirm(c, d))["status"] == "needs_bulk_confirmation"
        person.content = {"count": 7}
        assert (await confirm(c, d))["status"] == "confirmed"
    assert "7" in person.shown[0]


async def test_clients_without_forms_keep_the_two_step_flow(service: Service, settings: Settings) -> None:
    async with Client(build_server(service, settings)) as client:
        d = await draft(client, "Закрой ENG-101")
        assert (await confirm(client, d))["status"] == "confirmed"
