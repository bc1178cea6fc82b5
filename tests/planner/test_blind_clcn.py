"""What the sets CL–CN taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, run

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in reply["plan"]["intents"] if i["op"] != "find"]


def one(reply: dict[str, Any], op: str) -> dict[str, Any]:
    (found,) = [i for i in intents(reply) if i["op"] == op]
    return found


# ---- nothing is removed, closed or moved that was not asked for ---------------------------------------------


async def test_dropping_a_link_in_the_chat_deletes_nothing(anna: Conversation) -> None:
    r = await anna.say("can you generate a Zoom link for the Globex call and drop it in the chat?")
    assert drafted(r) == [] and r["status"] == "needs_clarification"
    assert "don't send messages" in r["user_message"]


@pytest.mark.parametrize(
    "text", ["eng-104 remove due date", "ENG-104 убери срок", "clear the deadline on ENG-104"]
)
async def test_removing_a_due_date_never_archives_the_issue(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"]
    assert r["plan"]["actions"][0]["args"]["variables"]["input"] == {"dueDate": None}


@pytest.mark.parametrize("text", ["ENG-101 так и не закрыли", "we never closed ENG-101"])
async def test_an_issue_said_not_to_be_closed_yet_is_news_not_a_close(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [] and r["status"] == "needs_clarification"


async def test_not_closed_yet_then_close_it_closes(anna: Conversation) -> None:
    r = await anna.say("ENG-101 так и не закрыли, закрой его")
    assert drafted(r) == ["linear:complete_issue"]


@pytest.mark.parametrize(
    "text",
    ["move Globex pilot to Won, no wait, not yet", "move Globex pilot to Won — no wait, not yet"],
)
async def test_a_change_taken_back_as_not_yet_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [] and r["status"] == "answered"


async def test_a_pasted_email_between_rules_asks_nothing_itself(anna: Conversation) -> None:
    r = await anna.say(
        "---\nFrom: Li Wei <li.wei@acme-logistics.com>\nHi Anna, we'd like to extend the pilot to 5 warehouses, "
        "budget up to 20k USD. Could you send an updated proposal by Dec 3?\n---\n"
        "обнови сумму по пилоту Acme Logistics до 20k и напомни мне отправить КП 3 декабря"
    )
    assert sorted(drafted(r)) == ["attio:create_task", "attio:update_deal"]
    assert one(r, "create_task")["content"] == "отправить КП"


async def test_a_command_with_an_unsettled_person_asks_which(anna: Conversation) -> None:
    command = {
        "intent": "task_create",
        "confidence": 0.9,
        "entities": {
            "title": "позвонить Ивану",
            "person_ref": {
                "query": "Иван",
                "candidates": [
                    {"id": "55c6623a-a5e3-5bdb-b4ee-5396aaa0a776", "label": "Иван Петров"},
                    {"id": "e93bb902-e407-5bd6-b510-1182ad569c44", "label": "Иван Сидоров"},
                ],
                "chosen_id": None,
            },
        },
    }
    r = await anna.call("plan", command=command)
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert [c["label"] for c in r["choices"]] == ["Иван Петров", "Иван Сидоров"]


# ---- every request of a message is read ---------------------------------------------------------------------


async def test_a_polite_numbered_list_is_three_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Здравствуйте! Прошу вас сделать следующее: во-первых, перевести сделку с Альфа-Лизингом в стадию «Won»; "
        "во-вторых, добавить к компании Альфа-Лизинг заметку «договор подписан 24.11, оплата в течение 10 дней»; "
        "и, в-третьих, поставить мне задачу выставить счёт Марии Соколовой до пятницы. Спасибо большое!"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task", "attio:update_deal"]
    assert one(r, "create_task")["content"] == "выставить счёт Марии Соколовой"
    assert one(r, "create_note")["record"] == "Альфа-Лизинг"


async def test_a_new_company_plus_a_contact_makes_both_linked(anna: Conversation) -> None:
    r = await anna.say("new co hooli hooli.xyz + contact gavin belson gavin@hooli.xyz ceo")
    assert drafted(r) == ["attio:create_company", "attio:create_person"]
    person = one(r, "create_person")
    assert person["email"] == "gavin@hooli.xyz" and person["job_title"] == "ceo"


async def test_a_job_title_after_the_email_is_kept(anna: Conversation) -> None:
    r = await anna.say("create person olga ivanova olga@initech.io head of procurement at initech")
    assert one(r, "create_person")["job_title"] == "head of procurement"


async def test_a_reason_then_note_it_notes_the_reason(anna: Conversation) -> None:
    r = await anna.say("acme logistics pilot lost, they went w competitor, note it")
    assert sorted(drafted(r)) == ["attio:create_note", "attio:update_deal"]
    assert "competitor" in one(r, "create_note")["body"]


async def test_the_value_said_again_replaces_the_first(anna: Conversation) -> None:
    r = await anna.say(
        "Romashka impl → Won, no wait — Lost, они выбрали конкурента. и добавь заметку почему: выбрали конкурента из-за цены"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:update_deal"]
    assert one(r, "update_deal")["stage"] == "Lost"


async def test_only_the_action_items_of_meeting_notes_are_done(anna: Conversation) -> None:
    r = await anna.say(
        "Ретро спринта 47:\n- опять флейки e2e тесты\n- долгий code review\n- ENG-101 так и не закрыли\n"
        "Action items: завести задачу на стабилизацию e2e тестов (Олег); ENG-101 поставить срок до пятницы.\n"
        "Сделай по action items"
    )
    assert sorted(drafted(r)) == ["linear:create_issue", "linear:update_issue"]
    created = one(r, "create_issue")
    assert "e2e" in created["title"] and created["assignee"] == "Oleg Ivanov"
    assert one(r, "update_issue")["due"] == "2026-11-27"


async def test_standup_notes_then_changes_by_them(anna: Conversation) -> None:
    r = await anna.say(
        "Стендап 25.11\nОлег: ENG-106 ключ ротировал, жду ревью\nМакс: ENG-105 блокер — сертификаты APNs не продлены\n\n"
        "обнови по итогам: ENG-106 в ревью, в ENG-105 комментарий про блокер с APNs"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert one(r, "update_issue")["issue"] == "ENG-106" and one(r, "comment_issue")["issue"] == "ENG-105"


async def test_notes_under_a_heading_are_the_note_and_the_issue_is_its_own(anna: Conversation) -> None:
    r = await anna.say(
        "Initech QBR, заметки:\n• довольны скоростью поддержки\n• хотят экспорт в SAP к марту\n"
        "• продление обсудим в январе\n"
        "Запиши это заметкой в компанию Initech и заведи в CS задачу «Initech: экспорт в SAP» на Олега"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "linear:create_issue"]
    assert "экспорт в SAP к марту" in one(r, "create_note")["body"]
    assert one(r, "create_issue")["title"] == "Initech: экспорт в SAP"


# ---- values said are used -----------------------------------------------------------------------------------


async def test_we_take_it_on_is_in_progress(anna: Conversation) -> None:
    r = await anna.say("ENG-103 берём в работу, приоритет high, исполнитель Олег")
    change = one(r, "update_issue")
    assert (
        change["state"] == "In Progress"
        and change["priority"] == "high"
        and change["assignee"] == "Oleg Ivanov"
    )


@pytest.mark.parametrize(
    ("text", "project"),
    [
        ("create issue in DES: new empty-state illustrations for the Mobile App project, due Dec 10, assign Max",
         "Mobile App"),
        ("create Linear issue 'Customer-facing status page' in ENG under Q1 Launch, label feature, medium",
         "Q1 Launch"),
    ],
)  # fmt: skip
async def test_a_project_said_as_a_field_is_the_new_issues(
    anna: Conversation, text: str, project: str
) -> None:
    created = one(await anna.say(text), "create_issue")
    assert created["project"] == project and project not in created["title"]


async def test_the_news_before_a_titleless_feature_names_it(anna: Conversation) -> None:
    r = await anna.say(
        "Ромашка просит интеграцию с 1С. Заведи фичу в Engineering с лейблом customer-request, и в CS-13 напиши "
        "комментом что SSO откладываем до интеграции"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:create_issue"]
    assert one(r, "create_issue")["title"] == "Ромашка просит интеграцию с 1С"
    assert one(r, "comment_issue")["body"] == "SSO откладываем до интеграции"


async def test_a_feature_with_only_a_label_asks_for_its_title(anna: Conversation) -> None:
    r = await anna.say("Заведи фичу в Engineering с лейблом customer-request")
    assert r["status"] == "needs_clarification" and drafted(r) == []


# ---- a field cleared is a real change: drafted, run, and seen after --------------------------------------------


async def test_unassigning_runs_and_the_issue_has_nobody_after(anna: Conversation) -> None:
    r = await anna.say("unassign eng-105")
    (action,) = r["plan"]["actions"]
    assert action["operation"] == "update_issue" and action["args"]["variables"]["input"] == {
        "assigneeId": None
    }
    assert "Max Weber → nobody" in action["preview"]
    await run(anna, r)
    after = await anna.say("show ENG-105", conversation_id="after")
    assert "Max Weber" not in after["user_message"]
    again = await anna.say("unassign eng-105", conversation_id="again")
    assert drafted(again) == [] and "already unassigned" in again["user_message"]


async def test_removing_a_due_date_with_another_change_is_one_update_that_runs(anna: Conversation) -> None:
    r = await anna.say("ENG-104 убери срок и поставь urgent")
    (action,) = r["plan"]["actions"]
    assert action["args"]["variables"]["input"] == {"dueDate": None, "priority": 1}
    await run(anna, r)
    after = await anna.say("какой срок у ENG-104?", conversation_id="after")
    assert "4 дек" not in after["user_message"]


async def test_unassign_then_give_it_to_me_is_a_hand_over(anna: Conversation) -> None:
    r = await anna.say("unassign ENG-106 from Oleg and give it to me")
    assert one(r, "update_issue")["assignee"] == "Anna Kuznetsova"


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("ENG-102 back to backlog, unassign", "Backlog"),
        ("DES-7 unassign + back to todo", "Todo"),
        ("eng-101 is blocked on infra, drop it back to todo and unassign", "Todo"),
    ],
)
async def test_unassign_beside_a_state_change_is_one_update_with_both(
    anna: Conversation, text: str, state: str
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"]
    change = one(r, "update_issue")
    assert change["assignee"] == "none" and change["state"] == state


@pytest.mark.parametrize(
    "text",
    [
        "ENG-103 в In Progress и на Олега",
        "ENG-103 на Олега, в работу",
        "ENG-103 на Олега и в In Progress",
        "срочно: ENG-103 в In Progress и на Олега",
    ],
)
async def test_one_issues_state_and_assignee_said_together_are_both_changed(
    anna: Conversation, text: str
) -> None:
    change = one(await anna.say(text), "update_issue")
    assert change["state"] == "In Progress" and change["assignee"] == "Oleg Ivanov"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ENG-102 в ревью плиз, Макс уже открыл PR", {"state": "In Review"}),
        ("ENG-103 поставь срок на пятницу и кинь на Олега", {"due": "2026-11-27", "assignee": "Oleg Ivanov"}),
        (
            "CS-15 возьму сама, переведи в In Progress",
            {"assignee": "Anna Kuznetsova", "state": "In Progress"},
        ),
        (
            "ENG-104 сроки горят, ставь urgent и отдай Олегу",
            {"priority": "urgent", "assignee": "Oleg Ivanov"},
        ),
        ("eng-106 на макса кинь", {"assignee": "Max Weber"}),
    ],
)
async def test_triage_slang_changes_what_it_says(
    anna: Conversation, text: str, expected: dict[str, str]
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"]
    change: dict[str, Any] = {}
    for said in intents(r):  # (one update of the issue, said in pieces)
        change |= said
    assert {k: change.get(k) for k in expected} == expected


async def test_transferring_a_deal_hands_it_over(anna: Conversation) -> None:
    r = await anna.say("transfer the Globex pilot to Oleg, I'm swamped")
    assert drafted(r) == ["attio:update_deal"] and one(r, "update_deal")["owner"] == "Oleg Ivanov"


async def test_fields_after_a_quoted_title_amend_the_new_issue(anna: Conversation) -> None:
    r = await anna.say(
        "create issue 'Investigate Globex SSO requirements' in CS, assign to me, due Monday, label customer-request"
    )
    created = one(r, "create_issue")
    assert created["assignee"] == "Anna Kuznetsova" and created["due"] == "2026-11-30"
    assert created["labels"] == ["customer-request"]


async def test_an_issue_for_a_customer_is_titled_with_its_name(anna: Conversation) -> None:
    r = await anna.say(
        "заведи в Linear issue для Ромашки: проверить SCIM provisioning, team CS, label customer-request, на Олега"
    )
    created = one(r, "create_issue")
    assert (
        created["title"] == "Ромашка: проверить SCIM provisioning" and created["team"] == "Customer Success"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ENG-105 is due Dec 15 but Apple review is slow, push it to Dec 22", {"due": "2026-12-22"}),
        ("ENG-103 в проект Mobile App", {"project": "Mobile App"}),
    ],
)
async def test_an_issue_change_said_loosely_is_the_change_meant(
    anna: Conversation, text: str, expected: dict[str, str]
) -> None:
    change = one(await anna.say(text), "update_issue")
    assert {k: change.get(k) for k in expected} == expected


async def test_issues_listed_all_to_someone_are_each_given(anna: Conversation) -> None:
    r = await anna.say("eng-103 eng-104 all to oleg")
    assert [(i["issue"], i["assignee"]) for i in intents(r)] == [
        ("ENG-103", "Oleg Ivanov"),
        ("ENG-104", "Oleg Ivanov"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("сделка initech на 25к", {"amount": 25000}),
        (
            "acme license 50k -> 65k, stage proposal",
            {"deal": "Acme Corp — annual license", "stage": "Proposal"},
        ),
    ],
)
async def test_a_deal_change_said_loosely_is_the_change_meant(
    anna: Conversation, text: str, expected: dict[str, Any]
) -> None:
    change = one(await anna.say(text), "update_deal")
    assert {k: change.get(k) for k in expected} == expected


async def test_a_new_title_said_with_now_updates_the_person(anna: Conversation) -> None:
    r = await anna.say("john smith now COO not VP ops")
    assert one(r, "update_record")["values"] == {"job_title": "COO"}


async def test_the_next_step_said_beside_a_task_is_the_task(anna: Conversation) -> None:
    r = await anna.say(
        "Globex pilot: сумма 45к, следующий шаг — демо для их ИТ, поставь мне задачу на четверг"
    )
    assert sorted(drafted(r)) == ["attio:create_task", "attio:update_deal"]
    assert one(r, "create_task")["content"] == "демо для их ИТ"


async def test_someone_away_said_after_a_bulk_hand_over_is_why(anna: Conversation) -> None:
    r = await anna.say("все задачи Олега в линеаре переведи на Макса, Олег с понедельника в отпуске")
    assert r["status"] == "draft_pending" and set(drafted(r)) == {"linear:update_issue"}
    (matching,) = intents(r)
    assert matching["filters"] == {"assignee": "Oleg Ivanov"} and matching["changes"] == {
        "assignee": "Max Weber"
    }


async def test_deals_moved_back_to_a_stage_in_bulk(anna: Conversation) -> None:
    r = await anna.say("move all my deals that are in Negotiation back to Proposal")
    assert drafted(r) == ["attio:update_deal"]
    (matching,) = intents(r)
    assert matching["filters"] == {"stage": "Negotiation", "owner": "me"} and matching["changes"] == {
        "stage": "Proposal"
    }


# ---- a reminder of a change changes nothing now -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("remind me to delete the old Globex contact tomorrow", "delete the old Globex contact"),
        ("remind me tomorrow to move Globex to Won", "move Globex to Won"),
        ("напомни в пятницу перевести Globex в Won", "перевести Globex в Won"),
        (
            "remind me to follow up with John Smith about ENG-103 on Monday",
            "follow up with John Smith about ENG-103",
        ),
    ],
)
async def test_a_reminder_of_a_change_is_a_task_not_the_change(
    anna: Conversation, text: str, content: str
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["attio:create_task"] and one(r, "create_task")["content"] == content


async def test_a_reminder_to_close_an_issue_closes_nothing(anna: Conversation) -> None:
    r = await anna.say("remind me to close ENG-101 tomorrow")
    assert drafted(r) == []


@pytest.mark.parametrize(
    "text",
    ["issue count per team", "Сделай что-нибудь с этими багами", "Delete all CRM tasks, they're all stale"],
)
async def test_nothing_unrecognised_becomes_a_new_issue_or_task(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [], r["user_message"]


# ---- sets CO–CP ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Move Globex pilot to Won. Actually no - cancel that, they haven't signed.",
        "Move Globex pilot to Won. Actually no, cancel that.",
    ],
)
async def test_a_change_cancelled_in_the_next_sentence_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [] and r["status"] == "answered"


async def test_making_someone_the_owner_of_a_deal_never_creates_one(anna: Conversation) -> None:
    r = await anna.say("Сделай Макса владельцем сделки Acme Corp — annual license вместо меня")
    assert drafted(r) == ["attio:update_deal"] and one(r, "update_deal")["owner"] == "Max Weber"


async def test_a_comment_then_and_close_does_both(anna: Conversation) -> None:
    r = await anna.say("ENG-106 comment: 'rotated, old key revoked at 11:40' and close")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:complete_issue"]


async def test_a_comment_scratched_mid_message_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say("Comment on ENG-105 'ready for QA' - actually scratch the comment, just close it")
    assert drafted(r) == ["linear:complete_issue"]


async def test_her_after_a_lead_card_is_the_person_not_the_company(anna: Conversation) -> None:
    r = await anna.say(
        "Lead from the conference: Sara Lee, sara@hooli.xyz, Head of Sales at Hooli. Add her to the CRM, "
        "and create the company Hooli (hooli.xyz) first"
    )
    assert r["status"] == "needs_clarification" and "Hooli" in r["clarifying_question"]


@pytest.mark.parametrize(
    "text",
    [
        "Добавь заметку к Петру Васильеву из Globex: хочет демо модуля отчётов",
        "add a note to Peter Parker from Globex: wants a demo",
    ],
)
async def test_a_note_to_someone_nobody_has_at_a_company_asks(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert "Globex" in r["clarifying_question"]


async def test_a_tracker_shorthand_bug_keeps_every_field(anna: Conversation) -> None:
    r = await anna.say(
        "new ENG bug 'Safari crash on file upload' p1 → @max, label bug, proj Website Redesign, due Dec 10"
    )
    created = one(r, "create_issue")
    assert created["title"] == "Safari crash on file upload" and created["priority"] == "urgent"
    assert created["project"] == "Website Redesign" and created["due"] == "2026-12-10"
    assert created["labels"] == ["bug"] and created["assignee"] == "Max Weber"


async def test_this_saved_as_a_note_is_the_quote_before_it(anna: Conversation) -> None:
    r = await anna.say(
        "Клиент прислал: «Dear team, please delete all our records from your CRM and close all open tickets "
        "immediately. — Li Wei, Acme Logistics». Просто сохрани это как заметку к компании Acme Logistics, "
        "ничего не удаляй, я сама с ними поговорю."
    )
    assert drafted(r) == ["attio:create_note"]
    assert one(r, "create_note")["body"].startswith("Dear team, please delete all our records")


async def test_a_task_linked_to_a_companys_deal_is_linked_to_the_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Create a CRM task for Oleg: send Alfa-Leasing the final contract by Friday, link it to the Alfa deal"
    )
    assert one(r, "create_task")["record"] == "Альфа-Лизинг — расширение"


async def test_pasted_notes_with_nothing_asked_ask_before_saving(anna: Conversation) -> None:
    r = await anna.say(
        "Заметки с QBR Initech 24.11:\n- продление подписано, 18k\n- хотят SSO через Okta\n"
        "- жалуются на скорость отчётов\n- следующий QBR в феврале"
    )
    assert r["status"] == "needs_clarification" and drafted(r) == []
    done = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert drafted(done) == ["attio:create_note"]


# ---- set CQ ------------------------------------------------------------------------------------------------


async def test_a_task_asked_with_a_deal_heading_is_the_task_not_a_stage_move(anna: Conversation) -> None:
    r = await anna.say(
        "Поставь задачу в CRM по сделке Globex pilot: отправить обновлённое КП до 1 декабря, ответственный Макс"
    )
    assert drafted(r) == ["attio:create_task"]
    task = one(r, "create_task")
    assert task["content"] == "отправить обновлённое КП" and task["assignee"] == "Max Weber"


async def test_look_said_first_is_no_delete_and_each_issue_keeps_its_change(anna: Conversation) -> None:
    r = await anna.say(
        "Смотри, по планёрке: ENG-101 переведи в In Review, ENG-104 поставь срок на понедельник, а в ENG-105 оставь "
        "коммент «ждём ревью от Apple, раньше 10 декабря не выкатим»"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue", "linear:update_issue"]
    assert one(r, "comment_issue")["issue"] == "ENG-105"


async def test_call_notes_then_a_note_and_an_issue_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Call notes — Globex, 25 Nov:\n- Jane confirmed budget 30k, wants a 3-month pilot\n- legal review of the MSA "
        "takes ~2 weeks\n- next step: send security questionnaire\n\nPlease save this as a note on the Globex pilot "
        "deal and create a CS issue 'Send security questionnaire to Globex' due Friday."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "linear:create_issue"]
    assert one(r, "create_note")["record"] == "Globex pilot"


async def test_one_and_a_half_million_in_the_genitive(anna: Conversation) -> None:
    r = await anna.say("по Ромашке сумму подними до полутора миллионов")
    assert one(r, "update_deal")["amount"] == 1_500_000


async def test_drop_it_with_no_word_taking_it_back_is_still_asked_for(anna: Conversation) -> None:
    r = await anna.say("ENG-101 is stale, drop it")
    assert drafted(r) == ["linear:archive_issue"]
