"""What blind sets U–Y taught (a founder's voice memos, a product manager, a customer-success manager in quick
Russian, a BD manager after a conference, a British office manager, a Russian team lead dictating, a sales
director, a support engineer pasting customers' messages), one behaviour each, through the MCP client on
the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def ops(reply: dict[str, Any]) -> list[str]:
    return [a["operation"] for a in (reply.get("plan") or {}).get("actions") or [] if not a["read_only"]]


def picked(reply: dict[str, Any], field: str) -> list[Any]:
    return [i.get(field) for i in intents(reply)]


# ---- questions are read, never drafted -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("when's ENG-105 due", "2026-12-15"),  # dictated without "?": a question, not "what due date?"
        ("whats urgent rn", "ENG-106"),  # only issues have a priority
        ("what's due before december", "CS-12"),
        ("who is doing the push notifications thing", "Max Weber"),
        ("а мы уже закрыли ENG сто один?", "ENG-101"),
        ("кто делает сто пятую", "ENG-105"),
        ("что лежит в бэклоге", "CS-15"),
        ("Что висит в переговорах?", "Globex pilot"),
        ("Roughly how many companies do we have in Attio altogether?", "7"),
        ("сколько у нас компаний в базе", "7"),
    ],
)
async def test_a_question_is_answered_with_what_it_asks(anna: Conversation, text: str, said: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and ops(r) == [], r
    assert said in r["user_message"], r["user_message"]


async def test_a_stage_asked_about_totals_its_deals(anna: Conversation) -> None:
    r = await anna.say("Сумма по стадии переговоры?")
    assert intents(r) == [
        {"op": "find", "object": "deals", "filters": {"stage": "Negotiation"}, "aggregate": "sum:amount"}
    ]


async def test_a_due_date_is_shown_as_words_and_as_its_iso_date(anna: Conversation) -> None:
    r = await anna.say("when is ENG-104 due?")
    assert "(2026-12-04)" in r["user_message"], r["user_message"]


# ---- messages sent elsewhere, other systems -----------------------------------------------------------


async def test_jira_said_aloud_is_another_system(anna: Conversation) -> None:
    r = await anna.say("заведи тикет в жире по инитеку")
    assert r["status"] == "needs_clarification" and "Jira" in r["clarifying_question"] and ops(r) == []
    r = await anna.say("Open a Zendesk ticket for Jane Doe about the 500s")
    assert r["status"] == "needs_clarification" and "Zendesk" in r["clarifying_question"] and ops(r) == []


# ---- deals -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "mark Globex pilot as won 🎉",
        "сделку глобекс пилот короче закрыли успешно",
        "we won the Globex pilot",
    ],
)
async def test_a_deal_said_won_is_moved_to_won(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert intents(r) == [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won"}], r


async def test_a_win_and_a_thrown_note_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say("короче глобекс пилот в выиграно и кинь заметку что подписали годовой контракт")
    assert ops(r) == ["update_deal", "create_note"]
    assert intents(r)[1]["body"] == "подписали годовой контракт"


async def test_a_deal_now_worth_a_sum_said_in_words_is_updated(anna: Conversation) -> None:
    r = await anna.say("globex pilot теперь тридцать пять тысяч а не тридцать")
    assert intents(r) == [{"op": "update_deal", "deal": "Globex pilot", "amount": 35000.0}], intents(r)


async def test_a_sum_said_in_thousands_and_hundreds_is_one_number(anna: Conversation) -> None:
    r = await anna.say(
        "слушай создай сделку initech expansion для инитека на двадцать две тысячи пятьсот долларов стадия лид "
        "владелец макс"
    )
    (made,) = intents(r)
    assert (made["name"], made["amount"], made["stage"], made["owner"]) == (
        "Initech expansion",
        22500.0,
        "Lead",
        "Max Weber",
    )


async def test_it_is_over_is_not_everything(anna: Conversation) -> None:
    r = await anna.say("альфа лизинг сделка всё проиграна они ушли к конкурентам переведи в lost")
    assert intents(r) == [{"op": "update_deal", "deal": "Альфа-Лизинг — расширение", "stage": "Lost"}]


async def test_two_owners_deals_each_go_to_the_new_owner(anna: Conversation) -> None:
    r = await anna.say("Олег и Анна уходят в отпуск до января — все их сделки на Макса")
    assert sorted(i["filters"]["owner"] for i in intents(r)) == ["Anna Kuznetsova", "Oleg Ivanov"]
    assert {i["changes"]["owner"] for i in intents(r)} == {"Max Weber"}


async def test_a_colleague_asked_to_do_something_gets_a_task_and_no_stage_moves(anna: Conversation) -> None:
    r = await anna.say("Попроси Олега к четвергу обновить КП для Альфа-Лизинга")
    assert ops(r) == ["create_task"]
    (task,) = intents(r)
    assert (task["content"], task["assignee"], task["deadline"][:10]) == (
        "обновить КП для Альфа-Лизинга",
        "Oleg Ivanov",
        "2026-11-26",
    )


async def test_tasks_counted_then_listed_are_one_each(anna: Conversation) -> None:
    r = await anna.say(
        "Три задачи Анне по Ромашке на пятницу: согласовать ТЗ, отправить договор, назначить кикофф"
    )
    assert picked(r, "content") == ["согласовать ТЗ", "отправить договор", "назначить кикофф"]


async def test_a_task_on_every_deal_at_once_is_asked(anna: Conversation) -> None:
    r = await anna.say("По всем шести сделкам поставь их владельцам задачу «сверить данные в CRM» на пятницу")
    assert r["status"] == "needs_clarification" and ops(r) == []


# ---- people and companies -----------------------------------------------------------------------------


async def test_a_company_and_a_person_there_are_both_added(anna: Conversation) -> None:
    r = await anna.say(
        "заведи компанию техносфера, tehnosfera.ru, и человека туда: анна белова, a.belova@tehnosfera.ru, директор"
    )
    assert ops(r) == ["create_company", "create_person"]
    assert intents(r)[1]["name"] == "Анна Белова"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("добавь контакт петра орлова, p.orlov@globex.com", "Пётр Орлов"),
        ("добавь в CRM сергея волкова он CTO в альфа лизинге почта s.volkov@alfaleasing.ru", "Сергей Волков"),
    ],
)
async def test_a_russian_name_said_as_an_object_is_written_as_on_a_card(
    anna: Conversation, text: str, name: str
) -> None:
    r = await anna.say(text)
    assert picked(r, "name") == [name], intents(r)


async def test_where_the_card_goes_is_not_where_they_work(anna: Conversation) -> None:
    r = await anna.say("добавь в CRM сергея волкова он CTO в альфа лизинге почта s.volkov@alfaleasing.ru")
    assert (picked(r, "company"), picked(r, "job_title")) == (["Альфа-Лизинг"], ["CTO"])


async def test_a_new_company_is_named_after_the_verb_not_the_first_word(anna: Conversation) -> None:
    r = await anna.say(
        "We've a new prospect — please add Stark Industries to the CRM, their website is starkindustries.com."
    )
    assert intents(r) == [
        {"op": "create_company", "name": "Stark Industries", "domain": "starkindustries.com"}
    ]


# ---- notes and tasks about someone said before ------------------------------------------------------------


async def test_a_reminder_about_her_is_about_whom_the_sentence_before_named(anna: Conversation) -> None:
    r = await anna.say(
        "Maria Sokolova cornered me at the afterparty about the expansion contract. Remind me to follow up with "
        "her next Monday, and add a note to Maria: asked for a 5% discount on the second year."
    )
    assert ops(r) == ["create_task", "create_note"]
    assert picked(r, "record") == ["Maria Sokolova", "Maria Sokolova"]


async def test_told_then_log_it_notes_what_was_told_and_the_aside(anna: Conversation) -> None:
    r = await anna.say(
        "Had a good call with John Smith just now. Please log it against his record (he wants to add twenty "
        "more seats) and remind me to send him a revised quote next Tuesday."
    )
    note = intents(r)[0]
    assert (
        note["record"] == "John Smith" and "twenty more seats" in note["body"] and "good call" in note["body"]
    )


async def test_the_words_said_before_the_ask_are_the_note(anna: Conversation) -> None:
    r = await anna.say("Globex pilot — Lost. Причина: ушли к конкуренту, запиши заметкой в сделку")
    assert picked(r, "body")[-1] == "ушли к конкуренту"


# ---- issues ------------------------------------------------------------------------------------------


async def test_a_problem_told_then_filed_as_a_customer_request(anna: Conversation) -> None:
    r = await anna.say(
        "Maria Sokolova asked for multi-currency invoices - file it in ENG as a customer request, and add a CRM "
        "task for me to reply to her by Friday."
    )
    issue, task = intents(r)
    assert (issue["title"], issue["labels"], issue.get("assignee")) == (
        "Maria Sokolova asked for multi-currency invoices",
        ["customer-request"],
        None,  # the next clause's "for me" is the task's
    )
    assert task["record"] == "Maria Sokolova"


async def test_a_new_issue_then_who_and_how_urgent(anna: Conversation) -> None:
    r = await anna.say("new bug in ENG: CSV export drops unicode chars. assign max, high")
    assert intents(r)[0] | {"labels": None} == {
        "op": "create_issue",
        "title": "CSV export drops unicode chars",
        "team": "Engineering",
        "assignee": "Max Weber",
        "priority": "high",
        "labels": None,
    }
    r = await anna.say("в DES заведи задачу нарисовать иконки для онбординга и повесь на макса")
    assert picked(r, "assignee") == ["Max Weber"]


async def test_a_task_into_a_project_is_an_issue_there(anna: Conversation) -> None:
    r = await anna.say(
        "ромашка прислала тз по интеграции, заведи в проект онбординга задачу: разобрать тз ромашки по интеграции с 1С"
    )
    assert ops(r) == ["create_issue"] and picked(r, "project") == ["Customer Onboarding"]
    r = await anna.say("заведи задачу в проект биллинг: счета для альфы")
    assert r["status"] == "needs_clarification" and "биллинг" in r["clarifying_question"]


async def test_an_issue_for_someone_said_in_the_dative(anna: Conversation) -> None:
    r = await anna.say("заведи анне задачу подготовить релиз ноутс в проекте q1 launch срок первое декабря")
    assert intents(r) == [
        {
            "op": "create_issue",
            "title": "подготовить релиз ноутс",
            "team": "Engineering",
            "assignee": "Anna Kuznetsova",
            "due": "2026-12-01",
            "project": "Q1 Launch",
        }
    ]


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        (
            "три задачи в ENG первая настроить CI вторая обновить зависимости третья почистить логи",
            ["настроить CI", "обновить зависимости", "почистить логи"],
        ),
        (
            "File these in Linear for the Design team: 'Initech dashboard mockups' and 'Globex pilot report "
            "template', both due Dec 9.",
            ["Initech dashboard mockups", "Globex pilot report template"],
        ),
    ],
)
async def test_issues_listed_one_by_one_are_each_made(
    anna: Conversation, text: str, titles: list[str]
) -> None:
    r = await anna.say(text)
    assert picked(r, "title") == titles, intents(r)


async def test_an_issue_named_before_a_colon_is_the_one_acted_on(anna: Conversation) -> None:
    r = await anna.say("The leaked key rotation issue: move it to In Progress and assign it to me")
    # one change, both fields (the second said of the issue just changed amends that change)
    assert picked(r, "issue") == ["ENG-106"] and ops(r) == ["update_issue"]
    assert (picked(r, "state"), picked(r, "assignee")) == (["In Progress"], ["Anna Kuznetsova"])


async def test_a_state_said_next_is_the_same_issues(anna: Conversation) -> None:
    r = await anna.say("ENG сто три назначь на макса и возьми в работу")
    assert picked(r, "issue") == ["ENG-103", "ENG-103"] and picked(r, "state")[1] == "In Progress"


async def test_closing_issues_said_as_ordinals(anna: Conversation) -> None:
    r = await anna.say("закрой сто первую и сто шестую")
    assert picked(r, "issue") == ["ENG-101", "ENG-106"] and ops(r) == ["complete_issue", "complete_issue"]


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("срок по ENG сто пять сдвинь на двадцатое", "2026-12-20"),
        ("Please push the due date on ENG-104 back to a fortnight from today.", "2026-12-09"),
    ],
)
async def test_a_day_said_the_way_people_say_it(anna: Conversation, text: str, due: str) -> None:
    r = await anna.say(text)
    assert picked(r, "due") == [due], intents(r)


# ---- bulk --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "filters", "changes"),
    [
        ("Bump every low priority issue to medium.", {"priority": "low"}, {"priority": "medium"}),
        ("все задачи с низким приоритетом сделай средними", {"priority": "low"}, {"priority": "medium"}),
        ("make all ENG issues high priority", {"team": "Engineering"}, {"priority": "high"}),
        ("Поставь приоритет срочный всем багам", {"label": "bug"}, {"priority": "urgent"}),
        (
            "Move Oleg's Todo issues to In Progress",
            {"state": "Todo", "assignee": "Oleg Ivanov"},
            {"state": "In Progress"},
        ),
        ("close Anna's bugs", {"state": "open", "label": "bug", "assignee": "me"}, {"complete": True}),
    ],
)
async def test_which_issues_a_bulk_change_touches_is_what_was_said(
    anna: Conversation, text: str, filters: dict[str, Any], changes: dict[str, Any]
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["filters"], i["changes"]) for i in intents(r)] == [
        ("update_matching", filters, changes)
    ]


async def test_everything_in_review_goes_back_to_work(anna: Conversation) -> None:
    r = await anna.say("всё что в ревью верни в работу")
    assert [(i["filters"], i["changes"]) for i in intents(r)] == [
        ({"state": "In Review"}, {"state": "работу"})
    ]
    assert ops(r) == ["update_issue"]


# ---- calendar ----------------------------------------------------------------------------------------


async def test_two_calls_in_one_sentence_are_two_events(anna: Conversation) -> None:
    r = await anna.say(
        "Book a 30 min call with John Smith on Thursday at 5pm and another 30 min call with Li Wei on Friday at 11am."
    )
    assert picked(r, "title") == ["Call with John Smith", "Call with Li Wei"]
    assert [s[:16] for s in picked(r, "start")] == ["2026-11-26T17:00", "2026-11-27T11:00"]


async def test_a_block_with_colleagues_invites_them_on_friday_week(anna: Conversation) -> None:
    r = await anna.say(
        "Please block out an hour on Friday week at 2pm for the quarterly review with Oleg and Max."
    )
    (event,) = intents(r)
    assert (event["title"], event["start"][:16], sorted(event["attendees"])) == (
        "Quarterly review with Oleg and Max",
        "2026-12-04T14:00",
        ["Max Weber", "Oleg Ivanov"],
    )


async def test_a_meeting_about_the_office_move_moves_nothing(anna: Conversation) -> None:
    r = await anna.say(
        "Please put a 30-minute stand-up in tomorrow morning at half nine for Oleg and Max about the office move."
    )
    assert ops(r) == ["create_event"] and intents(r)[0]["start"][:16] == "2026-11-26T09:30"
    assert sorted(intents(r)[0]["attendees"]) == ["Max Weber", "Oleg Ivanov"]


# ---- who carries what ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("кто у нас перегружен", "Oleg Ivanov: 3"),
        ("who's sitting on the most issues?", "Max Weber: 3"),
        ("Сколько задач у каждого в Linear?", "не назначены: 2"),
        ("how many issues does each person have in ENG", "Max Weber: 2"),
    ],
)
async def test_open_issues_are_counted_per_person(anna: Conversation, text: str, said: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and ops(r) == []
    assert intents(r)[0]["aggregate"] == "count:assignee" and said in r["user_message"], r["user_message"]


async def test_a_client_model_may_ask_for_issues_per_person(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        text="who is overloaded in CS?",
        intents=[
            {"op": "find", "object": "issues", "filters": {"team": "CS"}, "aggregate": "count:assignee"}
        ],
    )
    assert r["status"] == "answered" and "Found: 4" in r["user_message"], r["user_message"]
