"""What the sets HB–HM taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; Oleg owns the Acme Logistics pilot and the Alfa-Leasing expansion, Globex pilot and Alfa-Leasing are in
Negotiation, ENG-103 and ENG-106 are urgent)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, ops, run, writes

pytestmark = pytest.mark.anyio


async def fresh(anna: Conversation, text: str) -> dict[str, Any]:
    """Said in a conversation of its own (no open question or draft from the test's other messages)."""
    return await Conversation(anna.client, conversation=text[:40]).say(text)


def labels(reply: dict[str, Any]) -> list[str]:
    return [str(c["label"]) for c in reply.get("choices") or []]


# ---- self-corrections: the value said last is the one drafted --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Change the Globex pilot amount to 35k... scratch that, 33k", {"amount": 33000.0}),
        ("set ENG-104 due to Friday — sorry, next Monday", {"due": "2026-11-30"}),
        ("set ENG-102 due date Thursday, scratch that, Friday", {"due": "2026-11-27"}),
        ("переведи Альфа-Лизинг в Won... хотя нет, пока в Proposal", {"stage": "Proposal"}),
        ("Сделку Альфа-Лизинга переведи в Won... а не, подожди, пока в Proposal", {"stage": "Proposal"}),
        (
            "Перенеси сделку Ромашки в переговоры. Ой, не, в квалификацию — они ещё не готовы",
            {"stage": "Qualification"},
        ),
    ],
)
async def test_the_value_said_after_a_take_back_is_the_one_drafted(
    anna: Conversation, text: str, want: dict[str, Any]
) -> None:
    r = await fresh(anna, text)
    (one,) = writes(r)
    assert r["status"] == "draft_pending" and want.items() <= one.items(), one


async def test_a_comment_keeps_its_words_when_the_issue_is_corrected(anna: Conversation) -> None:
    r = await fresh(anna, "Comment on ENG-101 'fixed on staging' — wait, I meant ENG-103")
    assert writes(r) == [{"op": "comment_issue", "issue": "ENG-103", "body": "fixed on staging"}]


async def test_a_note_moved_to_another_record_keeps_its_words(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "add a note to Maria Sokolova — actually no, put it on the Alfa-Leasing deal — they approved the budget",
    )
    (note,) = writes(r)
    assert note["record"] == "Альфа-Лизинг — расширение" and note["body"] == "they approved the budget"
    r = await fresh(anna, "заметку к Jane: ждёт договор, а нет, не к Jane, к компании Globex")
    assert writes(r) == [{"op": "create_note", "record": "Globex", "body": "ждёт договор"}]


async def test_keep_the_assignee_just_the_state_drafts_only_the_state(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-106 to In Review, and assign it to Max — no, keep Oleg, just the state")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-106", "state": "In Review"}]


@pytest.mark.parametrize(
    "text",
    [
        "Move Globex pilot to Won... actually no, hold on, don't change anything yet.",
        "Move Globex pilot to Won and create the onboarding tasks... wait, no, don't do anything yet, I'll confirm tomorrow",
        "I wanted to archive ENG-102 but never mind, Max is still working on it.",
        "Создай задачу обзвонить клиентов... а, нет, это уже Олег сделал, не надо",
        "Please create an issue for the broken signup email. Oh wait, Oleg just said he already filed one. Cancel that.",
    ],
)
async def test_a_message_taken_back_whole_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and drafted(r) == [] and r["draft"] is None


# ---- several requests in one message ----------------------------------------------------------------------------


async def test_a_quoted_comment_ends_where_its_quote_does(anna: Conversation) -> None:
    r = await fresh(anna, "Закрой ENG-101, коммент в ENG-105: «ждём ревью от Apple», и ENG-104 на Макса")
    assert ops(r) == ["complete_issue", "comment_issue", "update_issue"]
    assert writes(r)[1]["body"] == "ждём ревью от Apple" and writes(r)[2]["assignee"] == "Max Weber"
    r = await fresh(
        anna,
        "Romashka: comment CS-13 'IT sent SAML metadata', deal to Negotiation, note on Ivan Petrov 'very responsive'",
    )
    assert ops(r) == ["comment_issue", "update_deal", "create_note"]


async def test_a_note_ends_where_the_next_request_starts(anna: Conversation) -> None:
    r = await fresh(
        anna, "Globex pilot → Won, заметку к сделке: подписали годовой контракт, и онбординг в Linear запусти"
    )
    assert ops(r) == ["update_deal", "create_note", "apply_template"]
    assert writes(r)[1]["body"] == "подписали годовой контракт"
    r = await fresh(
        anna,
        "Initech renewal → owner Олег, заметка: Иван просит счёт в рублях, и задача Олегу в аттио — выставить счёт до пятницы",
    )
    assert ops(r) == ["update_deal", "create_note", "create_task"]


