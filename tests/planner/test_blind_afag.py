"""What the sets AF and AG (and the last incomplete drafts of AD) taught, one behaviour each, through the
MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, writes

pytestmark = pytest.mark.anyio


async def test_an_english_name_said_the_russian_way_finds_its_record(anna: Conversation) -> None:
    r = await anna.say("поставь задачу олегу в срм подготовить кп для вектор плюс нет для амбреллы к пятнице")
    assert r["status"] == "draft_pending"
    [task] = writes(r)
    assert (task["op"], task["record"], task["assignee"]) == ("create_task", "Umbrella Health", "Oleg Ivanov")
    assert task["deadline"].startswith("2026-11-27")


async def test_a_project_name_heard_in_russian_is_the_project(anna: Conversation) -> None:
    r = await anna.say("добавь задачу в проект вебсайт редизайн: обновить футер")
    assert [(i["title"], i["project"]) for i in writes(r)] == [("обновить футер", "Website Redesign")]


async def test_a_project_said_after_the_title_in_a_follow_up_is_the_new_issues(anna: Conversation) -> None:
    r = await anna.say(
        "Create a task in Design and assign it to me: «Обновить логотип в Mobile App», project Mobile App, due December 4."
    )
    [issue] = writes(r)
    assert (issue["team"], issue["project"], issue["due"]) == ("Design", "Mobile App", "2026-12-04")
    assert issue["title"].startswith("Обновить логотип")


async def test_a_project_nobody_has_in_a_follow_up_is_asked_about_not_dropped(anna: Conversation) -> None:
    r = await anna.say("create an issue in ENG: fix the login, and assign it to Oleg, project Zebra")
    assert r["status"] == "needs_clarification"
    assert "Zebra" in r["user_message"]


async def test_what_to_do_said_before_make_a_task_then_a_call_in_the_calendar_are_two_requests(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "позвонить джейн доу завтра поставь задачу и в календарь созвон с ней в двенадцать на пятнадцать минут"
    )
    assert r["status"] == "draft_pending"
    task, event = writes(r)
    assert (task["op"], task["content"], task["record"]) == ("create_task", "позвонить джейн доу", "Jane Doe")
    assert task["deadline"].startswith("2026-11-26")
    # the time said in the second request is on the day said in the first; "with her" is Jane
    assert (event["op"], event["start"], event["duration_minutes"]) == (
        "create_event",
        "2026-11-26T12:00:00+03:00",
        15,
    )
    assert event["attendees"] == ["Jane Doe"] and "Jane Doe" in event["title"]


async def test_the_same_typed_in_english(anna: Conversation) -> None:
    r = await anna.say(
        "create a task to call Jane Doe tomorrow and in the calendar a call with her at noon for 15 minutes"
    )
    assert [i["op"] for i in writes(r)] == ["create_task", "create_event"]
    assert writes(r)[1]["start"] == "2026-11-26T12:00:00+03:00"


async def test_an_owner_said_with_let_it_be_is_the_new_deals_owner(anna: Conversation) -> None:
    r = await anna.say(
        "создай сделку амбрелла хелс на сто двадцать тысяч долларов стадия лид ответственный пусть будет макс"
    )
    [deal] = writes(r)
    assert (deal["company"], deal["amount"], deal["stage"], deal["owner"]) == (
        "Umbrella Health",
        120000.0,
        "Lead",
        "Max Weber",
    )


async def test_a_message_for_another_messenger_is_answered_honestly_not_drafted(anna: Conversation) -> None:
    for text in ("slack #sales: globex signed 🎉", "post to #sales that globex signed"):
        r = await anna.say(text)
        assert (r["status"], r["draft"]) == ("needs_clarification", None)
        assert "messages" in r["user_message"]


async def test_issues_for_a_projects_checklist_go_into_that_project(anna: Conversation) -> None:
    r = await anna.say("create issues in ENG for the Q1 Launch checklist: load test, pen test")
    assert [(i["title"], i["project"]) for i in writes(r)] == [
        ("load test", "Q1 Launch"),
        ("pen test", "Q1 Launch"),
    ]


async def test_a_weekday_said_with_its_date_is_that_date(anna: Conversation) -> None:
    r = await anna.say(
        "Good morning. Max asked me to create an issue for the Design team about refreshing the pricing page "
        "illustrations, due Friday, 4 December."
    )
    [issue] = writes(r)
    assert (issue["title"], issue["team"], issue["due"]) == (
        "refreshing the pricing page illustrations",
        "Design",
        "2026-12-04",
    )


async def test_asked_to_find_out_is_a_question_answered(anna: Conversation) -> None:
    r = await anna.say("Олег просил узнать, есть ли у нас открытые баги без исполнителя.")
    assert (r["status"], r["draft"]) == ("answered", None)
    assert "ENG-103" in r["user_message"]


@pytest.mark.parametrize(
    "text",
    [
        "I wonder whether we ought to close the Globex pilot as lost. Let me check with Anna first.",
        "ENG-105 на Олега? или на Анну... хз, потом решу",
    ],
)
async def test_a_choice_not_made_yet_is_asked_about_not_drafted(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert (r["status"], r["draft"]) == ("needs_clarification", None)


async def test_a_new_deal_keeps_the_company_words_it_was_named_with(anna: Conversation) -> None:
    r = await anna.say(
        "после демо с Umbrella Health: заведи deal Umbrella rollout на 60k, stage Qualification, owner Макс"
    )
    [deal] = writes(r)
    assert (deal["name"], deal["company"], deal["amount"], deal["owner"]) == (
        "Umbrella rollout",
        "Umbrella Health",
        60000.0,
        "Max Weber",
    )


async def test_a_note_then_a_task_on_this_deal_are_both_the_deals(anna: Conversation) -> None:
    r = await anna.say(
        "по Ромашке: note к сделке — просят скидку 15%; и поставь мне таск по этой сделке: пересчитать цены до понедельника"
    )
    note, task = writes(r)
    assert (note["op"], note["record"], note["body"]) == (
        "create_note",
        "Ромашка — внедрение",
        "просят скидку 15%",
    )
    assert (task["op"], task["record"], task["content"]) == (
        "create_task",
        "Ромашка — внедрение",
        "пересчитать цены",
    )


async def test_a_task_on_this_deal_said_first_asks_which_deal(anna: Conversation) -> None:
    r = await anna.say("поставь мне таск по этой сделке: пересчитать цены до понедельника")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert any(c["label"] == "Globex pilot" for c in r["choices"])
    r = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], text="Globex pilot"
    )
    [task] = writes(r)
    assert (task["op"], task["record"]) == ("create_task", "Globex pilot")


async def test_move_to_won_and_start_onboarding_in_the_imperfective(anna: Conversation) -> None:
    r = await anna.say("Jane подтвердила budget!! move Globex pilot в Won и запускай onboarding")
    ops = [i["op"] for i in writes(r)]
    assert ops[0] == "update_deal" and "apply_template" in ops


async def test_a_field_named_before_its_verb_after_a_comment_is_a_change_of_its_own(
    anna: Conversation,
) -> None:
    r = await anna.say("ENG-105 коммент: TestFlight билд залит, ждем ревью; и due сдвинь на 18 дек")
    comment, update = writes(r)
    assert comment["body"] == "TestFlight билд залит, ждем ревью"
    assert (update["op"], update["issue"], update["due"]) == ("update_issue", "ENG-105", "2026-12-18")


async def test_a_note_on_a_company_after_a_stage_change_is_drafted_too(anna: Conversation) -> None:
    r = await anna.say(
        "Globex: сделку в Lost, Jane сказала бюджет зарезали. и note к компании Globex: бюджет зарезали до Q2"
    )
    assert [(i["op"], i.get("stage"), i.get("record")) for i in writes(r)] == [
        ("update_deal", "Lost", None),
        ("create_note", None, "Globex"),
    ]


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        (
            "короче в CS создай 2 issue: 'Initech: usage review' и 'Initech: renewal quote', оба на меня, due 8 дек",
            ["Initech: usage review", "Initech: renewal quote"],
        ),
        (
            "Please create two issues in the Design team: one for the new app icon and one for the splash screen "
            "animation, both assigned to Max Weber.",
            ["new app icon", "splash screen animation"],
        ),
        (
            "2 issues for DES: 'empty state illustrations' and 'dark mode tokens'",
            ["empty state illustrations", "dark mode tokens"],
        ),
    ],
)
async def test_a_counted_list_is_one_issue_per_item_and_what_is_said_of_all_is_no_item(
    anna: Conversation, text: str, titles: list[str]
) -> None:
    r = await anna.say(text)
    assert [i["title"] for i in writes(r)] == titles


async def test_a_change_taken_back_mid_sentence_is_answered_not_drafted(anna: Conversation) -> None:
    r = await anna.say("перенеси глобекс в выиграна а хотя нет стоп не надо пока подождем до понедельника")
    assert (r["status"], r["ok"], r["draft"]) == ("answered", True, None)


async def test_not_thursday_but_friday_said_without_a_comma_corrects_the_day(anna: Conversation) -> None:
    r = await anna.say("созвон с ромашкой в четверг ой нет не в четверг а в пятницу в три часа дня на час")
    [event] = writes(r)
    assert event["start"] == "2026-11-27T15:00:00+03:00" and "четверг" not in event["title"]


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        (
            "move acme corp deal to negotiation and bump it to 55k",
            {"stage": "Negotiation", "amount": 55000.0},
        ),
        (
            "в CS-12 приоритет поставь низкий и перекинь на олега",
            {"priority": "low", "assignee": "Oleg Ivanov"},
        ),
        ("move ENG-104 to in review and make it urgent", {"state": "In Review", "priority": "urgent"}),
    ],
)
async def test_a_second_change_of_the_record_just_changed_amends_that_change(
    anna: Conversation, text: str, changed: dict[str, Any]
) -> None:
    r = await anna.say(text)
    [change] = writes(r)
    assert {k: change.get(k) for k in changed} == changed


async def test_that_s_it_after_a_signing_is_no_change_to_everything(anna: Conversation) -> None:
    r = await anna.say("ну короче глобекс подписали всё переводи сделку глобекс пилот в выигранные")
    assert [(i["op"], i["deal"], i["stage"]) for i in writes(r)] == [("update_deal", "Globex pilot", "Won")]


async def test_a_team_key_said_aloud_names_the_issue(anna: Conversation) -> None:
    r = await anna.say("инг сто три назначь на олега")
    assert [(i["issue"], i["assignee"]) for i in writes(r)] == [("ENG-103", "Oleg Ivanov")]


async def test_a_note_to_someone_with_its_words_and_no_verb_is_drafted(anna: Conversation) -> None:
    r = await anna.say("ивану петрову заметку что он в отпуске до восьмого декабря")
    [note] = writes(r)
    assert (note["record"], note["body"]) == ("Ivan Petrov", "он в отпуске до 8 декабря")


async def test_a_priority_where_a_state_would_be_is_the_new_priority(anna: Conversation) -> None:
    r = await anna.say("all urgent issues -> high")
    [bulk] = writes(r)
    assert (bulk["op"], bulk["filters"].get("priority"), bulk["changes"]) == (
        "update_matching",
        "urgent",
        {"priority": "high"},
    )


async def test_the_x_one_names_an_issue_and_two_matches_are_asked_about(anna: Conversation) -> None:
    r = await anna.say("close the login one")
    assert r["status"] == "needs_clarification"
    assert {"ENG-101", "ENG-102"} <= {c["value"] for c in r["choices"]} | {
        c["label"].split()[0] for c in r["choices"]
    }
    r = await anna.say("close the acme one")  # a company's name: maybe a deal, so nothing is guessed
    assert (r["status"], r["draft"]) == ("needs_clarification", None)


async def test_being_away_is_why_though_it_names_a_day(anna: Conversation) -> None:
    r = await anna.say("move all of oleg's issues to max, he's ooo next week")
    [bulk] = writes(r)
    assert (bulk["op"], bulk["changes"]) == ("update_matching", {"assignee": "Max Weber"})


async def test_my_cal_is_my_calendar(anna: Conversation) -> None:
    r = await anna.say("what's on my cal fri")
    assert r["status"] == "answered"
    assert [i["object"] for i in r["plan"]["intents"]] == ["events"]


# ---- sets AH and AI -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "ENG-101 закрыть. хотя нет, пусть висит",
        "Переведи CS-13 в работу... хотя нет, отбой, Олег ещё даже не начинал",
    ],
)
async def test_a_request_taken_back_whole_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert (r["status"], r["draft"]) == ("answered", None)


async def test_a_reason_in_the_middle_does_not_swallow_the_request_after_it(anna: Conversation) -> None:
    r = await anna.say(
        "Set the due date on ENG-106 to tomorrow, it's a security issue, and make Max the assignee"
    )
    [change] = writes(r)
    assert (change["issue"], change["due"], change["assignee"]) == ("ENG-106", "2026-11-26", "Max Weber")
    r = await anna.say(
        "Закрой CS-13 — SSO у Ромашки заработал — и напиши в коммент «клиент подтвердил вход через SSO»"
    )
    assert [(i["op"], i.get("body")) for i in writes(r)] == [
        ("complete_issue", None),
        ("comment_issue", "клиент подтвердил вход через SSO"),
    ]


async def test_put_it_in_todo_is_the_state_not_a_to_do(anna: Conversation) -> None:
    r = await anna.say(
        "Initech check-in, CS-15, bump it to high priority and put it in Todo, I want it moving"
    )
    said = {
        k: v for i in writes(r) if i["op"] == "update_issue" and i["issue"] == "CS-15" for k, v in i.items()
    }
    assert (said["priority"], said["state"]) == ("high", "Todo")
    assert "Todo" in r["user_message"]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("On romashka, bump the deal to one point three million rubles", 1_300_000.0),
        ("Move the Acme Corp license deal to Proposal, and the amount is now fifty five thousand", 55_000.0),
        ("ромашка сумма 1.5 млн", 1_500_000.0),
        ("Acme Corp license deal: the amount is 55k now", 55_000.0),
    ],
)
async def test_an_amount_said_in_words_or_bare_is_the_deals_new_amount(
    anna: Conversation, text: str, amount: float
) -> None:
    r = await anna.say(text)
    assert [i["amount"] for i in writes(r) if i["op"] == "update_deal"] == [amount]


async def test_a_dash_inside_a_single_quoted_name_keeps_the_name_whole(anna: Conversation) -> None:
    r = await anna.say(
        "Initech wants the design system add-on 🙌 new deal 'Initech — design system add-on', 24k USD, Max owns it, "
        "stage Proposal"
    )
    [deal] = writes(r)
    assert (deal["name"], deal["amount"], deal["owner"], deal["stage"]) == (
        "Initech — design system add-on",
        24000.0,
        "Max Weber",
        "Proposal",
    )


async def test_the_deal_a_shared_word_said_before_names_is_asked_among_all_that_share_it(
    anna: Conversation,
) -> None:
    r = await anna.say("Те, что с пилотом, подписались!! Двигай сделку в Won")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    labels = " | ".join(c["label"] for c in r["choices"])
    assert "Globex pilot" in labels and "Acme Logistics — pilot" in labels


async def test_a_label_said_in_the_other_script_filters_a_bulk_change(anna: Conversation) -> None:
    r = await anna.say("все онбординг-задачи CS закрыть")
    [bulk] = writes(r)
    assert bulk["filters"]["label"] == "onboarding" and bulk["changes"] == {"complete": True}


@pytest.mark.parametrize(
    ("text", "issue", "assignee"),
    [
        ("Linear: олегу — поднять демо-стенд для альфы, до пт", None, "Oleg Ivanov"),
        ("енг-101 максу", "ENG-101", "Max Weber"),
        (
            "Макс со следующей недели в отпуске: DES-7 передай Олегу, а ENG-105 — мне",
            "ENG-105",
            "Anna Kuznetsova",
        ),
    ],
)
async def test_to_whom_said_in_the_dative_with_no_verb_is_the_assignee(
    anna: Conversation, text: str, issue: str | None, assignee: str
) -> None:
    r = await anna.say(text)
    found = [
        i for i in writes(r) if i.get("assignee") == assignee and (issue is None or i.get("issue") == issue)
    ]
    assert found, writes(r)


async def test_a_meeting_word_then_a_name_invites_that_person(anna: Conversation) -> None:
    r = await anna.say("созвон джон пт 11:00 30м")
    [event] = writes(r)
    assert (event["attendees"], event["start"], event["duration_minutes"]) == (
        ["John Smith"],
        "2026-11-27T11:00:00+03:00",
        30,
    )


async def test_a_task_after_the_call_is_about_the_person_met(anna: Conversation) -> None:
    r = await anna.say(
        "Schedule a meeting with John Smith on Monday at eleven for an hour, and add a task for me to send the "
        "proposal after the call"
    )
    event, task = writes(r)
    assert (event["op"], task["op"], task["record"]) == ("create_event", "create_task", "John Smith")


async def test_an_amount_after_a_note_on_a_company_changes_its_one_deal(anna: Conversation) -> None:
    r = await anna.say("глобекс: заметка — Джейн просит скидку 10%; сумма 27к")
    note, deal = writes(r)
    assert (note["body"], deal["deal"], deal["amount"]) == (
        "Джейн просит скидку 10%",
        "Globex pilot",
        27000.0,
    )


async def test_what_the_person_is_starting_after_an_emoji_is_no_due_date(anna: Conversation) -> None:
    r = await anna.say("hey! can you move ENG-102 to In Progress pls 🙌 starting the login redesign today")
    [change] = writes(r)
    assert change == {"op": "update_issue", "issue": "ENG-102", "state": "In Progress"}


async def test_a_title_pointing_back_carries_what_was_said_as_its_description(anna: Conversation) -> None:
    r = await anna.say(
        "Context: Ivan Sidorov from Initech complained that our SSO setup docs are outdated. Please open an issue in "
        "ENG to refresh them, label it docs, assign it to me and make it due Dec 4."
    )
    [issue] = writes(r)
    assert issue["labels"] == ["docs"] and "SSO setup docs" in issue["description"]
    assert "SSO setup docs" in r["user_message"]  # the person sees what will be written


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ENG-101 в review, ENG-106 done", [("update_issue", "ENG-101"), ("complete_issue", "ENG-106")]),
        ("move ENG-101, ENG-102 to done", [("complete_issue", "ENG-101"), ("complete_issue", "ENG-102")]),
        ("закрой ENG-101, ENG-102 в ревью", [("complete_issue", "ENG-101"), ("update_issue", "ENG-102")]),
    ],
)
async def test_issues_listed_with_their_own_changes_or_sharing_one(
    anna: Conversation, text: str, expected: list[tuple[str, str]]
) -> None:
    r = await anna.say(text)
    assert [(i["op"], i["issue"]) for i in writes(r)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ENG-102 → in progress\nENG-103 → todo", [("ENG-102", "In Progress"), ("ENG-103", "Todo")]),
        ("Тикет про краш при экспорте в PDF переведи в работу", [("ENG-103", "In Progress")]),
    ],
)
async def test_the_state_said_last_is_where_the_issue_goes(
    anna: Conversation, text: str, expected: list[tuple[str, str]]
) -> None:
    r = await anna.say(text)
    assert [(i["issue"], i["state"]) for i in writes(r)] == expected


async def test_making_an_issue_urgent_changes_it_and_never_makes_one(anna: Conversation) -> None:
    for text in (
        "make the push notifications issue urgent",
        "can you make the push notifications one urgent",
    ):
        r = await anna.say(text)
        assert [(i["op"], i["issue"], i["priority"]) for i in writes(r)] == [
            ("update_issue", "ENG-105", "urgent")
        ]


async def test_a_comment_on_the_issue_described_is_on_it(anna: Conversation) -> None:
    r = await anna.say("add a comment on the push notifications one: new icons are in Figma, page 3")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [("comment_issue", "ENG-105")]
    r = await anna.say("Закинь коммент в тикет про onboarding: клиент доволен, всё ок")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)  # two onboarding issues: which one
    assert not [i for i in (r["plan"] or {}).get("intents") or [] if i["op"] == "create_issue"]


async def test_a_task_assigned_right_after_it_is_set_goes_to_that_colleague(anna: Conversation) -> None:
    r = await anna.say(
        "Напомни в пятницу отправить КП по сделке Альфа-Лизинг — расширение, задачу повесь на Олега"
    )
    [task] = writes(r)
    assert (task["op"], task["assignee"]) == ("create_task", "Oleg Ivanov")


async def test_a_deadline_on_the_task_about_something_is_never_a_new_task(anna: Conversation) -> None:
    r = await anna.say("Поставь срок по задаче про чекин с Initech на 15 декабря и назначь её на Макса.")
    assert not [
        i for i in (r["plan"] or {}).get("intents") or [] if i["op"] in ("create_task", "create_issue")
    ]


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("add up all the deals for me", "2 000 000 RUB"),
        ("Remind me, what does Oleg's book add up to, all his deals combined?", "12 000 USD"),
        ("общий пайплайн в долларах сколько", "92 000 USD"),
    ],
)
async def test_a_total_asked_in_other_words_is_summed(anna: Conversation, text: str, total: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered"
    assert total in r["user_message"].replace("\xa0", " ")


# ---- sets AJ and AK ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Please fix the priority on the login issue, make it urgent. Sorry, I don't remember the number.",
        "удали всё по акме",
    ],
)
async def test_a_change_of_an_issue_described_vaguely_never_makes_or_picks_one(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert (r["status"], r["draft"]) == ("needs_clarification", None)


@pytest.mark.parametrize(
    "text",
    [
        "ну может глобекс в кп вернуть... хотя нет, давай подождём до понедельника",
        "Close ENG-101. Actually no, scratch that — Oleg is still verifying",
    ],
)
async def test_taken_back_with_a_wait_or_a_dash_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert (r["status"], r["draft"]) == ("answered", None)


async def test_a_change_said_whole_before_a_colon_is_not_undone_by_the_reason_after_it(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Прошу перевести ENG-101 на ревью: исправление таймаута готово, Олег открыл pull request."
    )
    assert [(i["op"], i.get("state")) for i in writes(r)] == [("update_issue", "In Review")]
    r = await anna.say("прокомментируй ENG-101: фикс готов")  # a comment's words stay its words
    assert [(i["op"], i.get("body")) for i in writes(r)] == [("comment_issue", "фикс готов")]


async def test_a_comment_keeps_its_dash_and_code(anna: Conversation) -> None:
    text = (
        "Comment on ENG-106: rotation didn't take — `GET /v1/me` with the old staging key still returns 200"
    )
    r = await anna.say(text)
    [comment] = writes(r)
    assert comment["body"].endswith("still returns 200") and "`GET /v1/me`" in comment["body"]


async def test_a_quoted_title_keeps_every_word_and_a_preamble_is_read_past(anna: Conversation) -> None:
    r = await anna.say("Create a DES issue 'Empty states for the team screen', assign Max, due Dec 4")
    assert [i["title"] for i in writes(r)] == ["Empty states for the team screen"]
    r = await anna.say(
        "I'm so sorry, I need to log this one: please create an issue for Customer Success, 'Initech asks for SSO "
        "audit log export', label customer-request, due Friday"
    )
    [issue] = writes(r)
    assert (issue["title"], issue["team"], issue["labels"]) == (
        "Initech asks for SSO audit log export",
        "Customer Success",
        ["customer-request"],
    )


async def test_someone_added_to_my_calendar_is_invited_and_the_title_said_is_kept(anna: Conversation) -> None:
    r = await anna.say(
        "Please add Jane Doe to my calendar on Thursday at 11:30 for 30 minutes, title 'Globex pilot check-in'."
    )
    [event] = writes(r)
    assert (event["title"], event["attendees"], event["start"]) == (
        "Globex pilot check-in",
        ["Jane Doe"],
        "2026-11-26T11:30:00+03:00",
    )


async def test_slang_millions_and_a_spelled_out_email(anna: Conversation) -> None:
    r = await anna.say(
        "новая сделка с инитеком — расширение на полтора ляма рублей, стадия квалификация, ответственный Макс"
    )
    [deal] = writes(r)
    assert (deal["amount"], deal["currency"], deal["name"]) == (1_500_000.0, "RUB", "Initech расширение")
    r = await anna.say("у Марии Соколовой новая почта: maria точка sokolova собака alfaleasing точка ru")
    assert "maria.sokolova@alfaleasing.ru" in str(writes(r))


async def test_a_sub_issues_assignee_said_after_its_title_is_drafted_and_shown(anna: Conversation) -> None:
    r = await anna.say("Sub-issue for ENG-106: 'Invalidate the old key in Vault'. Assign to Oleg")
    [sub] = writes(r)
    assert (sub["title"], sub["parent"], sub["assignee"]) == (
        "Invalidate the old key in Vault",
        "ENG-106",
        "Oleg Ivanov",
    )
    assert "Oleg Ivanov" in r["user_message"]


async def test_a_number_of_issues_read_differently_is_said_back_and_the_list_asked_for(
    anna: Conversation,
) -> None:
    r = await anna.say("create 3 issues in ENG: fix login, update docs")
    assert (r["status"], r["draft"]) == ("needs_clarification", None)
    assert "3" in r["user_message"] and "fix login" in r["user_message"]
    r = await anna.call(
        "pick",
        plan_id=r["plan"]["plan_id"],
        question_id=r["question_id"],
        text="fix login, update docs, rotate keys",
    )
    assert [i["title"] for i in writes(r)] == ["fix login", "update docs", "rotate keys"]


async def test_issues_listed_before_what_is_true_of_them_share_it(anna: Conversation) -> None:
    r = await anna.say("CS-14 и DES-7 закрой")
    assert [(i["op"], i["issue"]) for i in writes(r)] == [
        ("complete_issue", "CS-14"),
        ("complete_issue", "DES-7"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Move DES-7 back to In Progress — contrast fails WCAG AA on the permissions screen",
            ("DES-7", "state"),
        ),
        (
            "Add the security label to ENG-101 — the timeout path leaks the session token into the URL",
            ("ENG-101", "labels_add"),
        ),
    ],
)
async def test_a_change_said_whole_then_why_after_a_dash(
    anna: Conversation, text: str, expected: tuple[str, str]
) -> None:
    r = await anna.say(text)
    [change] = writes(r)
    assert change["issue"] == expected[0] and expected[1] in change


async def test_thousands_said_short_in_russian(anna: Conversation) -> None:
    r = await anna.say("глобекс пилот — сумму поправь на тридцать пять к")
    assert [(i["deal"], i["amount"]) for i in writes(r)] == [("Globex pilot", 35000.0)]


async def test_an_assignment_said_after_a_change_already_made_is_still_drafted(anna: Conversation) -> None:
    # ENG-103 is already urgent: that part is said back, the assignment is the change
    r = await anna.say("ENG-103: set priority to p0 and assign it to me")
    assert r["status"] == "draft_pending"
    assert [a["operation"] for a in r["plan"]["actions"] if not a["read_only"]] == ["update_issue"]
    assert "Anna Kuznetsova" in r["user_message"] and "already urgent" in r["user_message"]
