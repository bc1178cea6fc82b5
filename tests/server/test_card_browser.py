"""The draft card in a real browser: headless Chromium (Debian's package) loads it in a sandboxed
iframe while the test plays the host's side of the MCP Apps postMessage protocol (SEP-1865):
answer `ui/initialize`, send the tool input and the tool result of a real `plan` call, and forward
the card's `tools/call` to the real server. Clicking Confirm must send the app-only tool call and end
with the results and their links.

`.ci/run` installs Chromium and sets PLANNER_TEST_CHROMIUM, which makes these tests required; on a
machine without the browser they are skipped with the reason. `UPDATE_SCREENSHOTS=1` also writes
the screenshot the README shows (docs/draft-card.png).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REF_NOW, ROOT, reply_of
from mcp import Client

from server.card import card_html
from server.service import Service

pytestmark = pytest.mark.anyio

CHROMIUM = os.environ.get("PLANNER_TEST_CHROMIUM") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 20_000  # an upper bound for the browser, never a synchronisation sleep
SCREENSHOT = ROOT / "docs" / "draft-card.png"

# The host: a sandboxed iframe (scripts only, no same origin, as hosts render apps) and a message
# handler that records everything the card sends and answers as an MCP Apps host does.
HOST = """<!DOCTYPE html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#e7e5e4">
<iframe id="card" sandbox="allow-scripts" style="width:660px;height:720px;border:0;background:#fff"></iframe>
<script>
window.sent = [];
const frame = document.getElementById("card");
function post(message) { frame.contentWindow.postMessage({ jsonrpc: "2.0", ...message }, "*"); }
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  window.sent.push(m);
  if (m.method === "ui/initialize") {
    post({ id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" },
      hostCapabilities: { serverTools: {}, openLinks: {} },
      hostContext: { theme: "light", locale: "ru-RU", timeZone: "Europe/Moscow", displayMode: "inline" } } });
  } else if (m.method === "ui/notifications/initialized") {
    post({ method: "ui/notifications/tool-input", params: { arguments: window.toolInput } });
    post({ method: "ui/notifications/tool-result", params: window.toolResult });
  } else if (m.method === "tools/call") {
    post({ id: m.id, result: await window.forwardToolCall(m.params) });
  } else if (m.id !== undefined && m.method) {
    post({ id: m.id, result: {} });
  }
});
window.load = (html) => { frame.srcdoc = html; };
</script></body></html>"""


def wire(result: Any) -> dict[str, Any]:
    """A CallToolResult as it travels (camelCase), the way a host hands it to the card."""
    data: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return data


@pytest.fixture
async def page(client: Client) -> AsyncIterator[Any]:
    async_api = pytest.importorskip("playwright.async_api")
    if not Path(CHROMIUM).exists():
        if os.environ.get("PLANNER_TEST_CHROMIUM"):
            pytest.fail(f"PLANNER_TEST_CHROMIUM={CHROMIUM} does not exist")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    async with async_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            tab = await browser.new_page(viewport={"width": 680, "height": 740})

            async def forward(params: dict[str, Any]) -> dict[str, Any]:  # the host proxies to the server
                return wire(await client.call_tool(params["name"], params.get("arguments") or {}))

            await tab.expose_function("forwardToolCall", forward)
            await tab.set_content(HOST)
            yield tab
        finally:
            await browser.close()


async def show(page: Any, client: Client, text: str) -> dict[str, Any]:
    """The model called `plan`; the host renders its result in the card."""
    args = {"text": text, "now": REF_NOW}
    result = await client.call_tool("plan", args)
    await page.evaluate(
        "([args, result]) => { window.toolInput = args; window.toolResult = result; }", [args, wire(result)]
    )
    await page.evaluate("(html) => window.load(html)", card_html())
    return reply_of(result)


def card(page: Any) -> Any:
    return page.frame_locator("#card")


async def sent(page: Any, method: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = await page.evaluate("() => window.sent")
    return [m for m in messages if m.get("method") == method]


async def test_confirm_in_the_card_sends_the_app_only_call_and_shows_the_links(
    page: Any, client: Client, service: Service
) -> None:
    reply = await show(page, client, "Переведи сделку Globex pilot в Won, закрой ENG-101 и архивируй ENG-106")
    view = card(page)
    await view.locator("li").nth(2).wait_for(timeout=WAIT_MS)
    steps = await view.locator("ol.steps li").all_inner_texts()
    assert len(steps) == 3 and "Attio" in steps[0] and "«Globex pilot»" in steps[0] and "Linear" in steps[1]
    assert "будет архивирована" in await view.locator("ul.risks").inner_text()
    assert "Действует до" in await view.locator(".expiry").inner_text()
    assert await sent(page, "ui/notifications/initialized")

    await view.locator("#confirm").click()
    await view.locator(".out.succeeded").nth(2).wait_for(timeout=WAIT_MS)

    calls = await sent(page, "tools/call")
    assert [c["params"] for c in calls] == [
        {"name": "confirm_from_card", "arguments": {"draft_id": reply["draft"]["id"]}}
    ]
    links = await view.locator(".out a").evaluate_all("(links) => links.map(a => a.href)")
    assert len(links) == 2 and all(link.startswith("https://") for link in links)  # an archive has none
    told = await sent(page, "ui/update-model-context")
    assert told and "[executed" in told[0]["params"]["content"][0]["text"]  # the model hears of the press
    assert len(service.backend.write_calls) == 3  # type: ignore[attr-defined]


async def test_a_bulk_draft_in_the_card_waits_for_the_typed_count(
    page: Any, client: Client, service: Service, tmp_path: Path
) -> None:
    reply = await show(
        page, client, "Ромашка подписала: переведи сделку в Won, заведи онбординг и архивируй ENG-106"
    )
    view = card(page)
    confirm = view.locator("#confirm")
    await confirm.wait_for(timeout=WAIT_MS)
    assert await view.locator("ol.steps li").count() == 6
    assert await confirm.is_disabled()  # nothing fills the count in for the person
    shot = tmp_path / "draft-card.png"
    await page.locator("#card").screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOTS"):
        SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)

    await view.locator("#count").fill("6")
    await confirm.click()
    await view.locator(".out.succeeded").nth(5).wait_for(timeout=WAIT_MS)
    calls = [c["params"] for c in await sent(page, "tools/call")]
    assert calls == [
        {"name": "confirm_from_card", "arguments": {"draft_id": reply["draft"]["id"], "confirm_count": 6}}
    ]
    assert len(service.backend.write_calls) == 6  # type: ignore[attr-defined]
    assert json.dumps(calls).count("confirm_count") == 1
