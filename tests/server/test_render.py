"""Words a person reads, where the server writes them: dates as «пт, 27 нояб. (2026-11-27)», one format for amounts,
"already done" with its links, `/drafts` in the person's language."""

from __future__ import annotations

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


async def drafted(anna: Conversation, text: str) -> str:
    r = await anna.say(text)
    assert r["status"] == "draft_pending", r
    return str(r["draft"]["id"])


async def test_a_due_date_reads_as_a_weekday_and_day_with_its_iso_date(anna: Conversation) -> None:
    r = await anna.say("Покажи ENG-106")
    assert "срок пт, 27 нояб. (2026-11-27)" in r["user_message"], r["user_message"]


async def test_amounts_are_grouped_one_way(anna: Conversation) -> None:
    r = await anna.say("What about the Globex pilot deal?")
    assert "30\u00a0000 USD" in r["user_message"], r["user_message"]


async def test_a_drafts_expiry_is_said_in_words(anna: Conversation) -> None:
    r = await anna.say("Удали ENG-102")
    assert "Черновик действует до " in r["user_message"] and "+00:00" not in r["user_message"]


async def test_changes_done_before_are_said_with_their_links(anna: Conversation) -> None:
    text = "Ромашка подписала договор: создай задачи онбординга в Linear"
    d = await drafted(anna, text)
    await anna.call("confirm_draft", draft_id=d)
    ran = await anna.call("execute_draft", draft_id=d)
    links = [a["link"] for a in ran["draft"]["actions"] if a["operation"] == "create_issue"]
    assert len(links) == 4 and all(links)
    again = await anna.say(text)
    assert [r["link"] for r in again["results"]] == links
    assert all(link in again["user_message"] for link in links), again["user_message"]


async def test_drafts_are_listed_in_the_persons_language(anna: Conversation) -> None:
    await drafted(anna, "Удали ENG-102")
    listed = await anna.call("list_drafts")
    assert "ждёт подтверждения, до " in listed["user_message"] and "[pending]" not in listed["user_message"]
    empty = await Conversation(anna.client, user="nobody").call("list_drafts", language="ru")
    assert empty["user_message"] == "Открытых черновиков нет."
