"""Text that comes back from Attio or Linear is data, shown as it is meant to read (DESIGN §10): a
bidirectional override in a record's name never reaches a preview, so what a person confirms reads
the same as what will run."""

from __future__ import annotations

import json

import pytest
from conftest import WORKSPACE, Conversation

from server.replies import BIDI_CONTROLS
from server.service import Service

pytestmark = pytest.mark.anyio

DEAL = {d["key"]: d for d in WORKSPACE["attio"]["deals"]}


async def test_a_right_to_left_override_in_a_records_name_is_neutralised_in_every_reply(
    anna: Conversation, service: Service
) -> None:
    name = "Globex pilot \u202enoW\u202c \u2066x\u2069"
    renamed = await service.backend.execute(
        "ATTIO_UPDATE_RECORD",
        {"object_type": "deals", "record_id": DEAL["globex-pilot"]["id"], "values": {"name": name}},
    )
    assert renamed["successful"]
    service.planner.directory.invalidate()
    r = await anna.say("Move deal Globex pilot to Lost")
    assert r["status"] == "draft_pending", r["user_message"]
    assert "Globex pilot noW x" in r["draft"]["actions"][0]["preview"]
    listed = await anna.call("list_drafts")
    shown = await anna.say("Покажи сделку Globex pilot")
    for reply in (r, listed, shown):
        assert not BIDI_CONTROLS.search(json.dumps(reply, ensure_ascii=False))
