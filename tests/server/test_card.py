"""The draft card (MCP Apps) as a host sees it: an app resource bound to the draft tools, and two
app-only tools that take the same confirmation path as `confirm_draft`."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import REF_NOW, reply_of
from mcp import Client
from mcp.client.extension import ClientExtension

from server.app import build_server
from server.card import CARD_URI
from server.service import Service
from server.settings import Settings

pytestmark = pytest.mark.anyio

SIX = "Ромашка подписала: переведи сделку в Won, заведи онбординг и архивируй ENG-106"


def writes(service: Service) -> list[Any]:
    return list(service.backend.write_calls)  # type: ignore[attr-defined]


async def drafted(client: Client, text: str) -> dict[str, Any]:
    r = reply_of(await client.call_tool("plan", {"text": text, "now": REF_NOW}))
    assert r["status"] == "draft_pending", r
    return r


async def test_the_card_is_a_self_contained_app_resource(client: Client) -> None:
    listed = {r.uri: r for r in (await client.list_resources()).resources}
    assert listed[CARD_URI].mime_type == "text/html;profile=mcp-app"
    html = (await client.read_resource(CARD_URI)).contents[0].text  # type: ignore[union-attr]
    assert html.startswith("<!DOCTYPE html>") and "ui/initialize" in html
    # no other origin: no external script, style, image, font or fetch
    assert not re.search(
        r"""(src|href)\s*=\s*["']?(https?:)?//|@import|<link\b|fetch\(|XMLHttpRequest""", html
    )


class AppsHost(ClientExtension):
    """What a host that renders MCP Apps declares (Claude, ChatGPT, VS Code, Goose)."""

    identifier = "io.modelcontextprotocol/ui"

    def settings(self) -> dict[str, Any]:
        return {"mimeTypes": ["text/html;profile=mcp-app"]}


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_draft_tools_show_the_card_and_its_buttons_are_app_only(
    service: Service, settings: Settings, mode: str
) -> None:
    async with Client(build_server(service, settings), mode=mode, extensions=[AppsHost()]) as host:  # type: ignore[arg-type]
        tools = {t.name: t for t in (await host.list_tools()).tools}
    for name in ("plan", "pick", "confirm_draft", "execute_draft"):
        assert tools[name].meta == {"ui": {"resourceUri": CARD_URI}}, name
    for name in ("confirm_from_card", "cancel_from_card"):
        assert tools[name].meta == {"ui": {"resourceUri": CARD_URI, "visibility": ["app"]}}, name
    assert tools["list_drafts"].meta is None  # reads stay text


async def test_a_client_without_apps_is_not_offered_the_card_buttons(client: Client) -> None:
    names = {t.name for t in (await client.list_tools()).tools}
    assert "plan" in names and not names & {"confirm_from_card", "cancel_from_card"}


async def test_the_card_confirm_runs_the_draft_and_returns_its_links(
    client: Client, service: Service
) -> None:
    draft = (await drafted(client, "Переведи сделку Globex pilot в стадию Won"))["draft"]["id"]
    r = reply_of(await client.call_tool("confirm_from_card", {"draft_id": draft}))
    assert r["status"] == "executed" and r["draft"]["actions"][0]["link"]
    assert len(writes(service)) == 1
    audit = reply_of(await client.call_tool("read_audit_log", {}))["results"]
    assert {"CONFIRMED", "EXECUTE"} <= {row["decision_type"] for row in audit}  # the confirmation path


async def test_a_bulk_draft_runs_from_the_card_only_with_the_typed_count(
    client: Client, service: Service
) -> None:
    draft = (await drafted(client, SIX))["draft"]
    assert draft["bulk_count"] == 6
    for count in (None, 5):
        args = {"draft_id": draft["id"]} | ({"confirm_count": count} if count is not None else {})
        r = reply_of(await client.call_tool("confirm_from_card", args))
        assert r["status"] == "needs_bulk_confirmation" and writes(service) == []
    r = reply_of(await client.call_tool("confirm_from_card", {"draft_id": draft["id"], "confirm_count": 6}))
    assert r["status"] == "executed" and len(writes(service)) == 6


async def test_the_card_cancel_changes_nothing(client: Client, service: Service) -> None:
    draft = (await drafted(client, "Удали ENG-102"))["draft"]["id"]
    r = reply_of(await client.call_tool("cancel_from_card", {"draft_id": draft}))
    assert r["status"] == "cancelled" and writes(service) == []
    again = await client.call_tool("confirm_from_card", {"draft_id": draft})
    assert reply_of(again)["status"] == "cancelled" and writes(service) == []


async def test_the_server_advertises_mcp_apps(client: Client) -> None:
    assert "io.modelcontextprotocol/ui" in (client.server_capabilities.extensions or {})
