"""What the sets BE–BH taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def previews(reply: dict[str, Any]) -> str:
    return " ".join(a["preview"] for a in reply["plan"]["actions"] if not a["read_only"])


# ---- a list asked for, then a change to it --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "changed", "untouched"),
    [
        ("What's in review? close all of it", ["DES-7"], ["ENG-101", "CS-14"]),
        ("покажи что в ревью и закрой всё это", ["DES-7"], ["ENG-101"]),
        ("Что висит без исполнителя в CS? Отдай всё Олегу", ["CS-15"], ["ENG-103", "CS-12"]),
        ("what's unassigned? give all of it to Oleg", ["ENG-103", "CS-15"], ["ENG-101"]),
        ("что лежит в бэклоге у CS? перекинь в todo", ["CS-15"], ["ENG-103"]),
        ("Anything sitting in Backlog? archive it all", ["ENG-103", "CS-15"], ["ENG-101"]),
        ("What's due by Nov 30? Push all of those to Dec 4.", ["ENG-106", "CS-12"], ["ENG-104"]),
        (
            "what are the medium priority issues in CS and DES? assign them to Oleg",
            ["CS-14", "DES-7"],
            ["ENG"],
        ),
        (
            "какие задачи в проекте Mobile App? навесь на них лейбл customer-request",
            ["ENG-105", "DES-7"],
            ["CS-"],
        ),
    ],
)
async def test_a_change_to_what_was_just_listed_changes_exactly_the_listed_issues(
    anna: Conversation, text: str, changed: list[str], untouched: list[str]
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending", r["user_message"]
    assert [i["op"] for i in r["plan"]["intents"]][-1] == "update_matching"
    said = previews(r)
    assert len(drafted(r)) == len(changed)
    assert all(x in said for x in changed) and not any(x in said for x in untouched)


async def test_deals_listed_then_handed_over_keep_the_lists_owner_as_the_filter(anna: Conversation) -> None:
    r = await anna.say("покажи сделки Олега и переоформи их на меня")
    assert drafted(r) == ["attio:update_deal"] * 2
    assert "Acme Logistics" in previews(r) and "Альфа-Лизинг" in previews(r) and "Globex" not in previews(r)
    r = await anna.say("что у нас висит в лидах? двигай в квалификацию")
    assert drafted(r) == ["attio:update_deal"] and "Acme Logistics" in previews(r)
    r = await anna.say("Show all deals still in Lead or Qualification and move them to Proposal")
    assert drafted(r) == ["attio:update_deal"] * 2


async def test_someones_deals_given_to_me_are_theirs_not_everyones(anna: Conversation) -> None:
    r = await anna.say("все сделки Олега передай мне")  # it gave every deal to Oleg
    assert drafted(r) == ["attio:update_deal"] * 2
    assert "Anna Kuznetsova" in previews(r) and "Oleg" not in previews(r)


@pytest.mark.parametrize(
    "text",
    [
        "What's open for Globex in Linear? Assign those to Max.",  # the list left "Globex" out: too wide
        "Show me what's open for Acme and close it",  # "it" — one, and the list holds many
        "What's the Acme deal worth? Move it to Negotiation.",
    ],
)
async def test_a_list_wider_than_asked_or_many_things_for_one_it_are_never_changed(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_several_teams_listed_are_counted_each_by_name(anna: Conversation) -> None:
    r = await anna.say("how many open issues in ENG and CS?")
    assert r["user_message"].startswith("Engineering: Found: 6\nCustomer Success: Found: 4")


# ---- taken back, can't do, asked ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Переведи Globex в Won — а, нет, рано ещё. Просто добавь к сделке заметку: ждём подписи юристов",
            ["attio:create_note"],
        ),
        (
            "create an issue for the PDF export crash... actually it's already there. just comment on ENG-103: "
            "happens on Windows only",
            ["linear:comment_issue"],
        ),
        ("I changed my mind, don't create the PDF issue", []),
    ],
)
async def test_a_change_taken_back_in_the_same_message_is_not_drafted(
    anna: Conversation, text: str, kept: list[str]
) -> None:
    r = await anna.say(text)
    assert drafted(r) == kept


@pytest.mark.parametrize("text", ["add Peter to the Globex deal", "добавь Петра в сделку Globex"])
async def test_a_person_added_to_a_deal_is_answered_honestly_and_makes_no_new_deal(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered" and drafted(r) == []
    assert (
        "link a person to a deal" in r["user_message"] or "Привязать человека к сделке" in r["user_message"]
    )
    r = await anna.say("add a note to the Globex deal: budget ok")  # a note is still a note
    assert drafted(r) == ["attio:create_note"]


async def test_archiving_every_issue_with_nothing_but_the_kind_said_is_asked(anna: Conversation) -> None:
    r = await anna.say("удали все задачи")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await anna.say("ну давай архивируй вообще все задачи в линеаре")  # said as meant
    assert drafted(r) == ["linear:archive_issue"] * 11


async def test_or_not_at_the_end_asks_rather_than_changes(anna: Conversation) -> None:
    r = await anna.say("а глобекс уже подписал или нет")
    assert drafted(r) == []


@pytest.mark.parametrize(
    "text",
    [
        "the API docs ticket — push the deadline to end of next month",
        "срок ENG-104 — конец следующего месяца",
    ],
)
async def test_end_of_next_month_is_its_last_day(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert "2026-12-31" in str(r["plan"]["actions"])


# ---- fields said with their labels ---------------------------------------------------------------------------


async def test_a_new_issue_said_field_by_field_keeps_its_title_and_description(anna: Conversation) -> None:
    r = await anna.say(
        'Create a Linear issue in Engineering: title "Reconcile FX rates in invoice export", priority high, '
        "labels bug + customer-request, assignee Oleg Ivanov, due 2026-12-10, project Q1 Launch. Description: EUR "
        "invoices are rounded with yesterday's ECB rate; finance needs same-day rates."
    )
    [issue] = [i for i in r["plan"]["intents"] if i["op"] == "create_issue"]
    assert issue["title"] == "Reconcile FX rates in invoice export"
    assert issue["description"].startswith("EUR invoices are rounded") and issue["due"] == "2026-12-10"
    assert (
        issue["assignee"] == "Oleg Ivanov" and issue["project"] == "Q1 Launch" and issue["priority"] == "high"
    )
    r = await anna.say(
        "Создай в ENG задачу «Миграция cron-джобов на Temporal», описание: перенести 14 джобов, начиная с "
        "billing-sync; приоритет средний; проект Q1 Launch; срок — 18 декабря; исполнитель Олег Иванов."
    )
    [issue] = [i for i in r["plan"]["intents"] if i["op"] == "create_issue"]
    assert issue["title"] == "Миграция cron-джобов на Temporal"
    assert (
        issue["description"] == "перенести 14 джобов, начиная с billing-sync" and issue["due"] == "2026-12-18"
    )


async def test_a_note_said_with_a_title_and_a_body_keeps_both(anna: Conversation) -> None:
    r = await anna.say(
        "Add a note to the Acme Corp — annual license deal, title 'Pricing call 25 Nov', body: 'John asked for a "
        "3-year term with 8% discount; needs procurement sign-off by Dec 12.'"
    )
    [note] = r["plan"]["intents"]
    assert note["title"] == "Pricing call 25 Nov" and note["body"].startswith("John asked for a 3-year term")


@pytest.mark.parametrize(
    "text",
    [
        "Create an issue in ENG titled 'Add SAML logout' in project Identity 2.0, priority medium.",
        "issue in payments project: refund webhook retries",
    ],
)
async def test_a_project_nobody_has_is_asked_about_in_english_too(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and "couldn't find the project" in r["clarifying_question"]


# ---- several requests in one message ------------------------------------------------------------------------


async def test_a_numbered_list_after_a_sentence_is_one_request_an_item(anna: Conversation) -> None:
    r = await anna.say(
        "Acme Corp signed the annual license. 1) Move the deal to Won. 2) Add a note: 'Signed 25 Nov, 3-year "
        "term, invoicing quarterly'. 3) Create the onboarding tasks in Linear."
    )
    assert sorted(drafted(r)) == sorted(
        ["attio:update_deal", "attio:create_note"] + ["linear:create_issue"] * 4
    )


async def test_a_time_after_a_heading_does_not_glue_the_requests_together(anna: Conversation) -> None:
    r = await anna.say(
        "Для Ромашки: переведи сделку в Won, создай задачи онбординга и поставь kickoff-встречу с Иваном "
        "Петровым 2 декабря в 11:00 на час."
    )
    assert sorted(drafted(r)) == sorted(
        ["attio:update_deal", "googlecalendar:create_event"] + ["linear:create_issue"] * 4
    )


async def test_a_quoted_note_is_the_notes_words_and_a_name_in_it_is_no_record(anna: Conversation) -> None:
    r = await anna.say(
        "For the Globex pilot: set the amount to 32,000 USD, add a note 'Jane confirmed 40 seats', and schedule "
        "a 30-minute call with Jane on Dec 1 at 11:00."
    )
    [note] = [i for i in r["plan"]["intents"] if i["op"] == "create_note"]
    assert note["record"] == "Globex pilot" and note["body"] == "Jane confirmed 40 seats"


# ---- who, where and whose -------------------------------------------------------------------------------------


async def test_all_of_a_teams_issues_added_to_a_project_are_moved_there_not_made(anna: Conversation) -> None:
    r = await anna.say("Add all ENG issues to the Q1 Launch project")
    assert drafted(r) and set(drafted(r)) == {"linear:update_issue"}
    assert all("project Q1 Launch" in a["preview"] for a in r["plan"]["actions"] if not a["read_only"])


async def test_the_same_hand_over_said_again_with_too_covers_the_issue(anna: Conversation) -> None:
    r = await anna.say(
        "Initech: Max передаёт аккаунт мне — переназначь сделку Initech renewal на меня и CS-15 тоже на меня"
    )
    assert sorted(drafted(r)) == ["attio:update_deal", "linear:update_issue"]
    assert "CS-15" in previews(r) and "Anna Kuznetsova" in previews(r)


async def test_i_will_own_it_makes_me_the_new_deals_owner(anna: Conversation) -> None:
    r = await anna.say("open a deal for the Globex expansion, 120k USD, I'll own it")
    [deal] = r["plan"]["intents"]
    assert deal["owner"] == "Anna Kuznetsova" and deal["amount"] == 120000


async def test_whom_said_in_the_dative_before_the_todo_is_the_assignee(anna: Conversation) -> None:
    r = await anna.say("заведи задачу в линеар олегу проверить интеграцию с ромашкой к среде")
    [issue] = r["plan"]["intents"]
    assert issue["assignee"] == "Oleg Ivanov" and issue["title"] == "проверить интеграцию с ромашкой"


async def test_otpishi_is_a_comment_and_opisat_in_a_title_stays_as_written(anna: Conversation) -> None:
    r = await anna.say("закрой ENG-106 и отпиши там, что ключ ротирован")
    assert drafted(r) == ["linear:complete_issue", "linear:comment_issue"] and "«ключ ротирован»" in previews(
        r
    )
    r = await anna.say("Разбейте задачу ENG-104 на две подзадачи: «Описать эндпоинты», «Проверить changelog»")
    assert "«Описать эндпоинты»" in previews(r)  # no typo of «отпиши»


# ---- dictated -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "issue"),
    [
        ("эн джи сто три повесь на олега", "ENG-103"),
        ("эн джи сто шесть срок сдвинь на понедельник", "ENG-106"),
    ],
)
async def test_a_team_key_said_without_its_first_vowel_is_still_the_issue(
    anna: Conversation, text: str, issue: str
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"] and issue in previews(r)


@pytest.mark.parametrize(
    ("text", "record", "body"),
    [
        (
            "к марии соколовой заметку она в отпуске до первого декабря потом звонить",
            "Maria Sokolova",
            "она в отпуске до 1 декабря потом звонить",
        ),
        (
            "в альфу заметку мария просила договор ещё и на английском",
            "Альфа-Лизинг",
            "мария просила договор",
        ),
    ],
)
async def test_a_dictated_note_without_its_colon_is_a_note_on_the_record_named_first(
    anna: Conversation, text: str, record: str, body: str
) -> None:
    r = await anna.say(text)
    [note] = r["plan"]["intents"]
    assert note["record"] == record and note["body"].startswith(body)


async def test_a_records_fields_after_a_colon_are_one_change(anna: Conversation) -> None:
    r = await anna.say("globex pilot: owner max, amount 35k")
    assert drafted(r) == ["attio:update_deal"]
    assert "35\xa0000 USD" in previews(r) and "Max Weber" in previews(r)


async def test_a_colleague_said_alone_among_an_issues_fields_is_never_dropped(anna: Conversation) -> None:
    r = await anna.say("eng-103 -> todo, oleg, due mon")  # drafted without "oleg" before; asked in BE–BH
    assert drafted(r) == ["linear:update_issue"]  # (BI–BL: the colleague among the fields is the assignee)
    assert r["plan"]["intents"][0]["assignee"] == "Oleg Ivanov" and r["plan"]["intents"][0]["state"] == "Todo"
