"""What the sets GJ–GO (and the open wrong drafts of GD–GI) taught, one behaviour each, through the MCP
client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, ops, run, writes

pytestmark = pytest.mark.anyio


def changes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The update_matching intents' filters and changes."""
    return [
        {"filters": i["filters"], "changes": i["changes"]}
        for i in writes(reply)
        if i["op"] == "update_matching"
    ]


# ---- one comment, note or CRM task on each record a filter finds --------------------------------------------


async def test_a_comment_on_every_urgent_issue_is_one_comment_on_each(anna: Conversation) -> None:
    r = await anna.say("comment on every urgent issue: status update needed by EOD")
    assert changes(r) == [
        {"filters": {"priority": "urgent"}, "changes": {"comment": "status update needed by EOD"}}
    ]
    assert drafted(r) == ["linear:comment_issue"] * 2  # ENG-103 and ENG-106
    done = await run(anna, r)
    assert done["status"] == "executed"


async def test_a_comment_on_each_issue_of_a_project_said_in_russian(anna: Conversation) -> None:
    r = await anna.say("По всем задачам проекта Mobile App оставь комментарий «релиз сдвигается на декабрь»")
    assert drafted(r) == ["linear:comment_issue"] * 2
    assert all(
        a["args"]["body"] == "релиз сдвигается на декабрь" for a in r["plan"]["actions"] if not a["read_only"]
    )


async def test_a_comment_on_each_of_the_issues_just_found(anna: Conversation) -> None:
    r = await anna.say(
        "Find issues due on or before Nov 30 and comment on each: please confirm you're on track"
    )
    assert drafted(r) == ["linear:comment_issue"] * 2


async def test_a_comment_on_every_open_issue_is_a_counted_bulk_change(anna: Conversation) -> None:
    r = await anna.say("comment on every open issue: Sprint freeze starts Monday, no merges after 18:00")
    assert "bulk" in [k["kind"] for k in r["plan"]["risks"]]
    assert set(drafted(r)) == {"linear:comment_issue"} and len(drafted(r)) > 5


async def test_a_crm_task_on_each_of_someones_deals(anna: Conversation) -> None:
    r = await anna.say(
        "for each of Oleg's deals create a CRM task 'confirm decision maker' assigned to him, deadline next Tuesday"
    )
    assert changes(r) == [
        {
            "filters": {"owner": "Oleg Ivanov"},
            "changes": {
                "task": {
                    "content": "confirm decision maker",
                    "deadline": "2026-12-01T09:00:00+03:00",
                    "assignee": "Oleg Ivanov",
                }
            },
        }
    ]
    assert drafted(r) == ["attio:create_task"] * 2


async def test_a_task_on_each_deal_of_two_stages_for_a_colleague_named_after_them(anna: Conversation) -> None:
    r = await anna.say(
        "Для всех сделок на стадиях Proposal и Negotiation поставь Максу задачу «подготовить договор» до 1 декабря"
    )
    assert [c["filters"] for c in changes(r)] == [
        {"stage": "Proposal"},
        {"stage": "Negotiation"},
    ]  # not Max's deals
    assert drafted(r) == ["attio:create_task"] * 3


async def test_a_note_on_each_contact_of_a_company(anna: Conversation) -> None:
    r = await anna.say("Добавь заметку каждому контакту из Acme Corp: «ждём подпись до конца месяца»")
    assert changes(r) == [
        {"filters": {"company": "Acme Corp"}, "changes": {"note": "ждём подпись до конца месяца"}}
    ]
    assert drafted(r) == ["attio:create_note"]