async def test_a_stand_up_pasted_becomes_each_line_s_change(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "standup 25/11, please update Linear:\noleg - ENG-101 is done; he takes ENG-103 and starts it (In Progress)\n"
        "max - add a comment on ENG-105: blocked by Apple review",
    )
    done = writes(r)
    eng103: dict[str, Any] = {}
    for w in done:
        if w.get("issue") == "ENG-103":
            eng103.update(w)
    assert done[0] == {"op": "complete_issue", "issue": "ENG-101"}
    assert eng103["assignee"] == "Oleg Ivanov" and eng103["state"] == "In Progress"
    assert done[-1] == {"op": "comment_issue", "issue": "ENG-105", "body": "blocked by Apple review"}


async def test_notes_pasted_then_saved_on_a_record_are_one_note(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Call notes — Acme Logistics, 25 Nov\n- Li Wei confirmed pilot scope: 3 warehouses\n- wants go-live before "
        "Dec 15\nPlease save this as a note on Acme Logistics.",
    )
    (note,) = writes(r)
    assert note["record"] == "Acme Logistics" and "3 warehouses" in note["body"] and "Dec 15" in note["body"]


async def test_a_reminder_about_them_after_a_deal_change_is_a_crm_task(anna: Conversation) -> None:
    r = await fresh(anna, "поставь сумму 36 тысяч по Globex и напомни мне в понедельник отправить им счёт")
    assert drafted(r) == ["attio:update_deal", "attio:create_task"]
    assert writes(r)[1]["deadline"].startswith("2026-11-30")


async def test_a_record_heading_then_bare_changes_are_of_that_deal(anna: Conversation) -> None:
    r = await fresh(
        anna, "Acme Corp license: bump to 60k, move to Proposal, note 'John asked for 3-year option'"
    )
    assert ops(r) == ["update_deal", "create_note"]
    assert writes(r)[0] == {
        "op": "update_deal",
        "deal": "Acme Corp — annual license",
        "stage": "Proposal",
        "amount": 60000.0,
    }
    r = await fresh(anna, "Won: Acme Logistics pilot. Kick off onboarding.")
    assert ops(r) == ["update_deal", "apply_template"]


async def test_a_company_then_a_deal_for_it_are_both_made(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "new company: Stark Industries, stark.com. Then a deal 'Stark POC' for them, 8000 USD, stage Lead",
    )
    assert drafted(r) == ["attio:create_company", "attio:create_deal"]
    assert writes(r)[1]["name"] == "Stark POC" and writes(r)[1]["company"] == "Stark Industries"
    r = await fresh(
        anna, "Create company Hooli with domain hooli.xyz and a Lead deal 'Hooli pilot' for 20000 USD"
    )
    assert drafted(r) == ["attio:create_company", "attio:create_deal"]


async def test_what_the_person_will_do_later_is_not_drafted(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Создай компанию Северсталь-Инфо, домен severstal-info.ru — нашёл их на выставке, потом заведу сделку",
    )
    assert drafted(r) == ["attio:create_company"]


async def test_a_reason_said_after_the_request_changes_nothing(anna: Conversation) -> None:
    r = await fresh(anna, "add the onboarding tasks for Acme Corp, they signed the annual license")
    assert "attio:update_deal" not in drafted(r)
    r = await fresh(anna, "Set ENG-106 due date to tomorrow, security wants it closed asap")
    assert drafted(r) == ["linear:update_issue"]


# ---- records said by what they are, not by name -----------------------------------------------------------------


async def test_a_deal_said_by_its_owner_or_stage_is_asked_among_those_it_fits(anna: Conversation) -> None:
    r = await fresh(anna, "move Oleg's deal to Won")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert sorted(labels(r)) == ["Acme Logistics — pilot", "Альфа-Лизинг — расширение"]
    r = await fresh(anna, "add a 5% discount note to the deal in negotiation")
    assert sorted(labels(r)) == ["Globex pilot", "Альфа-Лизинг — расширение"]
    assert "ambiguous" in {x["kind"] for x in r["plan"]["risks"]}


async def test_the_urgent_issue_is_asked_among_the_urgent_ones(anna: Conversation) -> None:
    r = await fresh(anna, "give the urgent issue to Max")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    assert {c["value"] for c in r["choices"]} == {"ENG-103", "ENG-106"}


async def test_a_call_that_is_an_issue_in_brackets_moves_the_issue(anna: Conversation) -> None:
    r = await fresh(anna, "перенеси созвон с Acme (CS-12) на 2 декабря")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-12", "due": "2026-12-02"}]


async def test_a_task_on_a_record_is_on_the_company_not_its_deal(anna: Conversation) -> None:
    r = await fresh(anna, "Set a task on the Globex record for Oleg: prepare pilot pricing by December 2")
    (task,) = writes(r)
    assert task["record"] == "Globex" and task["assignee"] == "Oleg Ivanov"


# ---- bulk: filters said differently ------------------------------------------------------------------------------


