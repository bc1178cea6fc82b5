"""What the sets DV–EA taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, run

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return list(reply["plan"]["intents"])


# ---- a change asked as a yes/no question is asked back, never drafted (DESIGN §5a) ---------------------------


@pytest.mark.parametrize(
    "text",
    ["Can you move Globex pilot to Won?", "можешь закрыть ENG-105?", "Could you reassign ENG-101 to Max?"],
)
async def test_a_change_asked_as_a_question_is_asked_back_with_what_it_would_draft(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == [] and r["draft"] is None
    assert [c["value"] for c in r["choices"]] == ["yes", "no"]
    assert intents(r)  # what would be drafted is shown


async def test_yes_to_the_question_drafts_the_change_and_it_runs(anna: Conversation) -> None:
    asked = await anna.say("Can you move Globex pilot to Won?")
    r = await anna.call(
        "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], text="yes"
    )
    assert r["status"] == "draft_pending" and drafted(r) == ["attio:update_deal"]
    done = await run(anna, r)
    assert done["status"] == "executed"


async def test_no_to_the_question_changes_nothing(anna: Conversation) -> None:
    asked = await anna.say("можешь закрыть ENG-105?")
    r = await anna.call(
        "pick", plan_id=asked["plan"]["plan_id"], question_id=asked["question_id"], text="нет"
    )
    assert r["status"] in ("safe_fail", "cancelled") and r["draft"] is None


async def test_a_question_about_a_record_is_still_answered(anna: Conversation) -> None:
    r = await anna.say("Can you tell me who owns the Globex pilot?")
    assert r["status"] == "answered" and "Anna" in r["user_message"]


# ---- «не X, а Y»: the value said after «а» / "but" is the one ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Сделку с Ромашкой переведи не в Won, а в переговоры", "stage", "Negotiation"),
        ("Перенеси срок ENG-106 не на понедельник, а на вторник", "due", "2026-12-01"),
        ("assign ENG-104 not to Oleg but to Max", "assignee", "Max Weber"),
        ("Set up a 30-minute sync with Max on Monday at 11am — make that 11:30", "start", "2026-11-30T11:30"),
    ],
)
async def test_the_value_said_instead_is_the_one_drafted(
    anna: Conversation, text: str, field: str, value: str
) -> None:
    r = await anna.say(text)
    assert r["status"] == "draft_pending"
    assert str(intents(r)[0][field]).startswith(value)


async def test_a_marked_take_back_of_a_verb_keeps_what_it_was_said_of(anna: Conversation) -> None:
    r = await anna.say(
        "Закрой ENG-101… хотя нет, не закрывай, просто напиши в комментарии: ждём фикс от провайдера"
    )
    assert drafted(r) == ["linear:comment_issue"]
    assert (intents(r)[0]["issue"], intents(r)[0]["body"]) == ("ENG-101", "ждём фикс от провайдера")


# ---- an issue named by its whole title is that issue --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "op"),
    [
        (
            "Добавь в задачу Crash on export to PDF комментарий: падает на файлах больше 10 МБ",
            "comment_issue",
        ),
        ("поставь задаче Crash on export to PDF приоритет высокий", "update_issue"),
        ("Добавь в задачу Crash on export to PDF описание: падает на файлах больше 10 МБ", "update_issue"),
    ],
)
async def test_an_issue_named_by_its_title_after_a_word_for_an_issue(
    anna: Conversation, text: str, op: str
) -> None:
    r = await anna.say(text)
    assert [i["op"] for i in intents(r)] == [op] and intents(r)[0]["issue"] == "ENG-103"


async def test_a_whole_title_said_without_a_noun_names_the_issue(anna: Conversation) -> None:
    r = await anna.say("Move Mobile onboarding screens back to In Progress, design review found gaps")
    assert drafted(r) == ["linear:update_issue"] and intents(r)[0]["issue"] == "DES-7"
    r = await anna.say("When is 'Update API docs for v2' due?")
    assert r["status"] == "answered" and "2026-12-04" in r["user_message"]


@pytest.mark.parametrize(
    "text",
    [
        "ENG-104 title -> 'Update API docs for v2 and v3'",
        "создай задачу Crash on export to PDF в DES",
        "add a task for me to review the mobile onboarding screens by monday",
    ],
)
async def test_a_title_said_as_a_new_ones_words_is_no_reference(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    said = " ".join(str(i.get("title", "")) for i in intents(r))
    assert "ENG-103" not in said and "DES-7" not in said


# ---- a task for a colleague, however delegated -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "title", "assignee"),
    [
        ("Have Max write the release notes for v2.3", "write the release notes for v2.3", "Max Weber"),
        (
            "Пусть Олег обновит сертификаты на стейджинге до 1 декабря",
            "обновить сертификаты на стейджинге",
            "Oleg Ivanov",
        ),
        (
            "попроси Олега обновить сертификаты на стейджинге",
            "обновить сертификаты на стейджинге",
            "Oleg Ivanov",
        ),
    ],
)
async def test_a_colleague_asked_to_do_something_gets_an_issue(
    anna: Conversation, text: str, title: str, assignee: str
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:create_issue"]
    assert (intents(r)[0]["title"], intents(r)[0]["assignee"]) == (title, assignee)


async def test_a_team_said_after_a_dash_is_where_the_issue_goes(anna: Conversation) -> None:
    r = await anna.say("Ask Max to add dark mode to the settings screen — team Design, project Mobile App")
    issue = intents(r)[0]
    assert (issue["team"], issue["project"], issue["title"]) == (
        "Design",
        "Mobile App",
        "add dark mode to the settings screen",
    )


async def test_a_pointer_for_a_to_do_is_asked(anna: Conversation) -> None:
    r = await anna.say("Ask Max to take care of it")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_colleague_asked_in_the_crm_gets_a_crm_task(anna: Conversation) -> None:
    r = await anna.say(
        "Добавь заметку к Globex pilot: Jane ждёт обновлённый SOW, и поручи Олегу в CRM перезвонить ей в понедельник"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:create_task"]


async def test_give_a_colleague_a_crm_task_is_the_task_itself(anna: Conversation) -> None:
    r = await anna.say("give Oleg a CRM task to call Jane on Monday")
    assert intents(r)[0]["content"] == "call Jane"


# ---- records and fields ------------------------------------------------------------------------------------


async def test_where_a_new_company_goes_is_no_part_of_its_name(anna: Conversation) -> None:
    r = await anna.say("New company in the CRM: Pied Piper, piedpiper.com")
    assert (intents(r)[0]["name"], intents(r)[0]["domain"]) == ("Pied Piper", "piedpiper.com")


async def test_a_company_and_its_contact_said_together(anna: Conversation) -> None:
    r = await anna.say(
        "Add Stark Industries (stark.com) as a company and Pepper Potts, pepper@stark.com, as a contact there"
    )
    assert drafted(r) == ["attio:create_company", "attio:create_person"]
    assert intents(r)[1]["name"] == "Pepper Potts"


async def test_a_note_goes_where_it_was_asked_not_to_whom_it_came_from(anna: Conversation) -> None:
    r = await anna.say(
        "Add a note to Acme Corp, forwarded from John: 'Budget approved for Q1, waiting on legal'"
    )
    assert r["plan"]["actions"][0]["args"]["parent_object"] == "companies"


async def test_give_a_deal_to_a_colleague_changes_its_owner(anna: Conversation) -> None:
    r = await anna.say("give the Acme Corp license deal to Oleg")
    assert drafted(r) == ["attio:update_deal"] and intents(r)[0]["owner"] == "Oleg Ivanov"


async def test_a_description_after_its_colon_assigns_no_one(anna: Conversation) -> None:
    r = await anna.say(
        "Set the description of ENG-103 to: open any report, export to PDF, the app crashes on reports over 50 pages"
    )
    assert drafted(r) == ["linear:update_issue"] and "assignee" not in intents(r)[0]


async def test_nobody_to_assign_is_no_refusal(anna: Conversation) -> None:
    r = await anna.say(
        "Заведи задачу в CS: собрать отзывы клиентов по новому дашборду. Ни на кого не назначай"
    )
    assert drafted(r) == ["linear:create_issue"]
    r = await anna.say("Какие задачи в Linear ни на кого не назначены?")
    assert r["status"] == "answered" and "ENG-103" in r["user_message"]


async def test_a_bug_heading_files_a_bug_whatever_its_words_ask(anna: Conversation) -> None:
    r = await anna.say(
        "Bug: Safari users get logged out when switching tabs. ENG, add the security label too"
    )
    assert drafted(r) == ["linear:create_issue"]
    assert intents(r)[0]["title"] == "Safari users get logged out when switching tabs"


# ---- several at once ---------------------------------------------------------------------------------------


async def test_a_bulk_change_for_two_colleagues_takes_both(anna: Conversation) -> None:
    r = await anna.say("Закрой все задачи Олега и Макса")
    assert r["status"] in ("draft_pending", "needs_bulk_confirmation") and len(drafted(r)) == 6


async def test_issues_that_have_a_due_date_narrow_a_bulk_close(anna: Conversation) -> None:
    r = await anna.say("Close all issues that have a due date")
    assert len(drafted(r)) == 5


async def test_the_state_said_as_a_state_is_which_ones(anna: Conversation) -> None:
    r = await anna.say("Закрой все задачи в статусе In Review")
    assert drafted(r) == ["linear:complete_issue"] and "DES-7" in r["plan"]["actions"][0]["preview"]


async def test_totals_in_two_currencies_are_both_stated(anna: Conversation) -> None:
    r = await anna.say("Сколько всего денег в сделках, в рублях и в долларах?")
    said = r["user_message"].replace("\xa0", " ")
    assert "2 000 000 RUB" in said and "110 000 USD" in said


async def test_what_they_are_worth_adds_up_the_deals_just_counted(anna: Conversation) -> None:
    r = await anna.say("How many deals do I own and what are they worth in total?")
    assert "80 000 USD" in r["user_message"].replace("\xa0", " ")


# ---- pasted letters ----------------------------------------------------------------------------------------


async def test_a_letter_above_a_line_is_context_for_the_request_below(anna: Conversation) -> None:
    r = await anna.say(
        "Hi Anna,\n\nSince Monday our users on the corporate VPN cannot log in: the page spins and times out. "
        "Could you look into it?\n\nThanks,\nJane Doe\n\n---\n"
        "Add this as a comment on ENG-101: Globex users on VPN get 30+ second login timeouts since Monday"
    )
    assert drafted(r) == ["linear:comment_issue"]
    assert intents(r)[0]["body"].startswith("Globex users on VPN")


async def test_a_request_after_a_pasted_letter_is_answered_in_its_own_language(anna: Conversation) -> None:
    r = await anna.say(
        "Вот письмо от Джейн из Globex:\n\nHi Anna, following up on the requirements workshop. Our IT team needs "
        "the pilot to integrate with SAP for purchase orders.\n\n"
        "Заведи по этому задачу в CS: разобраться с интеграцией SAP для пилота Globex, срок 4 декабря"
    )
    assert drafted(r) == ["linear:create_issue"] and r["user_message"].startswith("Черновик")


async def test_a_guest_invited_by_address_is_an_attendee(anna: Conversation) -> None:
    r = await anna.say(
        "Schedule a 1h interview with candidate Alex Brown tomorrow at 2pm, invite alex.brown@gmail.com"
    )
    event = intents(r)[0]
    assert (
        event["attendees"] == ["alex.brown@gmail.com"]
        and event["title"] == "Interview with candidate Alex Brown"
    )