async def test_a_task_for_every_deal_without_its_words_is_asked(anna: Conversation) -> None:
    r = await anna.say("Для всех сделок Макса поставь задачу")
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    "said",
    [
        "leave a note on every company that has a deal in Negotiation: CFO sign-off pending",
        "For each deal in Negotiation, open a CS issue 'Prepare contract draft'",
    ],
)
async def test_one_thing_per_record_that_cannot_be_read_is_asked(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_update_matching_sent_with_a_note_for_each_deal(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        intents=[
            {
                "op": "update_matching",
                "object": "deals",
                "filters": {"stage": "Negotiation"},
                "changes": {"note": "CFO sign-off pending"},
            }
        ],
    )
    assert drafted(r) == ["attio:create_note"] * 2


async def test_update_matching_rejects_a_note_on_issues(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        intents=[
            {
                "op": "update_matching",
                "object": "issues",
                "filters": {"state": "open"},
                "changes": {"note": "x"},
            }
        ],
    )
    assert r["status"] == "invalid" and "changes.note" in r["user_message"]


# ---- counted first, then acted on ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "want"),
    [
        (
            "Сколько у нас задач в Todo в CS? Поставь каждой срок на пятницу",
            {"filters": {"team": "Customer Success", "state": "Todo"}, "changes": {"due": "2026-11-27"}},
        ),
        (
            "how many bugs are open in ENG? close all of them except ENG-103",
            {
                "filters": {"team": "Engineering", "state": "open", "label": "bug", "exclude": ["ENG-103"]},
                "changes": {"complete": True},
            },
        ),
        (
            "how many security issues do we have? add the bug label to all of them too",
            {"filters": {"label": "security"}, "changes": {"labels_add": ["bug"]}},
        ),
        (
            "how many deals are in Negotiation rn? move all of them to Won except Globex pilot, that one's still haggling",
            {"filters": {"stage": "Negotiation", "exclude": ["Globex pilot"]}, "changes": {"stage": "Won"}},
        ),
    ],
)
async def test_a_count_then_a_change_to_them_changes_what_was_counted(
    anna: Conversation, said: str, want: dict[str, Any]
) -> None:
    r = await anna.say(said)
    assert changes(r) == [want]


async def test_a_pronoun_for_whose_deals_is_the_colleague_named_before(anna: Conversation) -> None:
    r = await anna.say("Oleg is out from Monday. Reassign every deal he owns to Max.")
    assert changes(r) == [{"filters": {"owner": "Oleg Ivanov"}, "changes": {"owner": "Max Weber"}}]
    assert drafted(r) == ["attio:update_deal"] * 2


async def test_two_priorities_are_each_a_filter_never_none(anna: Conversation) -> None:
    r = await anna.say("Всем срочным и высоким задачам поставь срок на 1 декабря")
    assert [c["filters"] for c in changes(r)] == [{"priority": "urgent"}, {"priority": "high"}]


async def test_skip_names_a_deal_left_out(anna: Conversation) -> None:
    r = await anna.say("move every open deal to Negotiation. skip the ones already there, and skip Romashka")
    assert changes(r) == [
        {"filters": {"stage": "open", "exclude": ["Romashka"]}, "changes": {"stage": "Negotiation"}}
    ]
    assert drafted(r) == ["attio:update_deal"] * 2


# ---- whose task, and which system --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "record"),
    [
        ("К 15 декабря подготовить для Initech расчёт по доп. лицензиям — задача мне", "Initech"),
        ("задача мне на пятницу: собрать отзывы по пилоту Globex", "Globex pilot"),
        ("Задача мне — в четверг пингануть Ивана Петрова", "Ivan Petrov"),
        ("prepare the Initech renewal quote by Friday - task for me", "Initech renewal"),
    ],
)
async def test_a_task_for_me_about_a_crm_record_is_the_crms(
    anna: Conversation, said: str, record: str
) -> None:
    r = await anna.say(said)
    assert ops(r) == ["create_task"]
    task = writes(r)[0]
    assert task["record"] == record and task["assignee"] == "Anna Kuznetsova"
    assert "задача мне" not in task["content"] and "—" not in task["content"]


async def test_a_task_said_with_a_change_of_counted_deals_is_the_crms(anna: Conversation) -> None:
    r = await anna.say(
        "Сколько сделок в стадии Lead? Все их двигай в Qualification и поставь Олегу задачу «запросить бюджет»"
    )
    assert ops(r) == ["update_matching", "create_task"]


async def test_a_team_nobody_has_said_in_the_dative_is_asked(anna: Conversation) -> None:
    r = await anna.say("поставь команде маркетинга задачу сделать рассылку")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert "«маркетинга»" in r["clarifying_question"]


