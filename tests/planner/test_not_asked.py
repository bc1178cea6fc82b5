"""Words that describe a change without asking for it now (DESIGN §5a: nothing of that becomes a
write), through the MCP client on the sandbox: told not to, a condition for later, someone else's
words. A negation changes nothing and says so; the others offer the change as a yes/no question."""

from __future__ import annotations

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "text",
    [
        "don't close ENG-101 yet oleg is still testing",
        "Не переводи пока Альфа-Лизинг в Won, ждём оригиналы документов",
        "no need to open an issue for the typo i'll fix it myself",
        "не закрывай ENG-101",
    ],
)
async def test_a_change_the_person_says_not_to_make_is_not_drafted(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    # understood and answered (not a failure): nothing is drafted, and the person is told so
    assert (r["status"], r["ok"], r["draft"]) == ("answered", True, None)
    assert any(w in r["user_message"] for w in ("не трогаю", "leaving it"))


@pytest.mark.parametrize(
    "text",
    [
        "if globex signs next week we'd move the pilot to won",
        "Если Ромашка не подпишет до пятницы, сделку, вероятно, придётся перевести в проигранные.",
        "Мария Соколова написала, что готова созвониться в пятницу",
    ],
)
async def test_a_condition_or_someone_elses_words_are_offered_not_drafted(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["draft"] is None and r["status"] in ("needs_clarification", "answered"), r["status"]
    if r["status"] == "needs_clarification":  # the change it describes, offered
        assert [c["value"] for c in r["choices"]] == ["yes", "no"]
    assert not [a for a in r["plan"]["actions"] if not a["read_only"]] or r["status"] == "needs_clarification"


async def test_yes_to_the_offer_drafts_it_and_a_request_beside_reported_words_drafts_at_once(
    anna: Conversation,
) -> None:
    r = await anna.say("if globex signs next week we'd move the pilot to won")
    drafted = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert drafted["status"] == "draft_pending"
    r = await anna.say("Max said he closed ENG-104, please mark it done")
    assert r["status"] == "draft_pending"
    r = await anna.say("Непременно закрой ENG-101")  # «не» inside a word is no negation
    assert r["status"] == "draft_pending"


async def test_dont_forget_is_a_request_not_a_negation(anna: Conversation) -> None:
    for text in ("не забудь закрыть ENG-101", "don't forget to close ENG-101"):
        r = await anna.say(text)
        assert r["status"] == "draft_pending", text
