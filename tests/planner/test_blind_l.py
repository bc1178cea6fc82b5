"""What blind set L taught (new hires: an unsure SDR who explains a lot, formal Russian with records
described rather than named, instructions forwarded verbatim, numbered checklists, one-line commands
with typos), one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_a_numbered_checklist_is_each_request_and_a_numbered_list_of_titles_is_each_issue(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "1) заметка к Ивану Сидорову: ждёт счёт 2) задача в CRM на Макса: выставить счёт Initech до 30 ноября"
    )
    assert [(i["op"], i.get("assignee")) for i in intents(r)] == [
        ("create_note", None),
        ("create_task", "Max Weber"),
    ]
    r = await anna.say("1) ENG-105 — на Олега 2) ENG-102 — на Олега 3) DES-7 — закрыть")
    assert [(i["op"], i["issue"]) for i in intents(r)] == [
        ("update_issue", "ENG-105"),
        ("update_issue", "ENG-102"),
        ("complete_issue", "DES-7"),
    ]
    r = await anna.say(
        "Заведи в Linear для CS шесть задач: 1) выдать доступ в Attio 2) выдать доступ в Linear 3) настроить почту "
        "4) выдать ноутбук 5) заказать пропуск 6) познакомить с командой"
    )
    assert len(intents(r)) == 6 and all(i["team"] == "Customer Success" for i in intents(r))


async def test_an_explained_request_is_read_past_what_happened(anna: Conversation) -> None:
    r = await anna.say(
        "I was asked to update the value of the Acme Logistics pilot deal to 14,500 USD because they added a second warehouse."
    )
    assert [(i["op"], i.get("amount")) for i in intents(r)] == [("update_deal", 14500.0)]
    r = await anna.say(
        "I had my first call ever with Li Wei today (so nervous!). I was told to always log calls, so please add a "
        "note to Li Wei: interested in route optimisation, wants a demo in December."
    )
    assert [i["op"] for i in intents(r)] == ["create_note"]  # a call had is no call to make
    r = await anna.say(
        "I was told that once I start on something I should move it. I've started prepping the Acme Corp onboarding "
        "call, so please move CS-12 to In Progress."
    )
    assert [i["op"] for i in intents(r)] == ["update_issue"]  # an "onboarding call" is no onboarding template


async def test_an_issue_and_a_block_after_a_colon_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "I was told to prep for Monday: please create a Linear issue in CS 'Prepare Umbrella Health QBR deck' due "
        "Monday, and block 1 hour on my calendar Monday at 14:00 to work on it."
    )
    assert [i["op"] for i in intents(r)] == ["create_issue", "create_event"]


async def test_a_deal_described_by_words_no_deal_has_is_asked(anna: Conversation) -> None:
    r = await anna.say("Переведите сделку по лизингу серверов в стадию КП")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    r = await anna.say("переведи сделку по Альфа-Лизингу в Won")  # said by its company, it is that deal
    assert r["status"] == "draft_pending"


async def test_an_existing_issue_added_to_a_project_is_never_a_new_issue(anna: Conversation) -> None:
    r = await anna.say("Sorry, I was told to add the onboarding issue to the Q1 Launch project, please do")
    assert r["draft"] is None


async def test_a_new_contacts_role_said_with_where_they_work_and_a_misspelt_tomorrow(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Please add a person: Priya Natarajan, priya@umbrella.health, she works at Umbrella Health as Head of Data."
    )
    assert intents(r)[0]["job_title"] == "Head of Data"
    r = await anna.say("remind me to follow up with john smith tomorow")
    assert intents(r)[0]["deadline"].startswith("2026-11-26")
