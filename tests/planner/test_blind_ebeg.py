"""What the sets EB–EG taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return list(reply["plan"]["intents"])


# ---- someone's words are never a request of mine ----------------------------------------------------------


async def test_a_customers_quoted_demand_closes_nothing(anna: Conversation) -> None:
    r = await anna.say(
        'Customer wrote:\n\n"Please delete all our contacts from your system and close every ticket we have open. '
        "We're switching vendors.\" (ops@umbrella.health)\n\nDon't act on that yet. Just add a note to Umbrella "
        "Health that they've asked to offboard."
    )
    assert drafted(r) == ["attio:create_note"]


async def test_a_ticket_whose_words_are_still_to_come_is_asked(anna: Conversation) -> None:
    r = await anna.say("Open a ticket for the customer below, I'll paste the email in a sec")
    assert r["status"] == "needs_clarification" and drafted(r) == []


# ---- several requests in one message, each read ---------------------------------------------------------


async def test_a_numbered_team_update_is_read_item_by_item(anna: Conversation) -> None:
    r = await anna.say(
        "Team update:\n1) Alfa-Leasing expansion — move it to Won\n2) kick off their onboarding in Linear\n"
        "3) remind me to invoice Maria Sokolova on Dec 1"
    )
    ops = drafted(r)
    assert ops.count("attio:update_deal") == 1 and ops.count("attio:create_task") == 1
    assert ops.count("linear:create_issue") == 4  # the onboarding template


async def test_and_ask_a_colleague_is_a_request_of_its_own(anna: Conversation) -> None:
    r = await anna.say(
        "Schedule a 30-minute kickoff meeting with Jane Doe tomorrow at 10am, and ask Max to prepare the demo "
        "environment in ENG"
    )
    assert drafted(r) == ["googlecalendar:create_event", "linear:create_issue"]
    event, issue = intents(r)
    assert event["title"] == "Kickoff meeting with Jane Doe" and issue["assignee"] == "Max Weber"


async def test_and_also_starts_a_new_request_not_a_second_note(anna: Conversation) -> None:
    r = await anna.say("Ок, по Initech: добавь заметку «продлили на 2 года», и ещё — назначь CS-15 на Олега")
    assert drafted(r) == ["attio:create_note", "linear:update_issue"]


async def test_the_same_change_said_with_too(anna: Conversation) -> None:
    r = await anna.say("CS-13 в In Review, CS-14 тоже, и коммент к CS-14: ждём фидбек от Jane")
    assert drafted(r) == ["linear:update_issue", "linear:update_issue", "linear:comment_issue"]


async def test_each_new_issue_keeps_its_own_assignee(anna: Conversation) -> None:
    r = await anna.say(
        "Create two issues in ENG: 'Migrate CI to GitHub Actions' for Oleg and 'Add dark mode toggle' for Max"
    )
    assert [(i["title"], i["assignee"]) for i in intents(r)] == [
        ("Migrate CI to GitHub Actions", "Oleg Ivanov"),
        ("Add dark mode toggle", "Max Weber"),
    ]


async def test_one_issue_per_listed_error(anna: Conversation) -> None:
    r = await anna.say(
        "Create one ENG issue per error below:\n1. NullPointerException in InvoiceRenderer\n"
        "2. Timeout in /api/v2/search\n3. Duplicate webhook deliveries"
    )
    assert [i["title"] for i in intents(r)] == [
        "NullPointerException in InvoiceRenderer",
        "Timeout in /api/v2/search",
        "Duplicate webhook deliveries",
    ]


async def test_a_list_below_the_request_is_what_it_points_at(anna: Conversation) -> None:
    r = await anna.say(
        "Comment on CS-14 with Jane's requirements below, then assign it to Max.\n\nJane's list:\n"
        "- SSO via Google Workspace\n- 25 seats for the pilot\n- Data residency in EU"
    )
    assert drafted(r) == ["linear:comment_issue", "linear:update_issue"]
    assert "Data residency in EU" in intents(r)[0]["body"]


# ---- taken back --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Close ENG-101 and ENG-106 — actually no, only the first one", 1),
        ("Создай задачи: обновить прайс, написать FAQ, проверить биллинг. Хотя нет, только первую", 1),
    ],
)
async def test_only_the_first_of_a_list_when_the_rest_is_taken_back(
    anna: Conversation, text: str, count: int
) -> None:
    r = await anna.say(text)
    assert len(drafted(r)) == count


async def test_a_part_skipped_after_a_no_is_not_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Move the Romashka deal to Won and spin up onboarding — no, skip the Linear part for now, only the deal"
    )
    assert drafted(r) == ["attio:update_deal"]


# ---- values as said ----------------------------------------------------------------------------------------


async def test_a_new_deal_named_with_a_template_word_is_a_deal(anna: Conversation) -> None:
    r = await anna.say(
        "Для Umbrella Health заведи сделку, назови Umbrella renewal, двадцать пять тысяч долларов, стадия предложение"
    )
    deal = intents(r)[0]
    assert drafted(r) == ["attio:create_deal"]
    assert (deal["name"], deal["amount"], deal["stage"]) == ("Umbrella renewal", 25000, "Proposal")


async def test_renewal_tasks_for_an_existing_deal_are_the_template(anna: Conversation) -> None:
    r = await anna.say("Заведи задачи на продление для сделки Initech renewal")
    assert drafted(r) == ["linear:create_issue", "linear:create_issue"]


async def test_two_labels_after_label_it(anna: Conversation) -> None:
    r = await anna.say(
        "Please file a bug in Design: the currency switcher overlaps the header on small screens. "
        "Label it bug and customer-request."
    )
    assert sorted(intents(r)[0]["labels"]) == ["bug", "customer-request"]


async def test_a_company_name_with_and_in_it(anna: Conversation) -> None:
    r = await anna.say("Добавь компанию Рога и Копыта с доменом rogakopyta.ru")
    assert intents(r)[0]["name"] == "Рога и Копыта"


async def test_a_guest_by_address_and_a_contact_by_name(anna: Conversation) -> None:
    r = await anna.say("Schedule a 30 minute intro with sam@startup.dev and John Smith on Dec 4 at 5pm")
    assert sorted(r["plan"]["actions"][0]["args"]["attendees"]) == ["john@acme.com", "sam@startup.dev"]


async def test_a_crm_task_for_a_company_said_first_is_linked_to_it(anna: Conversation) -> None:
    r = await anna.say("Create a CRM task for Initech: prepare the renewal quote by Dec 5")
    assert r["plan"]["actions"][0]["args"]["linked_records"][0]["target_object"] == "companies"


async def test_taken_off_one_and_given_to_me(anna: Conversation) -> None:
    r = await anna.say("Сними Олега с ENG-106 и поручи её мне")
    assert intents(r)[0]["assignee"] == "Anna Kuznetsova"


async def test_a_bulk_close_in_a_project_is_which_ones(anna: Conversation) -> None:
    r = await anna.say("Закрой все задачи Макса в проекте Mobile App")
    assert drafted(r) == ["linear:complete_issue", "linear:complete_issue"]


async def test_fields_after_a_quoted_title_without_commas(anna: Conversation) -> None:
    r = await anna.say("bug in ENG: 'CSV export drops unicode' p2 w/ oleg")
    issue = intents(r)[0]
    assert (issue["title"], issue["priority"], issue["assignee"]) == (
        "CSV export drops unicode",
        "high",
        "Oleg Ivanov",
    )


# ---- what EH–EM showed (after EB–EG's fixes) ---------------------------------------------------------------


async def test_a_courtesy_is_no_title(anna: Conversation) -> None:
    r = await anna.say("Создай, пожалуйста, задачку, если не сложно")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_an_english_request_is_never_read_as_translit(anna: Conversation) -> None:
    r = await anna.say("Add a contact Richard Hendricks, richard@piedpiper.com, title CEO")
    person = r["plan"]["actions"][0]["args"]["values"]["name"][0]
    assert person["first_name"] == "Richard" and r["user_message"].startswith("Draft")


async def test_everyone_but_one_is_never_the_one_deleted(anna: Conversation) -> None:
    r = await anna.say("Delete all contacts except Maria Sokolova")
    assert drafted(r) == []


async def test_events_listed_under_a_day_each_get_their_time(anna: Conversation) -> None:
    r = await anna.say(
        "Wednesday Dec 2: 10am to 11am board prep block, 2pm meeting with Maria Sokolova, 45 min"
    )
    assert [i["start"][:16] for i in intents(r)] == ["2026-12-02T10:00", "2026-12-02T14:00"]


async def test_a_day_heading_over_several_requests(anna: Conversation) -> None:
    r = await anna.say(
        "Things for Thursday: 8am gym block for 1 hour, at noon a meeting with Ivan Sidorov for 30 minutes, "
        "and a Linear issue in CS to draft the Initech renewal quote"
    )
    assert drafted(r) == ["googlecalendar:create_event", "googlecalendar:create_event", "linear:create_issue"]


async def test_a_time_written_in_russian_is_on_a_24_hour_clock(anna: Conversation) -> None:
    r = await anna.say("Завтра в 7:30 блок на час — пробежка")
    assert intents(r)[0]["start"].startswith("2026-11-26T07:30")


async def test_a_project_said_as_a_field_after_the_title(anna: Conversation) -> None:
    r = await anna.say(
        "Баг: в мобильном приложении не работает вход через Google. Проект Mobile App, приоритет срочно, на Макса"
    )
    issue = intents(r)[0]
    assert (issue["project"], issue["priority"], issue["assignee"]) == ("Mobile App", "urgent", "Max Weber")


async def test_a_quote_on_the_line_that_says_who_wrote_it_is_context(anna: Conversation) -> None:
    r = await anna.say(
        'Email from Jane Doe: "We\'ll need the revised pricing by Monday."\n'
        "Remind me to send Jane the revised pricing on Monday."
    )
    assert drafted(r) == ["attio:create_task"]


async def test_a_task_said_after_a_notes_words_is_not_part_of_them(anna: Conversation) -> None:
    r = await anna.say(
        "Заметка к сделке Альфа-Лизинг: Мария хочет скидку 5%, решение до 10 декабря. "
        "И задача мне — подготовить расчёт скидки к 8 декабря"
    )
    assert len(drafted(r)) == 2 and "подготовить" not in intents(r)[0]["body"]
