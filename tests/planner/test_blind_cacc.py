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


# ---- CD–CF: whose, what was pasted, what "that" is ----------------------------------------------------------


async def test_her_issues_with_no_her_asks_instead_of_changing_every_issue(anna: Conversation) -> None:
    r = await anna.say("close all her issues")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_who_is_away_said_first_is_whose_issues_move(anna: Conversation) -> None:
    r = await anna.say("Oleg is out sick, reassign all his open issues to Max")
    previews = [a["preview"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert len(previews) == 3 and all("Oleg Ivanov → Max Weber" in p for p in previews)
    assert sorted(p.split("«")[0].split()[-1] for p in previews) == ["CS-13", "ENG-101", "ENG-106"]


async def test_every_deal_i_own_is_mine_only(anna: Conversation) -> None:
    r = await anna.say("move every deal I own to Negotiation except Romashka")
    (change,) = [a for a in r["plan"]["actions"] if not a["read_only"]]
    assert "Acme Corp — annual license" in change["preview"] and "Negotiation" in change["preview"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Заметка по Ивану Сидорову — предпочитает созвоны по вторникам", ["attio:create_note"]),
        ("Would be great to have an issue for the flaky checkout test in ENG", ["linear:create_issue"]),
        ("ENG-101 в ревью переведи", ["linear:update_issue"]),
        ("make me the assignee on everything that's unassigned", ["linear:update_issue"] * 2),
        ("ENG-105 закрываем, коммент: выкатили в стор", ["linear:comment_issue", "linear:complete_issue"]),
        (
            "could you please set up an ENG issue for the Safari 18 date picker bug, due Friday, and block 30 min on my "
            "calendar tomorrow at 12:00 to look at it",
            ["googlecalendar:create_event", "linear:create_issue"],
        ),
    ],
)
async def test_requests_said_the_way_people_say_them(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    assert sorted(drafted(await anna.say(text))) == expected


@pytest.mark.parametrize("text", ["удали Acme", "создай задачу в лин", "Заведи задачу в линейре"])
async def test_a_bare_company_or_a_bare_new_issue_asks(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_pasted_email_logged_moves_no_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Pasting from Jane's email: \"Hi Anna, legal signed off on the pilot terms. We'd like to start the rollout on "
        'Dec 7. Could you share the final SOW?"\nlog this on Globex and remind me Friday to send her the SOW'
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]
    assert "legal signed off" in one(r, "create_note")["body"]


async def test_the_ask_first_then_the_pasted_text_is_noted(anna: Conversation) -> None:
    r = await anna.say(
        "Текст письма ниже, просто залогируй на Globex pilot:\n\n"
        "Jane: we reviewed the pricing, 30k is fine but we need net-60 payment terms."
    )
    note = one(r, "create_note")
    assert note["record"] == "Globex pilot" and "net-60 payment terms" in note["body"]


async def test_a_comment_saying_that_says_what_was_said_and_the_move_is_kept(anna: Conversation) -> None:
    r = await anna.say(
        "Can't repro ENG-101 on v2.3 anymore — add a comment saying that and move it to In Review"
    )
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]
    assert one(r, "comment_issue")["body"] == "Can't repro ENG-101 on v2.3 anymore"


async def test_a_quoted_comment_is_never_cut_at_its_comma(anna: Conversation) -> None:
    r = await anna.say(
        'comment on CS-12 "call rescheduled, John is travelling" and push its due date to Wednesday next week'
    )
    assert one(r, "comment_issue")["body"] == "call rescheduled, John is travelling"
    assert one(r, "update_issue")["due"] == "2026-12-02"


async def test_add_that_as_a_note_notes_the_reason(anna: Conversation) -> None:
    r = await anna.say(
        "Acme Logistics pilot is lost, they went with a competitor — mark it and add that as a note"
    )
    assert one(r, "update_deal")["stage"] == "Lost"
    assert one(r, "create_note")["body"] == "they went with a competitor"


async def test_log_a_note_with_that_notes_the_sentences_before(anna: Conversation) -> None:
    r = await anna.say(
        "Had a long call with Maria from Alfa-Leasing today. Budget for the expansion is approved but procurement "
        "wants 5% off. Please log a note on the Alfa-Leasing expansion deal with that, and set a CRM task for me to "
        "send the revised quote by Monday."
    )
    assert "5% off" in one(r, "create_note")["body"]
    assert one(r, "create_task")["content"] == "send the revised quote"


async def test_the_role_said_before_now_is_the_new_title(anna: Conversation) -> None:
    r = await anna.say("Li Wei got promoted, he's CEO now — update his job title")
    assert one(r, "update_record")["values"]["job_title"] == "CEO"


async def test_a_bug_report_then_its_fields_is_a_new_issue_not_a_change(anna: Conversation) -> None:
    r = await anna.say(
        "Umbrella Health: login page is blank in Firefox ESR. bug, ENG, assign Max, due tomorrow"
    )
    issue = one(r, "create_issue")
    assert (
        drafted(r) == ["linear:create_issue"]
        and issue["team"] == "Engineering"
        and issue["assignee"] == "Max Weber"
    )
    assert "Firefox ESR" in issue["title"]


async def test_a_number_in_a_new_deals_name_stays_in_it(anna: Conversation) -> None:
    deal = one(await anna.say("new deal Globex phase 2, 45k USD, proposal stage"), "create_deal")
    assert (deal["name"], deal["amount"], deal["stage"]) == ("Globex phase 2", 45_000, "Proposal")


async def test_his_deals_and_his_issues_said_after_who_is_leaving_are_his(anna: Conversation) -> None:
    r = await anna.say(
        "Oleg is leaving us at the end of the month. All his deals go to Anna, all his Linear issues to Max."
    )
    previews = [a["preview"] for a in r["plan"]["actions"] if not a["read_only"]]
    deals = [p for p in previews if p.startswith("Attio")]
    issues = [p for p in previews if p.startswith("Linear")]
    assert len(deals) == 2 and all("Anna Kuznetsova" in p for p in deals)
    assert len(issues) == 3 and all("Oleg Ivanov → Max Weber" in p for p in issues)


async def test_everything_he_has_open_is_his_not_everyones(anna: Conversation) -> None:
    r = await anna.say(
        "Oleg is out for two weeks starting tomorrow. Reassign everything he has open in Linear to Max."
    )
    previews = [a["preview"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert len(previews) == 3 and all("Oleg Ivanov → Max Weber" in p for p in previews)


async def test_his_deals_with_no_one_named_ask(anna: Conversation) -> None:
    r = await anna.say("give all his deals to Anna")
    assert r["status"] == "needs_clarification" and drafted(r) == []


@pytest.mark.parametrize(
    ("text", "team", "assignee", "title"),
    [
        (
            "I need an issue tracked for Initech's SCIM provisioning request — put it in CS, Oleg owns it",
            "Customer Success",
            "Oleg Ivanov",
            "Initech's SCIM provisioning request",
        ),
        (
            "таска в лин: обновить шаблон NDA, на меня, в CS, к 7 декабря",
            "Customer Success",
            "Anna Kuznetsova",
            "обновить шаблон NDA",
        ),
    ],
)
async def test_a_team_and_an_owner_said_among_a_new_issues_fields(
    anna: Conversation, text: str, team: str, assignee: str, title: str
) -> None:
    issue = one(await anna.say(text), "create_issue")
    assert (issue["team"], issue["assignee"], issue["title"]) == (team, assignee, title)


async def test_a_deal_on_me_and_to_a_stage_changes_both(anna: Conversation) -> None:
    deal = one(await anna.say("acme logistics пилот на меня и в стадию кп"), "update_deal")
    assert deal["stage"] == "Proposal" and deal["owner"] == "Anna Kuznetsova"


async def test_quoted_words_keep_their_courtesy(anna: Conversation) -> None:
    r = await anna.say(
        "Pasting from Jane's email: \"We'd like to start the rollout on Dec 7. Could you share the final SOW?\"\n"
        "log this on Globex"
    )
    assert "Could you share the final SOW?" in one(r, "create_note")["body"]


# ---- CG–CH ------------------------------------------------------------------------------------------------------


async def test_a_new_deal_in_a_stage_nobody_has_asks_which_stage(anna: Conversation) -> None:
    r = await anna.say("Create a deal for Globex in stage Discovery, 10k")
    assert r["status"] == "needs_clarification" and "Discovery" in r["user_message"] and drafted(r) == []


async def test_sorry_no_takes_back_the_assignee(anna: Conversation) -> None:
    r = await anna.say("assign ENG-103 to Max - sorry, no, to Oleg, Max is out next week")
    assert one(r, "update_issue")["assignee"] == "Oleg Ivanov"


async def test_a_new_team_in_linear_is_answered_not_filed(anna: Conversation) -> None:
    r = await anna.say("Создайте в Linear новую команду QA.")
    assert r["status"] == "answered" and drafted(r) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("поставь срок на пятницу задаче про экспорт", ["linear:update_issue"]),
        ("ENG-102 понизить до low", ["linear:update_issue"]),
        (
            "По итогам планирования: ENG-101 и ENG-105 — в In Review, ENG-102 — на Олега, DES-7 — закрыть.",
            ["linear:complete_issue"] + ["linear:update_issue"] * 3,
        ),
    ],
)
async def test_changes_said_to_existing_issues_change_them(
    anna: Conversation, text: str, expected: list[str]
) -> None:
    assert sorted(drafted(await anna.say(text))) == expected


async def test_a_due_date_set_on_an_issue_named_by_words_makes_no_new_issue(anna: Conversation) -> None:
    r = await anna.say("Поставьте срок на пятницу задаче про API.")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_each_issue_listed_under_due_dates_gets_its_own_day(anna: Conversation) -> None:
    r = await anna.say(
        "Прошу зафиксировать сроки:\n— ENG-101: 2 декабря;\n— ENG-102: 9 декабря;\n— ENG-103: 16 декабря."
    )
    days = {i["issue"]: i["due"] for i in intents(r) if i["op"] == "update_issue"}
    assert days == {"ENG-101": "2026-12-02", "ENG-102": "2026-12-09", "ENG-103": "2026-12-16"}


async def test_a_description_said_next_is_the_new_issues(anna: Conversation) -> None:
    r = await anna.say(
        "Создайте задачу в ENG «Оптимизировать запросы к отчётам». Описание: после релиза 2.3 отчёт по сделкам "
        "строится больше 30 секунд."
    )
    issue = one(r, "create_issue")
    assert issue["title"] == "Оптимизировать запросы к отчётам" and "30 секунд" in issue["description"]


async def test_told_then_a_new_issue_keeps_the_told_out_of_its_title(anna: Conversation) -> None:
    r = await anna.say(
        "Globex is asking for a sandbox environment. Make an ENG issue Provision sandbox for Globex pilot, assigned to "
        "Oleg with the customer-request label, and comment on CS-14 that the sandbox is being provisioned"
    )
    issue = one(r, "create_issue")
    assert issue["title"] == "Provision sandbox for Globex pilot" and issue["labels"] == ["customer-request"]
    assert issue["assignee"] == "Oleg Ivanov" and one(r, "comment_issue")["issue"] == "CS-14"


async def test_also_put_a_note_is_a_request_not_a_reason(anna: Conversation) -> None:
    r = await anna.say(
        "Create an ENG issue with the security label for the questionnaire, due Dec 5, assign Oleg. "
        "Also put a note on the Globex pilot deal about it."
    )
    assert sorted(drafted(r)) == ["attio:create_note", "linear:create_issue"]
    assert "with the" not in one(r, "create_issue")["title"]


# ---- CI–CK ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "assignee"),
    [
        ("Have Max follow up with Jane Doe on Friday about the pilot pricing", "Max Weber"),
        ("tell Max to call Jane Doe tomorrow, she's waiting on the revised quote", "Max Weber"),
        ("Max needs a reminder to send Umbrella Health the security questionnaire on Monday", "Max Weber"),
    ],
)
async def test_a_colleague_asked_to_do_something_gets_the_task(
    anna: Conversation, text: str, assignee: str
) -> None:
    assert one(await anna.say(text), "create_task")["assignee"] == assignee


