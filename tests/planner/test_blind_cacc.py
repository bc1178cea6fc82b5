"""What the sets CA–CC taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in reply["plan"]["intents"] if i["op"] != "find"]


def one(reply: dict[str, Any], op: str) -> dict[str, Any]:
    (found,) = [i for i in intents(reply) if i["op"] == op]
    return found


# ---- a question or a filter never becomes a change ---------------------------------------------------------


async def test_a_priority_said_of_the_issues_is_which_ones_not_a_bulk_change(anna: Conversation) -> None:
    r = await anna.say("high priority issues across all teams pls")
    assert r["status"] == "answered" and drafted(r) == []
    (found,) = r["plan"]["intents"]
    assert found["op"] == "find" and found["filters"]["priority"] == "high"


async def test_making_them_urgent_is_still_a_bulk_change(anna: Conversation) -> None:
    r = await anna.say("make all high priority issues urgent")
    assert r["status"] == "draft_pending" and set(drafted(r)) == {"linear:update_issue"}


@pytest.mark.parametrize(
    "text",
    [
        "может закрыть ENG-101? как думаешь",
        "Should we move Globex to Lost?",
        "как думаешь, стоит закрыть ENG-101?",
    ],
)
async def test_an_opinion_asked_for_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and drafted(r) == [], r["user_message"]


async def test_advice_with_nothing_to_read_says_it_is_the_persons_call(anna: Conversation) -> None:
    r = await anna.say("Should we move Globex to Lost?")
    assert "your call" in r["user_message"] and "Attio or Linear" not in r["user_message"]


async def test_a_word_of_a_project_and_of_one_title_asks_which_issue(anna: Conversation) -> None:
    r = await anna.say("назначь мобильную задачу на Олега")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    labels = " | ".join(c["label"] for c in r["choices"])
    assert "ENG-105" in labels and "DES-7" in labels


# ---- several requests in one message: none dropped ---------------------------------------------------------


async def test_write_back_on_an_issue_is_its_comment_and_the_due_date_too(anna: Conversation) -> None:
    r = await anna.say("по CS-13: отпишись, что ждём метаданные от заказчика, и поставь срок на вторник")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert one(r, "comment_issue")["body"] == "ждём метаданные от заказчика"
    assert one(r, "update_issue")["due"] == "2026-12-01"


async def test_label_an_issue_and_comment_are_two_changes(anna: Conversation) -> None:
    r = await anna.say("label ENG-103 security and comment 'could leak tmp files, treat as sec issue'")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert one(r, "update_issue")["labels_add"] == ["security"]


@pytest.mark.parametrize(
    "text",
    [
        "Итак, по итогам: ENG-102 в работу, CS-15 закрыть, прокомментируй ENG-106: ждём окно",
        "Итак, по итогам планирования: ENG-102 в работу, CS-15 закрыть, в ENG-106 написать «ждём окно»",
    ],
)
async def test_a_heading_then_changes_and_a_comment_comments_only_on_its_issue(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:complete_issue", "linear:update_issue"]
    comment = one(r, "comment_issue")
    assert comment["issue"] == "ENG-106" and comment["body"] == "ждём окно"


async def test_a_plus_between_a_note_and_a_reminder_joins_two_requests(anna: Conversation) -> None:
    r = await anna.say("Initech: note 'wants a 3-year term' + remind me to send the revised quote Monday")
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    assert one(r, "create_note")["body"] == "wants a 3-year term"
    assert one(r, "create_task")["deadline"].startswith("2026-11-30")


async def test_a_forwarded_email_noted_plus_a_reminder(anna: Conversation) -> None:
    r = await anna.say(
        ">> From: ivan.sidorov@initech.io\n>> Subject: invoice\n"
        ">> Hi, our AP team needs the invoice re-issued with the new VAT number.\n\n"
        "закинь это заметкой на Ивана Сидорова + напоминалку мне на завтра перевыставить счёт"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    note, task = one(r, "create_note"), one(r, "create_task")
    assert (
        note["record"] == "Ivan Sidorov"
        and "new VAT number" in note["body"]
        and "напоминалку" not in note["body"]
    )
    assert task["content"] == "перевыставить счёт" and task["deadline"].startswith("2026-11-26")


async def test_into_the_card_of_a_person_is_a_note_on_them(anna: Conversation) -> None:
    r = await anna.say(
        "Переслал письмо от Марии Соколовой:\n"
        "> Добрый день! Бюджет на расширение согласовали, но просим рассрочку платежа на 3 месяца.\n"
        "Занеси это в карточку Марии и напомни мне в пятницу обсудить рассрочку с финансами"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    assert one(r, "create_note")["record"] == "Maria Sokolova"
    assert "рассрочку платежа" in one(r, "create_note")["body"]


async def test_a_call_then_can_you_log_that_notes_what_they_said(anna: Conversation) -> None:
    r = await anna.say(
        "uh yeah so I just got off the phone with John Smith, um, they're gonna need the invoice split across "
        "two cost centers, can you like log that on John and remind me Monday to ping finance"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    body = one(r, "create_note")["body"]
    assert "cost centers" in body and "phone" not in body


async def test_a_pointer_to_quoted_words_comments_those_words(anna: Conversation) -> None:
    r = await anna.say(
        'Вот что написал Иван Петров в телеге: "SSO настроили, тестим, в пятницу дадим фидбек". '
        "Оставь коммент в CS-13 с этим и напомни мне в пятницу спросить фидбек у Ивана Петрова"
    )
    assert one(r, "comment_issue")["body"] == "SSO настроили, тестим, в пятницу дадим фидбек"


async def test_notes_attached_to_a_deal_made_in_the_same_message_are_not_drafted_twice(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Anna here — notes from Umbrella Health intro: 200 seats, decision by end of Q1, champion is their CIO. "
        'Create a deal "Umbrella Health — platform", 60k USD, stage Qualification, and attach these notes to it'
    )
    notes = [i for i in intents(r) if i["op"] == "create_note"]
    assert r["status"] != "draft_pending" or len(notes) <= 1
    assert not [n for n in notes if "platform" in n["body"]]


async def test_a_deal_that_closed_won_then_the_template_moves_it_to_won_too(anna: Conversation) -> None:
    r = await anna.say("Globex pilot closed won! онбординг по шаблону плиз")
    assert sorted(drafted(r)) == ["attio:update_deal"] + ["linear:create_issue"] * 4
    assert one(r, "update_deal")["stage"] == "Won"


# ---- words people use ----------------------------------------------------------------------------------------


async def test_a_company_as_the_heading_of_a_new_deal_is_its_company(anna: Conversation) -> None:
    r = await anna.say("Альфа-Лизинг: новая сделка «Лизинг оборудования», 3 млн рублей, стадия лид")
    deal = one(r, "create_deal")
    assert deal["company"] == "Альфа-Лизинг" and deal["name"] == "Лизинг оборудования"
    assert deal["amount"] == 3_000_000 and deal["stage"] == "Lead"


async def test_a_lead_for_a_company_is_a_new_deal_in_lead(anna: Conversation) -> None:
    r = await anna.say("add a 10k USD lead for Acme Logistics called warehouse add-on")
    deal = one(r, "create_deal")
    assert (deal["company"], deal["name"], deal["stage"], deal["amount"]) == (
        "Acme Logistics",
        "warehouse add-on",
        "Lead",
        10_000,
    )


async def test_a_contact_given_with_an_email_is_a_new_contact(anna: Conversation) -> None:
    r = await anna.say("контакт в Инитеке: Ольга Смирнова, o.smirnova@initech.io, финансовый директор")
    person = one(r, "create_person")
    assert person["email"] == "o.smirnova@initech.io" and person["company"] == "Initech"


async def test_a_dictated_note_to_a_deal_said_in_three_words(anna: Conversation) -> None:
    r = await anna.say("ну короче к сделке с глобексом заметку они там пилот хотят продлить на месяц")
    note = one(r, "create_note")
    assert note["record"] == "Globex pilot" and note["body"] == "они там пилот хотят продлить на месяц"


async def test_what_someone_said_then_write_it_to_their_notes(anna: Conversation) -> None:
    r = await anna.say(
        "Иван Сидоров из Инитека сказал что бюджет на следующий год утвердят в январе запиши ему это в заметки"
    )
    note = one(r, "create_note")
    assert note["record"] == "Ivan Sidorov" and "утвердят в январе" in note["body"]
    assert "запиши" not in note["body"]


@pytest.mark.parametrize(
    ("text", "team", "title"),
    [
        (
            "feature request from Globex: SAML login. CS team, label customer-request",
            "Customer Success",
            "SAML login",
        ),
        ("bug: SAML login broken, CS team", "Customer Success", "SAML login broken"),
    ],
)
async def test_a_team_said_after_the_title_is_where_the_issue_goes(
    anna: Conversation, text: str, team: str, title: str
) -> None:
    issue = one(await anna.say(text), "create_issue")
    assert issue["team"] == team and issue["title"].startswith(title) and "team" not in issue["title"]


async def test_a_date_inside_a_new_description_is_its_words(anna: Conversation) -> None:
    r = await anna.say("CS-13 описание: клиент ждёт SSO через Azure AD до 15 декабря")
    assert r["status"] == "draft_pending"
    assert one(r, "update_issue")["description"] == "клиент ждёт SSO через Azure AD до 15 декабря"


async def test_the_preposition_of_a_due_day_leaves_the_task_title(anna: Conversation) -> None:
    r = await anna.say("поставь задачу мне на завтра перевыставить счёт Initech")
    assert one(r, "create_task")["content"] == "перевыставить счёт Initech"


async def test_a_product_named_in_a_quoted_comment_is_no_other_system(anna: Conversation) -> None:
    r = await anna.say("mark CS-12 done and leave a comment 'kickoff held, notes in Notion'")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:complete_issue"]


async def test_an_issue_that_blocks_a_release_books_no_time(anna: Conversation) -> None:
    r = await anna.say("ENG-101 blocks the release. make it urgent and comment: release blocker, do not move")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert one(r, "update_issue")["priority"] == "urgent"


async def test_who_sent_what_after_a_change_is_why_not_a_condition(anna: Conversation) -> None:
    r = await anna.say("close the Globex requirements issue, Jane sent everything")
    assert drafted(r) == ["linear:complete_issue"] and one(r, "complete_issue")["issue"] == "CS-14"
