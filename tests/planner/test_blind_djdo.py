"""What the sets DJ–DO taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, run

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return list(reply["plan"]["intents"])


# ---- what a heading names is what the requests after it are about ------------------------------------------


async def test_requests_after_an_about_heading_find_the_record_it_names(anna: Conversation) -> None:
    r = await anna.say(
        "по Globex: сумму пилота поменяй на 32 тысячи долларов и добавь заметку что Джейн согласовала бюджет"
    )
    assert sorted(drafted(r)) == ["attio:create_note", "attio:update_deal"]
    deal, note = intents(r)
    assert (deal["deal"], deal["amount"]) == ("Globex pilot", 32000)
    assert note["body"] == "Джейн согласовала бюджет"


async def test_a_heading_that_says_why_is_no_record(anna: Conversation) -> None:
    r = await anna.say("Итак, по итогам: ENG-102 в работу, CS-15 закрыть")
    assert drafted(r) == ["linear:update_issue", "linear:complete_issue"]


# ---- a part asked for by name is never dropped from a draft -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # dictated without punctuation: the note is asked for at the end, after what was said
        "значит так записывай после звонка с Globex Джейн говорит что пилот им нравится но юрист смотрит "
        "договор до конца следующей недели заметку к сделке сделай и напомни мне во вторник уточнить у неё статус",
        # the comment is asked for after a sentence that reports, with its own «что»
        "так значит эээ Ромашка опять пишет что SSO не работает надо в CS-13 написать коммент что клиент "
        "снова жалуется на ошибку SAML и поднять приоритет до срочного",
    ],
)
async def test_a_note_or_comment_asked_for_and_not_read_is_named_back(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_marking_an_issue_done_in_linear_closes_it(anna: Conversation) -> None:
    r = await anna.say("Спасибо! Ещё: отметь в Linear, что ENG-101 сделано, и закрой CS-14")
    assert drafted(r) == ["linear:complete_issue", "linear:complete_issue"]
    assert [i["issue"] for i in intents(r)] == ["ENG-101", "CS-14"]


# ---- a change to everything that matches keeps its filter ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "закрой все задачи, у которых срок до конца этой недели",
        "close all issues that are due this week",
    ],
)
async def test_a_due_date_said_as_which_ones_narrows_a_bulk_close(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:complete_issue"]
    assert "ENG-106" in r["plan"]["actions"][0]["preview"]


# ---- a new issue is never an old one -----------------------------------------------------------------------


async def test_a_new_issue_called_something_is_created_with_that_title(anna: Conversation) -> None:
    r = await anna.say(
        "so uh for the mobile app project we need a new issue in engineering called offline mode for ios "
        "its medium priority and give it to max oh and due date december 18"
    )
    assert drafted(r) == ["linear:create_issue"]
    (issue,) = intents(r)
    assert issue["title"] == "offline mode for ios"
    assert (issue["priority"], issue["due"], issue["project"]) == ("medium", "2026-12-18", "Mobile App")
    assert issue["assignee"] == "Max Weber"


async def test_a_title_said_after_pod_nazvaniem_is_the_title(anna: Conversation) -> None:
    r = await anna.say("новую задачу в ENG под названием офлайн-режим для iOS, приоритет средний")
    (issue,) = intents(r)
    assert issue["title"] == "офлайн-режим для iOS" and issue["priority"] == "medium"


# ---- an issue taken out of its project is not archived ------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["Убери ENG-104 из проекта Q1 Launch", "remove ENG-104 from the Q1 Launch project"]
)
async def test_an_issue_taken_out_of_its_project_keeps_living_without_one(
    anna: Conversation, text: str
) -> None:
    r = await anna.say(text)
    assert drafted(r) == ["linear:update_issue"]
    (change,) = intents(r)
    assert change["project"] == "none"
    assert "Q1 Launch" in r["plan"]["actions"][0]["preview"]
    await run(anna, r)
    again = await anna.say(text)  # executed: it is in no project now
    assert drafted(again) == [] and again["status"] == "answered"


async def test_a_client_can_take_an_issue_out_of_its_project_with_none(anna: Conversation) -> None:
    r = await anna.call("plan", intents=[{"op": "update_issue", "issue": "ENG-104", "project": "none"}])
    assert drafted(r) == ["linear:update_issue"]


# ---- what a comment or note says is its words, not where it goes ------------------------------------------


async def test_a_comment_that_names_only_its_issue_asks_what_it_says(anna: Conversation) -> None:
    r = await anna.say("добавь коммент к задаче по Globex")
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_note_after_whom_it_is_about_says_what_follows_that(anna: Conversation) -> None:
    r = await anna.say(
        "ok so for Jane at Globex - log a note that she asked for the SOC2 report, and remind me Monday to send it"
    )
    assert drafted(r) == ["attio:create_note", "attio:create_task"]
    assert intents(r)[0]["body"] == "she asked for the SOC2 report"


async def test_a_note_asked_for_a_company_stays_there_when_someone_is_quoted(anna: Conversation) -> None:
    r = await anna.say(
        "эээ запиши заметку к инитеку типа иван сидоров сказал что продление согласуют до конца года "
        "и хотят ещё 10 лицензий"
    )
    (note,) = intents(r)
    assert note["record"] == "Initech" and "10 лицензий" in note["body"]


# ---- dates ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Созвон с Марией в пятницу 3 декабря в 11 на час", "call Maria on Monday, Dec 2 at 10 for an hour"],
)
async def test_a_weekday_that_disagrees_with_its_date_is_asked(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "needs_clarification" and drafted(r) == []


async def test_a_weekday_that_agrees_with_its_date_is_drafted(anna: Conversation) -> None:
    r = await anna.say("Созвон с Марией в четверг 3 декабря в 11 на час")
    assert drafted(r) == ["googlecalendar:create_event"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "due dates: ENG-102 Friday, ENG-104 next Monday",
            [("ENG-102", "2026-11-27"), ("ENG-104", "2026-11-30")],
        ),
        ("reprioritize: ENG-104 high, ENG-102 low", [("ENG-104", "high"), ("ENG-102", "low")]),
        ("приоритеты: ENG-104 высокий, ENG-102 низкий", [("ENG-104", "high"), ("ENG-102", "low")]),
    ],
)
async def test_one_field_listed_for_several_issues_gives_each_its_own_value(
    anna: Conversation, text: str, values: list[tuple[str, str]]
) -> None:
    r = await anna.say(text)
    got = [(i["issue"], i.get("due") or i.get("priority")) for i in intents(r)]
    assert got == values


# ---- who ---------------------------------------------------------------------------------------------------


async def test_a_diminutive_said_first_is_the_assignee(anna: Conversation) -> None:
    r = await anna.say("Олежке на ENG-102, срок к следующему вторнику")
    (change,) = intents(r)
    assert (change["assignee"], change["due"]) == ("Oleg Ivanov", "2026-12-01")


# ---- several requests in one message, each read ---------------------------------------------------------------


async def test_a_colleagues_instruction_with_an_infinitive_is_asked_beside_the_rest(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Добрый день! Я новенькая, извините если что-то не так. Мне Анна сказала завести в CRM компанию "
        "ООО «Техносфера», у них сайт technosfera.ru. И ещё, если можно, контакт — Пётр Волков, директор, "
        "petr@technosfera.ru. Спасибо огромное!"
    )
    assert drafted(r) == ["attio:create_company", "attio:create_person"]
    company, person = intents(r)
    assert (company["name"], company["domain"]) == ("Техносфера", "technosfera.ru")
    assert person["email"] == "petr@technosfera.ru"


async def test_items_counted_aloud_are_requests_of_their_own(anna: Conversation) -> None:
    r = await anna.say(
        "так записывай значит по umbrella первое создай сделку Umbrella Health телемедицина на 30 тысяч "
        "долларов стадия лид второе поставь мне созвон с ними в понедельник в 12 на полчаса"
    )
    assert drafted(r) == ["attio:create_deal", "googlecalendar:create_event"]
    deal, event = intents(r)
    assert (deal["amount"], deal["stage"]) == (30000, "Lead")
    assert (event["start"], event["duration_minutes"]) == ("2026-11-30T12:00:00+03:00", 30)


async def test_time_said_as_needed_after_other_requests_is_booked(anna: Conversation) -> None:
    r = await anna.say(
        "ok so um quick brain dump: Romashka deal is basically won so move it to won, uh kick off the onboarding "
        "for them, and also I need an hour tomorrow at 2pm to prep the handover"
    )
    assert drafted(r)[0] == "attio:update_deal" and drafted(r)[-1] == "googlecalendar:create_event"
    assert drafted(r).count("linear:create_issue") == 4
    event = intents(r)[-1]
    assert (event["start"], event["duration_minutes"]) == ("2026-11-26T14:00:00+03:00", 60)
    assert "need" not in event["title"]


async def test_a_deal_named_with_call_it_keeps_that_name(anna: Conversation) -> None:
    r = await anna.say(
        "umbrella health - new deal, 40k USD, lead stage, owner max, call it Umbrella Health — telehealth pilot"
    )
    (deal,) = intents(r)
    assert deal["name"] == "Umbrella Health — telehealth pilot" and deal["amount"] == 40000


async def test_a_team_said_last_after_a_colon_is_where_the_issue_goes(anna: Conversation) -> None:
    r = await anna.say("todo: draft FAQ for the SSO setup, docs label, Design team")
    (issue,) = intents(r)
    assert (issue["team"], issue["title"], issue["labels"]) == (
        "Design",
        "draft FAQ for the SSO setup",
        ["docs"],
    )


# ---- the sets DP–DU ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["Set priority low on CS-15, it's not urgent", "CS-15 не срочная, поставь низкий приоритет"]
)
async def test_a_level_said_as_not_so_is_never_the_one_set(anna: Conversation, text: str) -> None:
    r = await anna.say(text)  # CS-15 is low already: nothing to change, and never urgent
    assert drafted(r) == [] and r["status"] == "answered"


async def test_a_latin_letter_typed_inside_a_russian_word_is_read_as_cyrillic(anna: Conversation) -> None:
    r = await anna.say("зaвтра в 16 созвон с джейн на 25 мин по пилоту")  # the "a" of «зaвтра» is Latin
    (event,) = intents(r)
    assert (event["start"], event["duration_minutes"]) == ("2026-11-26T16:00:00+03:00", 25)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("book a call with Maria Sokolova at half past two tomorrow, 30 mins", "2026-11-26T14:30:00+03:00"),
        ("созвон с Марией Соколовой завтра в 2:30 на полчаса", "2026-11-26T14:30:00+03:00"),
        ("созвон с Марией Соколовой завтра в 7:30 утра на полчаса", "2026-11-26T07:30:00+03:00"),
    ],
)
async def test_an_hour_with_minutes_and_no_am_pm_is_office_hours(
    anna: Conversation, text: str, start: str
) -> None:
    r = await anna.say(text)
    assert intents(r)[0]["start"] == start


async def test_a_title_said_where_it_is_changed_to_wins_over_what_was_told(anna: Conversation) -> None:
    r = await anna.say("Джон Смит теперь отвечает за закупки, поменяй ему должность на Head of Procurement")
    (change,) = intents(r)
    assert change["values"] == {"job_title": "Head of Procurement"}


async def test_a_quoted_note_after_a_heading_ends_where_the_next_request_starts(anna: Conversation) -> None:
    r = await anna.say(
        "По Джону Смиту: заметка «просит демо для команды склада» и напомни мне в четверг отправить ему запись"
    )
    assert drafted(r) == ["attio:create_note", "attio:create_task"]
    note, task = intents(r)
    assert note["body"] == "просит демо для команды склада" and task["deadline"].startswith("2026-11-26")


async def test_a_field_added_into_an_issue_named_by_title_is_no_new_issue(anna: Conversation) -> None:
    r = await anna.say("Добавь в задачу Crash on export to PDF описание: падает на файлах больше 50 страниц")
    assert "linear:create_issue" not in drafted(r)


async def test_handing_over_someones_issues_without_saying_to_whom_asks(anna: Conversation) -> None:
    r = await anna.say("Передай все задачи Олега")  # «Олега» is whose they are, not who gets them
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await anna.say("Передай все задачи Олега Максу")
    assert set(drafted(r)) == {"linear:update_issue"}
    assert all(i["changes"] == {"assignee": "Max Weber"} for i in intents(r))


async def test_an_issue_made_of_request_words_and_whom_it_is_for_asks_its_title(anna: Conversation) -> None:
    r = await anna.say("Закинь Олегу задачу")
    assert r["status"] == "needs_clarification" and drafted(r) == []
    r = await anna.say("Закинь Олегу задачу: проверить логи")
    (issue,) = intents(r)
    assert (issue["title"], issue["assignee"]) == ("проверить логи", "Oleg Ivanov")