async def test_mentions_are_whom_an_issue_goes_to(anna: Conversation) -> None:
    r = await anna.say("triage pass: ENG-103 -> @max + in progress; CS-15 -> @oleg; ENG-104 due dec 11")
    by_issue = {i["issue"]: i for i in intents(r) if i["op"] == "update_issue"}
    assert by_issue["ENG-103"]["assignee"] == "Max Weber" and by_issue["ENG-103"]["state"] == "In Progress"
    assert by_issue["CS-15"]["assignee"] == "Oleg Ivanov" and "state" not in by_issue["CS-15"]
    assert by_issue["ENG-104"]["due"] == "2026-12-11"


async def test_at_me_is_the_one_asking(anna: Conversation) -> None:
    issue = one(
        await anna.say("new issue: update SDK changelog for 3.4, docs label, @me, due dec 5"), "create_issue"
    )
    assert issue["assignee"] == "Anna Kuznetsova" and issue["title"] == "update SDK changelog for 3.4"


async def test_a_plus_inside_a_quoted_title_stays(anna: Conversation) -> None:
    r = await anna.say("rename ENG-102 to 'login + signup page redesign'")
    assert one(r, "update_issue")["title"] == "login + signup page redesign"


async def test_a_team_key_nobody_has_is_asked_never_a_default(anna: Conversation) -> None:
    r = await anna.say("new issue in OPS: rotate grafana creds")
    assert r["status"] == "needs_clarification" and "OPS" in r["user_message"] and drafted(r) == []


async def test_p1_is_a_priority_not_a_title(anna: Conversation) -> None:
    issue = one(await anna.say("new ENG issue fix login p1"), "create_issue")
    assert issue["title"] == "fix login" and issue["priority"] == "urgent"
    r = await anna.say("new ENG issue p1 @max")
    assert r["status"] == "needs_clarification" and drafted(r) == []