async def test_the_same_task_for_another_colleague_is_a_second_one(anna: Conversation) -> None:
    r = await anna.say("зад в CS 'проверить SLA' на Олега, и такую же на Макса")
    assert [(i["title"], i["assignee"]) for i in writes(r)] == [
        ("проверить SLA", "Oleg Ivanov"),
        ("проверить SLA", "Max Weber"),
    ]
    assert "Max Weber" in r["user_message"]


async def test_whose_task_said_after_where_it_goes(anna: Conversation) -> None:
    r = await anna.say("зад в CRM Олегу — согласовать SSO с Ivan Petrov до вт")
    assert (
        writes(r)[0]["assignee"] == "Oleg Ivanov"
        and writes(r)[0]["content"] == "согласовать SSO с Ivan Petrov"
    )


# ---- sub-issues by their titles ------------------------------------------------------------------------------


async def test_an_issue_made_a_sub_issue_of_another_by_titles_is_a_change(anna: Conversation) -> None:
    r = await anna.say("make 'Fix login timeout on slow networks' a sub-issue of 'Login page redesign'")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-101", "parent": "ENG-102"}]


@pytest.mark.parametrize(
    "said", ["create a sub-issue under Crash on export to PDF", "create a new sub-issue please"]
)
async def test_a_sub_issue_without_a_title_is_asked(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert r["status"] == "needs_clarification" and drafted(r) == []


# ---- where one request ends and the next begins --------------------------------------------------------------


async def test_a_plus_before_a_crm_task_starts_a_request(anna: Conversation) -> None:
    r = await anna.say(
        "pls: globex pilot note - legal ok, waiting on procurement + crm task for me fri to ping Jane Doe"
    )
    assert ops(r) == ["create_note", "create_task"]
    assert writes(r)[0]["body"] == "legal ok, waiting on procurement"


async def test_a_move_after_a_comments_words_is_its_own_change(anna: Conversation) -> None:
    r = await anna.say("Add a comment to DES-7 saying the copy is final, and move it to Todo")
    assert writes(r) == [
        {"op": "comment_issue", "issue": "DES-7", "body": "the copy is final"},
        {"op": "update_issue", "issue": "DES-7", "state": "Todo"},
    ]


async def test_a_heading_that_counts_the_requests_asks_nothing(anna: Conversation) -> None:
    r = await anna.say(
        "Анна просила сделать несколько вещей: во-первых, перевести сделку Acme Logistics в квалификацию; "
        "во-вторых, добавить к этой сделке заметку «Ли Вэй ждёт расчёт ROI»"
    )
    assert ops(r) == ["update_deal", "create_note"]


async def test_a_reminder_after_a_meeting_with_its_time_is_a_request(anna: Conversation) -> None:
    r = await anna.say(
        "завтра 16:00 созвон с Maria Sokolova, 30 мин + напомни мне после него отправить ей КП"
    )
    assert ops(r) == ["create_event", "create_task"]


async def test_a_statement_then_also_a_request_is_two(anna: Conversation) -> None:
    r = await anna.say("Globex pilot is won. Also close CS-14.")
    assert ops(r) == ["update_deal", "complete_issue"]


async def test_the_second_of_two_issues_listed_is_that_one(anna: Conversation) -> None:
    r = await anna.say("two follow-ups: ENG-102 and CS-15. the second one → assign to me")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-15", "assignee": "Anna Kuznetsova"}]


# ---- values and shorthand ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "amount"),
    [
        ("the initech renewal amount is actually twenty two thousand not eighteen", 22000),
        ("по Acme Corp annual license договорились со скидкой, итог 46 500 долларов", 46500),
        ("Acme Corp annual license: they want 65k now instead of 50k, pls update", 65000),
    ],
)
async def test_a_new_amount_said_beside_the_old_one(anna: Conversation, said: str, amount: int) -> None:
    r = await anna.say(said)
    assert ops(r) == ["update_deal"] and writes(r)[0]["amount"] == amount


