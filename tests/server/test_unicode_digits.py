"""Characters Python calls digits that int() cannot read ("¹", "²") are words like any other: as an
answer to a question, in a request and in a duration they never crash a tool call (found by the
property tests: `position_of("¹")` raised before)."""

from __future__ import annotations

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


async def test_a_superscript_answer_to_a_question_is_no_position_and_changes_nothing(
    anna: Conversation,
) -> None:
    r = await anna.say("move the pilot to Won")  # two deals fit: a question with two choices
    assert r["status"] == "needs_clarification"
    answered = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="¹")
    assert answered["status"] != "tool_error" and answered.get("draft") is None


@pytest.mark.parametrize(
    "text", ["через ² дня закрой ENG-101", "встреча в ² на ² часа", "создай ² задачи: а, б"]
)
async def test_superscript_digits_in_a_request_are_read_as_words(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] in ("draft_pending", "needs_clarification", "answered"), r
