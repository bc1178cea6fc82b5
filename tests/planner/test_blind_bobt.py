"""What the sets BO–BT taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in reply["plan"]["intents"] if i["op"] != "find"]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


# ---- what was told, then "log it" / "note that" on a record ---------------------------------------------


async def test_told_then_log_it_on_a_deal_notes_what_was_told_on_that_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Jane called — procurement approved the pilot extension. Log it on the Globex pilot deal."
    )
    (note,) = intents(r)
    assert note["op"] == "create_note" and note["record"] == "Globex pilot"
    assert "procurement approved the pilot extension" in note["body"]


async def test_note_that_on_a_record_then_a_reminder_are_two_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Li says the pilot's on hold until January. Note that on the Acme Logistics pilot and remind me on "
        "Jan 11 to ping her."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    note, task = sorted(intents(r), key=lambda i: i["op"])
    assert note["record"] == "Acme Logistics — pilot" and "on hold until January" in note["body"]
    assert task["content"] == "ping her" and task["deadline"].startswith("2027-01-11")


# ---- courtesy that is no condition ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Once you have a moment, please move ENG-105 to In Review and leave a comment that build 1.4.2 is ready.",
        "When you get a chance, move ENG-105 to In Review and leave a comment that build 1.4.2 is ready.",
    ],
)
async def test_when_it_suits_you_is_no_condition_and_drops_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"], r["user_message"]


# ---- a request said after why ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Слушай, CS-14 закрывай, требования собрали, а сделку Глобекса переводи в КП",
            ["attio:update_deal", "linear:complete_issue"],
        ),
        (
            "CS-13 передай Максу, Олег в отпуске, и срок поставь на четверг следующей недели",
            ["linear:update_issue"],
        ),
        (
            "CS-13 — закрыть, SSO настроили. Ромашкину сделку — в Won.",
            ["attio:update_deal", "linear:complete_issue"],
        ),
    ],
)
async def test_a_request_said_after_a_reason_is_read_not_dropped(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


async def test_the_due_date_said_after_a_reason_reaches_the_issue(anna: Conversation) -> None:
    r = await anna.say("CS-13 передай Максу, Олег в отпуске, и срок поставь на четверг следующей недели")
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("issue", "assignee", "due")}
    assert said == {"issue": "CS-13", "assignee": "Max Weber", "due": "2026-12-03"}
    assert drafted(r) == ["linear:update_issue"]  # one change of the issue, both fields in it


# ---- dates ----------------------------------------------------------------------------------------------


async def test_a_weekday_then_its_date_is_that_date(anna: Conversation) -> None:
    r = await anna.say("Please set the due date of ENG-102 to Friday, December 4th.")
    assert intents(r)[0]["due"] == "2026-12-04"


# ---- words that name nothing yet -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["закинь таску в DES", "Remind me next Tuesday"])
async def test_a_to_do_with_nothing_it_is_about_asks_for_its_title(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_task_for_someone_who_is_no_colleague_asks_whom(anna: Conversation) -> None:
    r = await anna.say("Поручи Пете позвонить Ивану Петрову завтра")
    assert r["status"] == "needs_clarification" and "Пете" in r["clarifying_question"]


# ---- a deal named in the sentence before -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["Globex pilot закрыли, переведи в Won", "Globex pilot закрыли, поставь Won"]
)
async def test_a_bare_stage_move_is_about_the_deal_just_named(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert intents(r) == [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won", **_said(r)}], r[
        "user_message"
    ]


async def test_a_company_two_deals_share_is_asked_not_carried_over(anna: Conversation) -> None:
    r = await anna.say("Acme wants to move forward — push the deal to Negotiation")
    assert r["status"] == "needs_clarification" and drafted(r) == []


def _said(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: reply["plan"]["intents"][0][k] for k in ("confidence", "span")}


# ---- whose deals, said as a possessive; and where they go without a verb ---------------------------------


async def test_a_possessive_of_a_first_name_is_the_owner(anna: Conversation) -> None:
    r = await anna.say("переведи все Олеговы сделки в won")
    (bulk,) = intents(r)
    assert bulk["op"] == "update_matching" and bulk["filters"]["owner"] == "Oleg Ivanov"
    assert sorted(a["preview"].split("«")[1].split("»")[0] for a in writes(r)) == [
        "Acme Logistics — pilot",
        "Альфа-Лизинг — расширение",
    ]


async def test_all_of_someones_deals_to_a_stage_needs_no_verb(anna: Conversation) -> None:
    r = await anna.say("все сделки Анны в переговоры")
    (bulk,) = intents(r)
    assert bulk["filters"]["owner"] == "Anna Kuznetsova"
    assert {a["args"]["values"]["stage"] for a in writes(r)} == {"Negotiation"}
    assert drafted(r) == ["attio:update_deal", "attio:update_deal"]  # the third is there already


# ---- lists and their fields -------------------------------------------------------------------------------


async def test_a_team_heading_then_a_counted_list_makes_one_issue_per_item(anna: Conversation) -> None:
    r = await anna.say(
        "DES: 7 new issues, one per icon: search, filter, export, share, upload, settings, help"
    )
    assert [i["title"] for i in intents(r)] == [
        "search",
        "filter",
        "export",
        "share",
        "upload",
        "settings",
        "help",
    ]


async def test_an_arrow_after_a_sub_issue_is_whose_it_is(anna: Conversation) -> None:
    r = await anna.say("sub-issue under ENG-105: android parity for push, -> max")
    (sub,) = intents(r)
    assert sub["title"] == "android parity for push" and sub["assignee"] == "Max Weber"


async def test_a_new_project_and_a_task_into_it_are_both_drafted(anna: Conversation) -> None:
    r = await anna.say("заведи проект Billing v2 в ENG и сразу таску туда: спроектировать схему инвойсов")
    assert sorted(drafted(r)) == ["linear:create_issue", "linear:create_project"]


async def test_the_ask_said_last_is_no_part_of_the_task(anna: Conversation) -> None:
    r = await anna.say("need to follow up with Li Wei next Wednesday re: pilot kickoff, add a task")
    assert drafted(r) == ["attio:create_task"]
    assert intents(r)[0]["content"] == "follow up with Li Wei re pilot kickoff"


# ---- a project manager's shorthand: arrows, slashes and pluses between requests --------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("CS-13 закрыть / ромашка → Won", ["attio:update_deal", "linear:complete_issue"]),
        (
            "сделка Globex → проиграна / заметка: ушли к конкуренту",
            ["attio:create_note", "attio:update_deal"],
        ),
        (
            "альфа-лизинг расширение → выиграна + онбординг в Linear",
            ["attio:update_deal"] + ["linear:create_issue"] * 4,
        ),
        (
            "Globex pilot → Won + заметка «пилот подписан» + CS: выдать доступы Globex, на меня",
            ["attio:create_note", "attio:update_deal", "linear:create_issue"],
        ),
        (
            "Ромашка подписала → Won; Ивану Петрову заметка «договор подписан 25.11»",
            ["attio:create_note", "attio:update_deal"],
        ),
    ],
)
async def test_each_request_of_a_shorthand_line_is_drafted(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


# ---- what is said, not asked --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Has Globex signed yet, what stage are they in?",
        "Bad news from Li Wei - Acme Logistics went with a competitor, price was the issue.",
        "Pull up ENG-106 for me",
    ],
)
async def test_news_a_question_or_a_look_up_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [], r["user_message"]


async def test_someone_wanting_it_done_by_a_date_does_not_close_it(anna: Conversation) -> None:
    r = await anna.say(
        "Initech wants the quarterly check-in done before the 10th. Give CS-15 to Oleg with a due date of December 9."
    )
    assert drafted(r) == ["linear:update_issue"]


async def test_a_recap_heading_is_no_call_to_make(anna: Conversation) -> None:
    r = await anna.say(
        "Recap of today's call with Ромашка: move the Ромашка deal to Negotiation, add a note 'asked for a 10% "
        "discount', and remind me to send the revised proposal on Monday."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task", "attio:update_deal"]


# ---- words kept as they were said ----------------------------------------------------------------------------


async def test_please_inside_quoted_words_stays_and_saying_is_no_part_of_them(anna: Conversation) -> None:
    r = await anna.say(
        "ENG-101 shipped in 2.4.1 - mark it done and drop a comment saying 'fixed in 2.4.1, please retest'"
    )
    comment = next(i for i in intents(r) if i["op"] == "comment_issue")
    assert comment["body"] == "fixed in 2.4.1, please retest"


async def test_and_inside_a_company_name_stays_in_it(anna: Conversation) -> None:
    r = await anna.say("Добавь в табличку новую компанию Рога и Копыта, сайт roga-kopyta.ru")
    assert intents(r)[0]["name"] == "Рога и Копыта"


async def test_a_company_and_a_person_card_from_it_are_both_made(anna: Conversation) -> None:
    r = await anna.say(
        "заведи новую компанию Север Логистик, сайт sever-log.ru, и карточку человека Андрей Морозов "
        "a.morozov@sever-log.ru оттуда же"
    )
    assert sorted(drafted(r)) == ["attio:create_company", "attio:create_person"]


async def test_this_in_a_comment_after_a_change_and_its_reason_is_the_reason(anna: Conversation) -> None:
    r = await anna.say(
        "ENG-105 срок сдвинь на двадцатое декабря, Apple задерживает ревью, и напиши это в комментарии"
    )
    comment = next(i for i in intents(r) if i["op"] == "comment_issue")
    assert comment["body"] == "Apple задерживает ревью"


async def test_a_field_left_as_it_is_does_not_decline_the_change(anna: Conversation) -> None:
    r = await anna.say("Слушай, ENG-106 переназначь на Макса, Олег заболел, срок оставь как есть")
    assert drafted(r) == ["linear:update_issue"] and intents(r)[0]["assignee"] == "Max Weber"


async def test_put_to_someone_in_the_dative_assigns_the_issue(anna: Conversation) -> None:
    r = await anna.say("Задачу про экспорт в PDF, ENG-103, поставь Олегу, приоритет высокий")
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("assignee", "priority")}
    assert said == {"assignee": "Oleg Ivanov", "priority": "high"}


# ---- where a task goes -----------------------------------------------------------------------------------


async def test_a_task_said_to_be_in_the_crm_is_an_attio_task(anna: Conversation) -> None:
    r = await anna.say(
        "задача для олега в crm подготовить коммерческое предложение для инитека к первому декабря"
    )
    (task,) = intents(r)
    assert task["op"] == "create_task" and task["assignee"] == "Oleg Ivanov"
    assert task["content"] == "подготовить коммерческое предложение для инитека"


async def test_an_issue_in_a_team_nobody_has_asks_which_team(anna: Conversation) -> None:
    r = await anna.say("create an issue in Marketing: refresh the pricing page")
    assert r["status"] == "needs_clarification" and "Marketing" in r["clarifying_question"]


async def test_pasted_items_then_one_issue_per_item_makes_each(anna: Conversation) -> None:
    r = await anna.say(
        "CI has been flaky all week, these keep failing:\n- test_import_large_csv\n- test_sso_redirect\n"
        "- test_pdf_export_unicode\n\nfile one ENG issue per test, label bug"
    )
    assert [i["title"] for i in intents(r)] == [
        "test_import_large_csv",
        "test_sso_redirect",
        "test_pdf_export_unicode",
    ]
    assert all(i["labels"] == ["bug"] for i in intents(r))


# ---- told, then asked, in English ------------------------------------------------------------------------


async def test_drop_a_note_saying_is_a_note_of_those_words(anna: Conversation) -> None:
    r = await anna.say(
        "Ivan Sidorov confirmed the renewal paperwork is done on their side. Drop a note on the Initech renewal "
        "deal saying PO number is 4471."
    )
    (note,) = intents(r)
    assert note["op"] == "create_note" and note["record"] == "Initech renewal"
    assert note["body"].startswith("PO number is 4471")


async def test_the_link_pasted_above_is_the_comment(anna: Conversation) -> None:
    r = await anna.say(
        "PR is up: https://github.com/northwind/app/pull/482 (APNs token refresh)\ndrop the link as a comment on ENG-105"
    )
    (comment,) = intents(r)
    assert comment["op"] == "comment_issue" and "https://github.com/northwind/app/pull/482" in comment["body"]


async def test_a_note_whose_words_say_pushed_moves_no_deal(anna: Conversation) -> None:
    r = await anna.say(
        "The Alfa deal is slipping, their CFO is on holiday. Put a note on the Alfa-Leasing expansion: decision "
        "pushed to January."
    )
    assert drafted(r) == ["attio:create_note"]


async def test_a_deal_updated_to_a_bare_sum_takes_that_amount(anna: Conversation) -> None:
    r = await anna.say(
        "Ran the numbers again with Li Wei, the pilot got bigger. Update the Acme Logistics pilot to 20000 and "
        "move it to Qualification."
    )
    (change,) = writes(r)
    assert change["args"]["values"] == {
        "stage": "Qualification",
        "value": {"currency_value": 20000, "currency_code": "USD"},
    }
    assert not r["user_message"].startswith("Li Wei is with")  # what the first sentence named is no answer


async def test_her_as_a_contact_is_the_person_named_before(anna: Conversation) -> None:
    r = await anna.say(
        "Met someone great at the conference today, Sarah Connor, she runs engineering on their side. Add her as a "
        "contact, email sarah@cyberdyne.io."
    )
    (person,) = intents(r)
    assert person["name"] == "Sarah Connor" and person["email"] == "sarah@cyberdyne.io"


async def test_a_deal_called_so_ends_where_its_sum_and_stage_begin(anna: Conversation) -> None:
    r = await anna.say(
        "Cyberdyne has a real budget, about 40k. Create the company Cyberdyne with domain cyberdyne.io and a deal "
        "called Cyberdyne pilot for 40k USD in Lead."
    )
    deal = next(i for i in intents(r) if i["op"] == "create_deal")
    assert deal["name"] == "Cyberdyne pilot" and deal["amount"] == 40000 and deal["stage"] == "Lead"


# ---- an issue's changes said one after another ----------------------------------------------------------


async def test_tag_it_puts_the_label_on_the_issue_just_commented(anna: Conversation) -> None:
    r = await anna.say(
        "Comment on ENG-105 that two more customers asked for iPad support, and tag it customer-request"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]


async def test_add_it_to_a_project_moves_the_issue_just_named(anna: Conversation) -> None:
    r = await anna.say("Set ENG-105 to urgent and add it to the Q1 Launch project")
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("priority", "project")}
    assert said == {"priority": "urgent", "project": "Q1 Launch"}


async def test_a_list_item_that_mentions_a_tag_is_only_a_title(anna: Conversation) -> None:
    r = await anna.say(
        "Create three tickets in CS: update the refund macro, audit SLA timers, clean up the tag list"
    )
    assert [i["title"] for i in intents(r)] == [
        "update the refund macro",
        "audit SLA timers",
        "clean up the tag list",
    ]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("DES: иконки для тёмной темы, Макс, до 4 дек", "иконки для тёмной темы"),
        ("ENG новая: rate limit для публичного API", "rate limit для публичного API"),
    ],
)
async def test_a_team_key_then_a_new_issue_in_shorthand(anna: Conversation, text: str, title: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:create_issue"] and intents(r)[0]["title"] == title


async def test_slashes_between_one_records_details_part_nothing(anna: Conversation) -> None:
    r = await anna.say("CS-12 → Макс / срок пт")
    assert drafted(r) == ["linear:update_issue"]
    said = {k: v for i in intents(r) for k, v in i.items() if k in ("assignee", "due")}
    assert said == {"assignee": "Max Weber", "due": "2026-11-27"}


# ---- dictated without punctuation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "minutes"),
    [
        (
            "блок на подготовку к совету директоров в понедельник с девяти до одиннадцати",
            "2026-11-30T09:00",
            120,
        ),
        ("встреча команды в четверг в шестнадцать ноль ноль на полтора часа", "2026-11-26T16:00", 90),
    ],
)
async def test_hours_said_as_words_are_the_time(
    anna: Conversation, text: str, start: str, minutes: int
) -> None:
    r = await anna.say(text)
    (event,) = intents(r)
    assert event["start"].startswith(start) and event["duration_minutes"] == minutes


async def test_issues_dictated_one_after_another_each_get_their_change(anna: Conversation) -> None:
    r = await anna.say("значит так ENG-101 на макса ENG-103 на олега а ENG-104 закрой")
    assert sorted((i["op"], i["issue"]) for i in intents(r)) == [
        ("complete_issue", "ENG-104"),
        ("update_issue", "ENG-101"),
        ("update_issue", "ENG-103"),
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Reassign whatever Oleg has in CS to me", 1),
        ("I'm off next week, so move all my CS issues over to Oleg", 2),
    ],
)
async def test_everything_someone_has_handed_over_in_everyday_words(
    anna: Conversation, text: str, count: int
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"] * count, r["user_message"]


async def test_an_issue_described_in_passing_is_not_filed_again(anna: Conversation) -> None:
    r = await anna.say(
        "Turns out the login timeout bug also leaks session tokens into the logs 😬 tag ENG-101 with security"
    )
    assert drafted(r) == ["linear:update_issue"]


async def test_a_note_after_a_told_sentence_and_an_issue_says_what_was_told(anna: Conversation) -> None:
    r = await anna.say(
        "Globex asked for a CSV export of audit logs. Log it as a customer-request issue in ENG and add a note to "
        "the Globex pilot deal."
    )
    issue = next(i for i in intents(r) if i["op"] == "create_issue")
    note = next(i for i in intents(r) if i["op"] == "create_note")
    assert issue["title"] == "Globex asked for a CSV export of audit logs"
    assert note["body"].startswith("Globex asked for a CSV export of audit logs")


# ---- what BU-BW taught ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Maybe we should move Alfa-Leasing to Lost? They've been silent for three weeks and Maria isn't answering.",
        "should we move Globex pilot to Won already? Jane said 'basically yes' but nothing is signed",
    ],
)
async def test_advice_asked_for_drafts_no_change(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [], r["user_message"]


async def test_make_me_owner_of_someones_deals_gives_me_theirs(anna: Conversation) -> None:
    r = await anna.say("make me owner on all of oleg's deals")
    (bulk,) = intents(r)
    assert bulk["filters"] == {"owner": "Oleg Ivanov"} and bulk["changes"] == {"owner": "Anna Kuznetsova"}
    assert drafted(r) == ["attio:update_deal", "attio:update_deal"]


async def test_my_issues_in_any_case_are_mine(anna: Conversation) -> None:
    r = await anna.say(
        "Перенесите, пожалуйста, срок по всем моим задачам в команде CS на следующий понедельник."
    )
    assert intents(r)[0]["filters"]["assignee"] == "me"
    assert drafted(r) == ["linear:update_issue"]  # the other of mine is due that Monday already


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "ENG-105 due dec 12 also comment: needs QA sign-off first",
            ["linear:comment_issue", "linear:update_issue"],
        ),
        ("mark ENG-101 done also comment: fixed in 4.2.1", ["linear:comment_issue", "linear:complete_issue"]),
        (
            "ENG-101, ENG-103 — коммент: фикс будет в релизе 2.4",
            ["linear:comment_issue", "linear:comment_issue"],
        ),
    ],
)
async def test_a_change_then_also_a_comment_drafts_both(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


async def test_a_template_asked_for_after_a_story_is_that_template(anna: Conversation) -> None:
    r = await anna.say(
        "I keep thinking about Initech — Max closed the renewal but we never did any of the renewal follow-ups. "
        "Run the renewal template for the Initech renewal deal."
    )
    assert drafted(r) == ["linear:create_issue", "linear:create_issue"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reassign CS-12 to Oleg, I can't make the Acme onboarding call on Monday.", ["linear:update_issue"]),
        ("Make Max the owner of the Acme Logistics pilot, Oleg is swamped with Alfa.", ["attio:update_deal"]),
    ],
)
async def test_why_said_after_a_hand_over_is_no_request_of_its_own(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert drafted(r) == expected, r["user_message"]


async def test_a_deal_amount_said_short_is_its_amount(anna: Conversation) -> None:
    r = await anna.say("globex pilot amt 35k")
    (change,) = writes(r)
    assert change["args"]["values"]["value"]["currency_value"] == 35000


async def test_a_team_key_in_lower_case_is_that_team(anna: Conversation) -> None:
    r = await anna.say("i'm covering eng this wk, assign all eng issues to me")
    (bulk,) = intents(r)
    assert bulk["filters"]["team"] == "Engineering" and bulk["changes"] == {"assignee": "Anna Kuznetsova"}


async def test_on_leave_is_away_and_no_note(anna: Conversation) -> None:
    r = await anna.say("I'm on parental leave from Monday (!!). Reassign all my deals to Max.")
    assert set(drafted(r)) == {"attio:update_deal"}
    assert intents(r)[0]["filters"] == {"owner": "me"}


# ---- a founder's stream of consciousness -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The Russian market is a rollercoaster, I swear. Maria from Alfa-Leasing reopened the pricing conversation "
            "out of nowhere, so I guess we're not as close as I thought. Move the Alfa-Leasing expansion deal back to "
            "Proposal. Oleg will be thrilled (not).",
            ["attio:update_deal"],
        ),
        (
            "So I spent the morning on support tickets, which I swore I'd stop doing. Acme complained about the login "
            "timeout again, second time this month, and honestly they're right to. Tag ENG-101 with customer-request "
            "so it shows up in the CS view. Then I went to lunch and ate way too much pasta. Anyway.",
            ["linear:update_issue"],
        ),
        (
            "I talked to Ivan Sidorov for an hour today, he's a character. Two things. Note on Ivan Sidorov: wants "
            "quarterly business reviews starting February. And give CS-15 a due date of December 10, we'll do the "
            "check-in then.",
            ["attio:create_note", "linear:update_issue"],
        ),
        (
            "random thoughts: the pricing page is confusing, our enterprise tier reads like a ransom note. anyway. "
            "close ENG-101, Oleg confirmed the login timeout fix is in prod. Close CS-14 as well, the Globex "
            "requirements are all collected.",
            ["linear:complete_issue", "linear:complete_issue"],
        ),
    ],
)
async def test_the_requests_buried_in_a_long_message_are_drafted_alone(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]
    assert not any(a["read_only"] for a in r["plan"]["actions"])  # the story is read, never a step


# ---- what BX-BZ taught ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "left_alone", "count"),
    [
        ("Всем сделкам Анны, кроме Ромашки, поставь стадию Negotiation", "Ромашка — внедрение", 1),
        ("All Negotiation deals → Proposal, except Globex", "Globex pilot", 1),
        ("Год закрываем: все сделки, кроме выигранных, переводи в Lost", "Initech renewal", 5),
    ],
)
async def test_a_deal_said_as_left_out_is_never_changed(
    anna: Conversation, text: str, left_alone: str, count: int
) -> None:
    r = await anna.say(text)
    assert len(writes(r)) == count and all(left_alone not in a["preview"] for a in writes(r))


async def test_what_to_leave_out_not_understood_is_asked(anna: Conversation) -> None:
    r = await anna.say("all deals to Lost except the blue ones")
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    "text",
    [
        "Quick question — if I close ENG-103, does the reporter get notified?",
        "Should ENG-101 be closed already? The fix was merged yesterday but I haven't retested it.",
    ],
)
async def test_nothing_wrong_is_drafted_for_a_question_or_an_exception(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == [] or r["status"] != "draft_pending", r["user_message"]


async def test_a_count_then_a_hand_over_of_them_except_one_is_drafted_right(anna: Conversation) -> None:
    # (once asked back rather than drafted wrong; stop 40 reads the list counted and the one left out)
    r = await anna.say("How many deals does Anna own? Hand them all to Max except Romashka.")
    assert drafted(r) == ["attio:update_deal"] * 2
    assert all("Ромашка" not in a["preview"] for a in writes(r))


async def test_an_issue_i_take_over_said_politely_is_assigned_to_me(anna: Conversation) -> None:
    r = await anna.say(
        "Добрый день! Задачу про настройку SSO для Ромашки я забираю себе, Олег в курсе. Переназначьте, пожалуйста, "
        "её на меня. Спасибо!"
    )
    assert [(i["op"], i["issue"], i["assignee"]) for i in r["plan"]["intents"]] == [
        ("update_issue", "CS-13", "Anna Kuznetsova")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "note on Maria Sokolova, she's on maternity leave from January. oh and um remind me on the 2nd to ask "
            "who replaces her",
            ["attio:create_note", "attio:create_task"],
        ),
        (
            "Заведи проект Billing v2 в ENG и сразу в нём задачу «Спроектировать схему БД» на Олега",
            ["linear:create_issue", "linear:create_project"],
        ),
    ],
)
async def test_a_second_request_after_oh_and_or_into_the_new_project(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    r = await anna.say(text)
    assert sorted(drafted(r)) == expected, r["user_message"]


async def test_an_issue_said_into_the_new_project_goes_there(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи проект Billing v2 в ENG и сразу в нём задачу «Спроектировать схему БД» на Олега"
    )
    issue = next(i for i in intents(r) if i["op"] == "create_issue")
    assert issue["project"] == "Billing v2" and issue["assignee"] == "Oleg Ivanov"


async def test_ask_who_is_the_task_itself(anna: Conversation) -> None:
    r = await anna.say("remind me on the 2nd to ask who replaces Maria Sokolova")
    assert intents(r)[0]["content"].startswith("ask who replaces")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "move the Acme Logistics pilot to qualification, no wait, no, straight to proposal",
            {"stage": "Proposal"},
        ),
        ("ENG-104 — до 3 декабря", {"due": "2026-12-03"}),
        (
            "sub-issue under eng-105: android parity, oleg",
            {"title": "android parity", "assignee": "Oleg Ivanov"},
        ),
    ],
)
async def test_a_value_said_the_short_way_lands_in_its_field(
    anna: Conversation, text: str, expected: dict[str, str]
) -> None:
    r = await anna.say(text)
    (one,) = intents(r)
    assert {k: one.get(k) for k in expected} == expected, r["user_message"]


async def test_a_reminder_for_someone_nobody_knows_asks_who(anna: Conversation) -> None:
    r = await anna.say("remind Sergey to send the NDA tomorrow")
    assert r["status"] == "needs_clarification" and "Sergey" in r["clarifying_question"]


async def test_russian_ordinal_markers_part_the_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Добрый день! Во-первых, добавьте, пожалуйста, к CS-13 комментарий: «Ромашка просит провести настройку SSO "
        "до 15 декабря». Во-вторых, поставьте по этой задаче срок 15 декабря. Спасибо!"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]


async def test_someones_colleague_is_the_new_contact_not_that_someone(anna: Conversation) -> None:
    r = await anna.say(
        "add John Smith's colleague Kate Morris to Acme Corp, kate.morris@acme.com, procurement manager"
    )
    (person,) = intents(r)
    assert person["name"] == "Kate Morris" and person["email"] == "kate.morris@acme.com"