@pytest.mark.parametrize(
    ("said", "change"),
    [
        ("the acme corp license deal um owner should be oleg", {"owner": "Oleg Ivanov"}),
        ("Альфа-Лизинг расширение передаём Максу", {"owner": "Max Weber"}),
    ],
)
async def test_a_hand_over_said_as_a_wish_or_as_we_do(
    anna: Conversation, said: str, change: dict[str, str]
) -> None:
    r = await anna.say(said)
    assert ops(r) == ["update_deal"] and {k: writes(r)[0][k] for k in change} == change


async def test_a_signed_paper_besides_the_deal_moves_no_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Ромашка подписали допник на SSO — заведи в Linear задачу в CS: настроить SCIM для Ромашки"
    )
    assert ops(r) == ["create_issue"]


async def test_a_reminder_to_check_whether_they_signed_is_a_task(anna: Conversation) -> None:
    r = await anna.say("через неделю напомни проверить, подписали ли в Альфа-Лизинге допсоглашение")
    assert ops(r) == ["create_task"]


async def test_a_deal_of_another_kind_than_the_companys_is_asked(anna: Conversation) -> None:
    r = await anna.say("Move the Initech expansion deal to Proposal")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_person_is_never_renamed_through_their_companys_deal(anna: Conversation) -> None:
    r = await anna.say("переименуй контакт Li Wei в Wei Li")
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    ("said", "want"),
    [
        ("Alfa-Leasing → заведи зад продления по шаблону", ["apply_template"]),
        (
            "Alfa → Won, зад онбординга, и заметку к сд: подписали на 2 года",
            ["update_deal", "apply_template", "create_note"],
        ),
        ("Jot down on the Globex company: they switched procurement to a new vendor portal", ["create_note"]),
        ("reschedule CS-12 to Dec 2", ["update_issue"]),
        ("put oleg on cs fifteen and uh due date december third", ["update_issue"]),
    ],
)
async def test_shorthand_and_loose_verbs(anna: Conversation, said: str, want: list[str]) -> None:
    r = await anna.say(said)
    assert ops(r) == want


async def test_an_ordinal_date_in_a_notes_words_stays_as_said(anna: Conversation) -> None:
    r = await anna.say(
        "сделку Альфа-Лизинг переведи в Won, и добавь заметку к ней: подписание первого декабря в офисе"
    )
    assert writes(r)[1]["body"] == "подписание первого декабря в офисе"


async def test_an_english_question_with_a_russian_name_is_answered_in_english(anna: Conversation) -> None:
    r = await anna.say("What stage is the Ромашка deal in?")
    assert "Proposal" in r["user_message"]


async def test_an_hour_booked_for_me_is_sixty_minutes(anna: Conversation) -> None:
    r = await anna.say("Забронируй мне час на разбор багов в понедельник в 10:00")
    assert writes(r)[0]["duration_minutes"] == 60


