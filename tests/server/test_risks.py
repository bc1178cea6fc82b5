"""A date already past by the server's clock is a risk, shown with its weekday and year."""

from __future__ import annotations

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


async def test_a_model_that_passes_the_wrong_year_gets_its_past_date_flagged(anna: Conversation) -> None:
    # A model believed it was March 2024: the event lands two years back, and the person must see it.
    r = await anna.say("Поставь встречу 3 марта в 10 на час", now="2024-03-01T09:00:00+03:00")
    assert r["status"] == "draft_pending"
    past = [k for k in r["plan"]["risks"] if k["kind"] == "past_date"]
    assert len(past) == 1 and "вс, 3 мар. 2024, 10:00" in past[0]["details"], r["plan"]["risks"]
    assert "вс, 3 мар. 2024, 10:00" in r["user_message"]


async def test_a_due_date_in_the_past_is_flagged_in_english_too(anna: Conversation) -> None:
    r = await anna.say("Create an issue in ENG: rotate keys by Friday", now="2025-01-06T09:00:00+03:00")
    past = [k["details"] for k in r["plan"]["risks"] if k["kind"] == "past_date"]
    assert past == ["Step 1: this date has passed — Fri, 10 Jan 2025. Check the day and the year."]


async def test_a_date_still_ahead_is_not_flagged(anna: Conversation) -> None:
    r = await anna.say("Поставь встречу завтра в 10 на час", now=None)
    assert r["status"] == "draft_pending"
    assert "past_date" not in {k["kind"] for k in r["plan"]["risks"]}
