"""The person's drafts as resources, and the "review my drafts" prompt (read, never called by a model:
the reader is whoever the transport says, as for the tools)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import REF_NOW, reply_of
from mcp import Client, MCPError

pytestmark = pytest.mark.anyio


async def drafted(client: Client, text: str, user: str) -> str:
    r = reply_of(await client.call_tool("plan", {"text": text, "user_id": user, "now": REF_NOW}))
    return str(r["draft"]["id"])


async def read(client: Client, uri: str) -> Any:
    result = await client.read_resource(uri)
    assert result.contents[0].mime_type == "application/json"
    return json.loads(result.contents[0].text)  # type: ignore[union-attr]


async def test_the_resources_and_the_prompt_are_listed(client: Client) -> None:
    assert "planner://drafts" in {r.uri for r in (await client.list_resources()).resources}
    templates = (await client.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["planner://drafts/{draft_id}"]
    assert [p.name for p in (await client.list_prompts()).prompts] == ["review_my_drafts"]


async def test_the_pending_drafts_resource_lists_mine_with_their_steps(client: Client) -> None:
    other = await drafted(client, "Закрой ENG-101", "bob")
    mine = await drafted(client, "Удали ENG-102", "anna")  # anna asked last: she owns this stdio session
    listed = await read(client, "planner://drafts")
    assert [d["id"] for d in listed["drafts"]] == [mine] and other not in json.dumps(listed)
    assert listed["drafts"][0]["uri"] == f"planner://drafts/{mine}"
    one = await read(client, f"planner://drafts/{mine}")
    assert one["status"] == "pending" and one["steps"][0]["system"] == "Linear"
    assert "ENG-102" in one["steps"][0]["change"] and one["expires"]


async def test_a_strangers_draft_reads_exactly_like_a_missing_one(client: Client) -> None:
    theirs = await drafted(client, "Закрой ENG-101", "bob")
    await drafted(client, "Удали ENG-102", "anna")
    errors = []
    for uri in (f"planner://drafts/{theirs}", "planner://drafts/d_never_made"):
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
        errors.append((caught.value.error.code, caught.value.error.message))
    assert errors[0] == errors[1] and "not found" in errors[0][1].lower()


async def test_the_review_prompt_lists_my_drafts_and_says_to_confirm_only_on_yes(client: Client) -> None:
    mine = await drafted(client, "Удали ENG-102", "anna")
    prompt = await client.get_prompt("review_my_drafts")
    text = prompt.messages[0].content.text  # type: ignore[union-attr]
    assert mine in text and "confirm_draft only for the ones I say yes to" in text
