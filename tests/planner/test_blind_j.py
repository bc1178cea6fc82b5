"""What blind set J taught (a COO's paragraphs, a CS rep pasting customers' words, an engineer's
slang, a designer naming issues by title words, a founder's misheard voice notes), one behaviour
each, through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_a_change_already_in_place_is_said_and_not_drafted(anna: Conversation) -> None:
    r = await anna.say("set the Globex pilot amount to 30k")
    assert (r["status"], r["draft"]) == ("answered", None) and "30" in r["user_message"]
    r = await anna.say("Set the onboarding screens issue to In Review")  # its title's word is no label
    assert (r["status"], r["draft"]) == ("answered", None)


async def test_a_label_put_on_an_issue_named_by_its_title_changes_that_issue(anna: Conversation) -> None:
    r = await anna.say("Add the onboarding label to the mobile onboarding screens issue")
    assert intents(r) == [{"op": "update_issue", "issue": "DES-7", "labels_add": ["onboarding"]}]


async def test_slang_and_a_title_promised_later(anna: Conversation) -> None:
    r = await anna.say("ENG-103 ассайнь на меня, поставь приоритет high и дедлайн на пятницу")
    merged = {k: v for i in intents(r) for k, v in i.items()}
    assert (merged["assignee"], merged["priority"], merged["due"]) == (
        "Anna Kuznetsova",
        "high",
        "2026-11-27",
    )
    r = await anna.say("заведи таску в ENG, название потом скину")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)


async def test_a_move_not_being_made_now_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Ромашку в Won пока не переводим — деньги ещё не пришли, бухгалтерия подтвердит поступление только "
        "в понедельник. Просто имей в виду."
    )
    assert (r["status"], r["draft"]) == ("answered", None)


async def test_the_due_date_is_the_one_said_with_it_not_the_one_in_the_reason(anna: Conversation) -> None:
    r = await anna.say("ENG-104 дедлайн сдвинь на 10 декабря, доки к пятнице не успеваем")
    assert [i["due"] for i in intents(r)] == ["2026-12-10"]


async def test_a_pasted_quote_is_the_note_and_is_no_step_of_its_own(anna: Conversation) -> None:
    r = await anna.say(
        "From John at Acme: 'Can we get SSO enabled before the renewal?' — pls add a note on the Acme Corp company record"
    )
    assert intents(r) == [
        {"op": "create_note", "record": "Acme Corp", "body": "Can we get SSO enabled before the renewal?"}
    ]


async def test_a_note_then_a_change_to_the_same_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Jane из Globex написала, что их внутренний тендер сдвигается на январь, так что в этом году пилот не "
        "подпишут. Добавь заметку к сделке Globex pilot: «тендер перенесён на январь», и откати эту сделку "
        "обратно в стадию предложения."
    )
    assert [(i["op"], i.get("body") or i.get("stage")) for i in intents(r)] == [
        ("create_note", "тендер перенесён на январь"),
        ("update_deal", "Proposal"),
    ]


async def test_a_team_said_before_a_colon_is_where_the_new_issue_goes(anna: Conversation) -> None:
    r = await anna.say(
        "Two things for Design: create an issue 'Empty states for the CRM import flow' assigned to me, and "
        "comment on the login page redesign that the new mockups are ready for review."
    )
    assert [(i["op"], i.get("team") or i.get("body")) for i in intents(r)] == [
        ("create_issue", "Design"),
        ("comment_issue", "the new mockups are ready for review."),
    ]


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("ENG-102 скинь в бэклог, сейчас не до него", {"state": "Backlog"}),
        ("перекинь ENG-101 в ревью, пулл-реквест уже висит", {"state": "In Review"}),
        ("бампни приоритет ENG-102 до urgent, дизайн-ревью уже завтра", {"priority": "urgent"}),
        ("ENG-103 → In Progress, Олег берёт", {"state": "In Progress", "assignee": "Oleg Ivanov"}),
        ("@oleg take cs-15", {"assignee": "Oleg Ivanov"}),
    ],
)
async def test_an_engineers_slang_changes_the_issue(
    anna: Conversation, text: str, change: dict[str, str]
) -> None:
    r = await anna.say(text)
    said = {
        k: v for i in intents(r) if i["op"] == "update_issue" for k, v in i.items()
    }  # one update, or two halves
    assert {k: said.get(k) for k in change} == change, text
    assert len([a for a in r["plan"]["actions"] if not a["read_only"]]) == 1, text


async def test_slang_for_archiving_and_labelling_every_task(anna: Conversation) -> None:
    r = await anna.say("заархивь ENG-102, редизайн логина отменили")
    assert [(i["op"], i["issue"]) for i in intents(r)] == [("archive_issue", "ENG-102")]
    r = await anna.say("повесь лейбл customer-request на все таски в ENG")
    assert intents(r)[0]["changes"] == {"labels_add": ["customer-request"]}
    r = await anna.say("покажи все таски без ассайна")
    assert "ENG-103" in r["user_message"] and "CS-15" in r["user_message"]
