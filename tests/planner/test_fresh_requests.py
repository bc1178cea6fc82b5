"""What the blind sets D and E taught, one behaviour each, through the MCP client on the sandbox
(now = Wed 2026-11-25 12:00 MSK): a list request never changes anything, a how-to question offers
instead of drafting, a dictated correction keeps only the corrected words, meetings invite the people
they name, and a change said in two halves lands as one."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WORKSPACE, Conversation

pytestmark = pytest.mark.anyio

LINEAR, ATTIO = WORKSPACE["linear"], WORKSPACE["attio"]
LABEL = {x["name"]: x["id"] for x in LINEAR["labels"]}
STATE_NAME = {s["id"]: s["name"] for t in LINEAR["teams"] for s in t["states"]}


def issues_in(state: str) -> set[str]:
    return {i["id"] for i in LINEAR["issues"] if STATE_NAME[i["state_id"]] == state}


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in reply["plan"]["actions"] if not a["read_only"]]


def ops(reply: dict[str, Any]) -> list[str]:
    return [a["operation"] for a in writes(reply)]


async def test_a_list_request_with_a_label_reads_the_labelled_issues_and_changes_nothing(
    anna: Conversation,
) -> None:
    r = await anna.say("Покажи все задачи с меткой security")
    assert (r["status"], ops(r)) == ("answered", [])
    assert "ENG-106" in r["user_message"]  # the one issue labelled security
    r = await anna.say("Какие задачи в ENG в статусе Todo?")
    assert r["status"] == "answered" and "Triage" not in r["user_message"]  # issues, not the states
    assert {"ENG-102", "ENG-104", "ENG-106"} <= {w for w in r["user_message"].split() if w.startswith("ENG-")}


async def test_a_how_to_question_offers_the_change_and_only_a_yes_drafts_it(anna: Conversation) -> None:
    r = await anna.say("извините, а как отметить задачу выполненной? вот эту CS-12")
    assert (r["status"], r["draft"], ops(r)) == ("needs_clarification", None, [])
    assert "CS-12" in r["clarifying_question"] and [c["value"] for c in r["choices"]] == ["yes", "no"]
    drafted = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert (drafted["status"], ops(drafted)) == ("draft_pending", ["complete_issue"])
    r = await anna.say("how do I close ENG-101?")
    assert (r["status"], ops(r)) == ("needs_clarification", [])
    declined = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="no")
    assert (declined["status"], declined["draft"]) == ("safe_fail", None)


async def test_a_dictated_correction_keeps_the_corrected_amount_and_the_deals_kind_names_it(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "так, запиши, эээ, новую сделку, Umbrella Health, короче расширение, сумма... сорок тысяч, нет, "
        "сорок пять тысяч долларов, стадия лид"
    )
    (deal,) = writes(r)
    assert deal["args"]["values"]["name"] == "Umbrella Health — расширение"
    assert deal["args"]["values"]["value"]["currency_value"] == 45000


async def test_everything_that_lies_in_the_backlog_is_archived_and_nothing_else(anna: Conversation) -> None:
    r = await anna.say("Заархивируй всё, что лежит в бэклоге")
    assert r["status"] == "draft_pending" and {a["args"]["issue_id"] for a in writes(r)} == issues_in(
        "Backlog"
    )


async def test_a_sprint_that_started_moves_the_todo_issues_instead_of_filing_one(anna: Conversation) -> None:
    r = await anna.say("sprint started: move everything in Todo to In Progress")
    assert set(ops(r)) == {"update_issue"} and {a["args"]["issueId"] for a in writes(r)} == issues_in("Todo")


async def test_a_booking_verb_with_a_time_is_an_event_with_the_person_and_the_colleague_it_is_for(
    anna: Conversation,
) -> None:
    r = await anna.say("For Oleg: book 30 min with Maria Sokolova on Dec 4 at 10")
    (event,) = writes(r)
    assert event["operation"] == "create_event"
    assert event["args"]["start_datetime"].startswith("2026-12-04T10:00")
    assert set(event["args"]["attendees"]) == {"oleg@northwind.dev", "maria@alfaleasing.ru"}
    r = await anna.say("созвон с Globex 2 декабря 17:30–18:00, пригласи Джейн и Олега")
    (event,) = writes(r)
    assert event["args"]["summary"] == "Созвон с Globex"
    assert (event["args"]["event_duration_hour"], event["args"]["event_duration_minutes"]) == (0, 30)
    assert set(event["args"]["attendees"]) == {"jane@globex.com", "oleg@northwind.dev"}


async def test_a_first_name_that_fits_a_contact_and_a_colleagues_surname_is_asked(anna: Conversation) -> None:
    r = await anna.say("встреча с Иваном завтра 10:00, 30 мин")
    assert (r["status"], ops(r)) == ("needs_clarification", [])
    assert len(r["choices"]) == 3  # Ivan Petrov, Ivan Sidorov, Oleg Ivanov


async def test_a_label_taken_off_and_another_put_on_land_as_one_change(anna: Conversation) -> None:
    r = await anna.say("ENG-103: убери bug, добавь feature")
    (change,) = writes(r)
    # said relative to what the issue carries (issueUpdate's own fields): a label added meanwhile stays
    delta = {"addedLabelIds": [LABEL["feature"]], "removedLabelIds": [LABEL["bug"]]}
    assert change["args"]["variables"]["input"] == delta
    r = await anna.say("Сними метку bug с ENG-103 и повесь feature")
    assert [a["args"]["variables"]["input"] for a in writes(r)] == [delta]


async def test_a_sum_without_a_currency_keeps_the_deals_own_and_a_currency_said_elsewhere_wins(
    anna: Conversation,
) -> None:
    r = await anna.say("Альфа-Лизинг — сумма 900 тысяч")
    (change,) = writes(r)
    assert change["args"]["values"]["value"] == {"currency_value": 900000, "currency_code": "RUB"}
    r = await anna.say("Globex pilot — переведи в EUR, amount 28k")
    (change,) = writes(r)
    assert change["args"]["values"]["value"] == {"currency_value": 28000, "currency_code": "EUR"}


async def test_an_event_named_after_a_template_is_an_event(anna: Conversation) -> None:
    r = await anna.say(
        "Создай в календаре «Онбординг Acme Logistics» 3 декабря в 14:00 на 90 минут с Ли Вэем"
    )
    assert ops(r) == ["create_event"]


async def test_a_bare_afternoon_hour_is_afternoon_and_three_oclock_is_no_duration(anna: Conversation) -> None:
    r = await anna.say("поставь пожалуйста созвон с джоном смитом послезавтра в три часа дня на сорок минут")
    (event,) = writes(r)
    assert event["args"]["start_datetime"].startswith("2026-11-27T15:00")
    assert (event["args"]["event_duration_hour"], event["args"]["event_duration_minutes"]) == (0, 40)
    r = await anna.say("встреча с Олегом завтра в 3 на час")
    (event,) = writes(r)
    assert event["args"]["start_datetime"].startswith("2026-11-26T15:00")


async def test_a_list_of_issues_dictated_with_its_count_and_a_shared_project(anna: Conversation) -> None:
    r = await anna.say(
        "right so for the mobile launch I need, um, issues in ENG for: app store screenshots, privacy policy "
        "page, crash reporting, deep links, offline mode, and uh dark mode, that's six, put them all in the "
        "Mobile App project"
    )
    titles = [a["args"]["variables"]["input"]["title"] for a in writes(r)]
    assert titles[-1] == "dark mode" and len(titles) == 6
    mobile = next(p["id"] for p in LINEAR["projects"] if p["name"] == "Mobile App")
    assert {a["args"]["variables"]["input"]["projectId"] for a in writes(r)} == {mobile}


async def test_a_clause_that_asks_for_a_note_it_did_not_get_is_named_back(anna: Conversation) -> None:
    r = await anna.say("кп initech отправил, ОС ждем до пт — закинь заметкой в сд")
    (note,) = writes(r)
    assert note["operation"] == "create_note"
    assert note["args"]["content"] == "кп initech отправил, ОС ждем до пятницы"


# ---- what the blind set F taught -----------------------------------------------------------------


async def test_a_colon_inside_a_quoted_title_is_part_of_it_and_the_comment_after_it_lands_too(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "Создай в CS задачу «Globex: выгрузить логи пилота» на Олега и оставь в CS-14 комментарий, что логи "
        "будут к понедельнику"
    )
    assert ops(r) == ["create_issue", "comment_issue"]
    create, comment = writes(r)
    assert create["args"]["variables"]["input"]["title"] == "Globex: выгрузить логи пилота"
    assert comment["args"]["body"] == "логи будут к понедельнику"


async def test_a_stage_that_does_not_exist_is_asked_and_no_issue_sharing_the_deals_words_is_closed(
    anna: Conversation,
) -> None:
    r = await anna.say("move Globex pilot to Closed")
    assert (r["status"], ops(r)) == ("needs_clarification", [])
    assert "no stage 'Closed'" in r["clarifying_question"] and len(r["choices"]) == 6


async def test_my_deals_handed_over_are_only_mine(anna: Conversation) -> None:
    r = await anna.say("Все мои сделки передай Максу")
    mine = {d["id"] for d in ATTIO["deals"] if d["owner_id"] == ATTIO["workspace_members"][0]["id"]}
    assert {a["args"]["record_id"] for a in writes(r)} == mine  # Anna's three, not Oleg's


async def test_issues_listed_without_commas_follow_the_count_said_or_are_said_back(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "create six issues in engineering for the load tests one for each service auth billing search "
        "notifications uploads and reports"
    )
    titles = [a["args"]["variables"]["input"]["title"] for a in writes(r)]
    assert titles == [
        f"Load tests: {x}" for x in ("auth", "billing", "search", "notifications", "uploads", "reports")
    ]
    r = await anna.say("создай в дизайне задачи на иконки для каждого раздела главная поиск профиль и помощь")
    assert (r["status"], ops(r)) == ("needs_clarification", [])  # no count: one word per issue is asked
    yes = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="yes")
    assert len(writes(yes)) == 4


async def test_a_calendar_hold_with_a_range_a_name_and_an_invitee(anna: Conversation) -> None:
    r = await anna.say("Add a calendar hold next Tuesday 11:00-11:45 called Initech QBR, invite Ivan Sidorov")
    (event,) = writes(r)
    assert (event["args"]["summary"], event["args"]["start_datetime"][:16]) == (
        "Initech QBR",
        "2026-12-01T11:00",
    )
    assert event["args"]["event_duration_minutes"] == 45 and event["args"]["attendees"] == [
        "ivan.sidorov@initech.io"
    ]


async def test_a_new_project_with_a_spoken_deadline_and_an_issue_moved_there(anna: Conversation) -> None:
    r = await anna.say(
        "короче по релизу создай проект Release 2.0 в инженерке с дедлайном пятнадцатое декабря и перенеси туда ENG-104"
    )
    project, move = writes(r)
    assert (project["args"]["name"], project["args"]["target_date"]) == ("Release 2.0", "2026-12-15")
    assert move["args"]["projectId"] == "$ref:0.id"


async def test_a_vague_title_is_asked_for(anna: Conversation) -> None:
    r = await anna.say("hey make a ticket for um for the thing we talked about yesterday")
    assert (r["status"], ops(r)) == ("needs_clarification", [])


async def test_a_correction_by_not_keeps_the_new_words_and_give_it_to_assigns(anna: Conversation) -> None:
    r = await anna.say(
        "ok so create an issue for the design team uh the pricing page needs dark mode no wait not pricing the "
        "settings page needs dark mode give it to max medium priority"
    )
    (issue,) = writes(r)
    fields = issue["args"]["variables"]["input"]
    assert fields["title"] == "the settings page needs dark mode" and fields["priority"] == 3
    assert fields["assigneeId"] == next(u["id"] for u in LINEAR["users"] if u["name"].startswith("Max"))


async def test_a_second_sentence_with_a_stage_and_a_note_after_its_colon(anna: Conversation) -> None:
    r = await anna.say(
        "Ромашка подписала! Сделку в выиграна, и заметку к ней: подписали 25 ноября, оплата в декабре"
    )
    assert ops(r) == ["update_deal", "create_note"]
    assert writes(r)[1]["args"]["content"] == "подписали 25 ноября, оплата в декабре"