async def test_every_issue_that_lacks_one_is_the_ones_without_a_due_date(anna: Conversation) -> None:
    r = await fresh(anna, "Set a due date of Dec 10 on every CS issue that doesn't have one")
    (one,) = writes(r)
    assert one["filters"] == {"team": "Customer Success", "due": "none"} and one["changes"] == {
        "due": "2026-12-10"
    }


async def test_everything_except_an_issue_said_by_its_title_leaves_that_one(anna: Conversation) -> None:
    r = await fresh(anna, "Close out everything in CS except the Initech check-in")
    (one,) = writes(r)
    assert one["filters"]["exclude"] == ["CS-15"] and len(drafted(r)) == 3


async def test_a_label_taken_off_is_removed_never_added(anna: Conversation) -> None:
    r = await fresh(anna, "take the onboarding label off every issue that has it")
    assert writes(r)[0]["changes"] == {"labels_remove": ["onboarding"]}
    r = await fresh(anna, "take the bug label off ENG-101")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-101", "labels_remove": ["bug"]}]


async def test_which_records_first_then_what_to_do(anna: Conversation) -> None:
    r = await fresh(anna, "Every deal in Lead or Qualification: move to Proposal")
    assert [w["filters"] for w in writes(r)] == [{"stage": "Lead"}, {"stage": "Qualification"}]
    r = await fresh(anna, "Give every unassigned issue to Max and set them to Todo")
    assert writes(r)[0]["changes"] == {"assignee": "Max Weber", "state": "Todo"}
    r = await fresh(anna, "Все сделки в рублях переведи на Макса")
    assert writes(r)[0]["filters"] == {"currency": "RUB"} and len(drafted(r)) == 2


async def test_a_note_on_every_company_said_so_is_one_on_each(anna: Conversation) -> None:
    r = await fresh(anna, "ко всем компаниям в CRM добавь заметку: проверено в ходе аудита CRM 25.11")
    assert drafted(r).count("attio:create_note") == 7 and "bulk" in {x["kind"] for x in r["plan"]["risks"]}


# ---- reads ----------------------------------------------------------------------------------------------------------


async def test_a_count_and_a_total_in_one_currency_count_every_deal(anna: Conversation) -> None:
    r = await fresh(anna, "How many deals do I own, and what's the total in USD?")
    assert (
        r["status"] == "answered" and "Found: 3" in r["user_message"] and "80\xa0000 USD" in r["user_message"]
    )


async def test_issues_asked_by_a_label_are_found_by_it(anna: Conversation) -> None:
    r = await fresh(anna, "какие задачи помечены как customer-request?")
    assert "CS-13" in r["user_message"] and "CS-14" in r["user_message"]
    r = await fresh(anna, "Есть ли у нас задачи по безопасности?")
    assert "ENG-106" in r["user_message"]


async def test_two_deals_compared_are_both_shown(anna: Conversation) -> None:
    r = await fresh(anna, "Is the Globex pilot bigger than the Initech renewal?")
    assert (
        r["status"] == "answered"
        and "30\xa0000 USD" in r["user_message"]
        and "18\xa0000 USD" in r["user_message"]
    )


# ---- typed in a hurry ------------------------------------------------------------------------------------------------


async def test_slips_of_the_keyboard_keep_the_comment_s_words(anna: Conversation) -> None:
    r = await fresh(anna, "comemnt on ENG-104: docs draft is in the wiki, pls review")
    assert writes(r) == [
        {"op": "comment_issue", "issue": "ENG-104", "body": "docs draft is in the wiki, pls review"}
    ]
    r = await fresh(anna, "перевиди сделку альфа лизинг в стадию праиграна")
    assert writes(r) == [{"op": "update_deal", "deal": "Альфа-Лизинг — расширение", "stage": "Lost"}]


async def test_a_count_of_issues_in_a_team_is_no_issue_id(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Создай в ENG 6 задач по релизу: changelog, миграции, фича-флаги, smoke-тесты, rollback план, анонс",
    )
    assert drafted(r) == ["linear:create_issue"] * 6
    r = await fresh(anna, "Open six issues in Engineering: users, orders, files, audit, comments, webhooks")
    assert drafted(r) == ["linear:create_issue"] * 6


async def test_a_new_field_value_for_a_record_s_card_updates_it(anna: Conversation) -> None:
    r = await fresh(anna, "у Umbrella Health новый домен umbrellahealth.com, добавь в карточку компании")
    assert drafted(r) == ["attio:update_record"]
    r = await fresh(anna, "John Smith — email поменялся на john.smith@acme.com")
    assert writes(r)[0]["values"] == {"email_addresses": "john.smith@acme.com"}


async def test_a_crm_task_for_someone_with_nothing_to_do_is_asked(anna: Conversation) -> None:
    r = await anna.say("Создай задачу в CRM для Олега")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await anna.call(
        "pick",
        plan_id=r["plan"]["plan_id"],
        question_id=r["question_id"],
        text="подготовить договор для Globex",
    )
    assert drafted(r) == ["attio:create_task"]
    await run(anna, r)