# ---- GP–GU: conditions said as a question, whose work, lists of one thing each ---------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Is DES-7 done? if it is, archive it",
        "ENG-103 закрыта? Если да, заархивируй её",
        "Is ENG-102 in progress? if so, assign it to me",
        "Если ENG-103 на Олеге, закрой её.",
        "if ENG-103 is assigned to Oleg, close it",
    ],
)
async def test_a_condition_that_does_not_hold_drafts_nothing(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert r["status"] == "answered" and drafted(r) == []


async def test_a_condition_on_whose_issue_it_is_that_holds_is_drafted(anna: Conversation) -> None:
    r = await anna.say("Если ENG-101 назначена на Олега, закрой её")
    assert ops(r) == ["complete_issue"]


@pytest.mark.parametrize(
    "said",
    [
        "Есть ли заметки по Initech? Добавь заметку к Initech.",
        "Сколько задач в ENG? Создай ещё одну задачу в ENG.",
    ],
)
async def test_a_question_before_is_never_the_words_of_a_new_thing(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    ("said", "want"),
    [
        ("Take CS-15 myself, due Dec 12", {"assignee": "Anna Kuznetsova", "due": "2026-12-12"}),
        (
            "слушай, на CS пятнадцать поставь меня и срок пятнадцатое декабря, это чек-ин с Initech, сама проведу",
            {"assignee": "Anna Kuznetsova", "due": "2026-12-15"},
        ),
    ],
)
async def test_taking_an_issue_myself_assigns_it_to_me(
    anna: Conversation, said: str, want: dict[str, str]
) -> None:
    r = await anna.say(said)
    assert ops(r) == ["update_issue"] and {k: writes(r)[0][k] for k in want} == want


async def test_off_me_and_onto_a_colleague(anna: Conversation) -> None:
    r = await anna.say("перенеси ENG сто четыре на восьмое декабря и сними с меня, пусть Макс делает")
    assert "Max Weber" in [i.get("assignee") for i in writes(r)]


async def test_a_deal_i_take_on_myself_is_mine(anna: Conversation) -> None:
    r = await anna.say("сделку Ромашки отдай Олегу, а Альфа-Лизинг я на себя беру")
    assert [(i["deal"], i["owner"]) for i in writes(r)] == [
        ("Ромашка — внедрение", "Oleg Ivanov"),
        ("Альфа-Лизинг — расширение", "Anna Kuznetsova"),
    ]


async def test_notes_listed_one_per_record(anna: Conversation) -> None:
    r = await anna.say("Add notes: on Globex pilot 'legal review done', on Initech renewal 'invoice paid'")
    assert [(i["record"], i["body"]) for i in writes(r)] == [
        ("Globex pilot", "legal review done"),
        ("Initech renewal", "invoice paid"),
    ]


async def test_tasks_listed_one_per_colleague(anna: Conversation) -> None:
    r = await anna.say(
        "По итогам звонка с Initech, задачи в Attio: мне — отправить счёт до пятницы, Максу — согласовать скидку до 2 декабря"
    )
    assert [(i["assignee"], i["content"]) for i in writes(r)] == [
        ("Anna Kuznetsova", "отправить счёт"),
        ("Max Weber", "согласовать скидку"),
    ]


async def test_a_linear_issue_said_without_its_verb_after_a_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Umbrella Health wants a pilot: create a deal 'Umbrella pilot', 15k, Lead, and a Linear issue in CS to prepare the pilot plan"
    )
    assert ops(r) == ["create_deal", "create_issue"]


async def test_take_this_down_then_a_call_and_a_note(anna: Conversation) -> None:
    r = await anna.say(
        "так, запиши: с Джоном Смитом в пятницу в одиннадцать созвон на сорок минут, и заметку к нему, что интересуется вторым офисом"
    )
    assert ops(r) == ["create_event", "create_note"]


@pytest.mark.parametrize(
    ("said", "want"),
    [
        (
            "сколько у нас задач в бэклоге? закинь их все в Todo",
            {"filters": {"state": "Backlog"}, "changes": {"state": "Todo"}},
        ),
        (
            "Закрой всё, что у меня в CS",
            {
                "filters": {"team": "Customer Success", "state": "open", "assignee": "me"},
                "changes": {"complete": True},
            },
        ),
        (
            "все задачи в In Review закрыть",
            {"filters": {"state": "In Review"}, "changes": {"complete": True}},
        ),
    ],
)
async def test_bulk_said_loosely(anna: Conversation, said: str, want: dict[str, Any]) -> None:
    r = await anna.say(said)
    assert changes(r) == [want]


async def test_a_close_and_a_move_of_other_issues_after_a_dash(anna: Conversation) -> None:
    r = await anna.say("все задачи в In Review закрыть, а задачи Макса в In Progress — перевести в In Review")
    assert changes(r) == [
        {"filters": {"state": "In Review"}, "changes": {"complete": True}},
        {"filters": {"state": "In Progress", "assignee": "Max Weber"}, "changes": {"state": "In Review"}},
    ]


async def test_a_deal_of_another_kind_said_without_the_word_deal_is_asked(anna: Conversation) -> None:
    r = await anna.say("Initech expansion переведи в квалификацию")
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    "said",
    ["закрой все задачи CS с комментарием «готово»", "close all bugs in DES with a comment 'fixed in 2.4'"],
)
async def test_a_bulk_change_with_its_comment_is_never_comments_alone(anna: Conversation, said: str) -> None:
    r = await anna.say(said)
    assert "linear:comment_issue" not in drafted(r) or "linear:complete_issue" in drafted(r)
