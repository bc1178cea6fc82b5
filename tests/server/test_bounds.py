"""Every input is bounded (DESIGN §10): oversized strings and lists, and an extreme `now`, get a clear
`invalid` reply that names the field and the limit, echo nothing back, and change nothing."""

from __future__ import annotations

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "now",
    [
        "9999-12-31T23:59:59+14:00",
        "9999-12-31T23:59:59-14:00",
        "0001-01-01T00:00:00+00:00",
        "1500-06-01T10:00",
    ],
)
async def test_an_extreme_now_is_refused_as_invalid_with_the_allowed_range(
    anna: Conversation, now: str
) -> None:
    reply = await anna.say("Block tomorrow at 9 for an hour", now=now)
    assert reply["status"] == "invalid", reply
    assert reply["ok"] is False
    assert "2000" in reply["user_message"] and "2199" in reply["user_message"]
    assert reply.get("draft") is None
