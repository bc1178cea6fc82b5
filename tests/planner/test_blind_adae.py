"""What this stop taught (the sets AD and AE, and the review before them), one behaviour each, through the
MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def writes(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in intents(reply) if i["op"] != "find"]


async def test_a_list_made_in_a_team_is_its_issues_though_issues_are_never_named(anna: Conversation) -> None:
    r = await anna.say("Please create these in ENG: rate limiting, audit log export, SCIM provisioning.")
    assert r["status"] == "draft_pending"
    assert [(i["op"], i["title"], i["team"]) for i in writes(r)] == [
        ("create_issue", "rate limiting", "Engineering"),
        ("create_issue", "audit log export", "Engineering"),
        ("create_issue", "SCIM provisioning", "Engineering"),
    ]


async def test_the_same_in_russian(anna: Conversation) -> None:
    r = await anna.say("создай эти в CS: обновить FAQ, разобрать очередь")
    assert [(i["title"], i["team"]) for i in writes(r)] == [
        ("обновить FAQ", "Customer Success"),
        ("разобрать очередь", "Customer Success"),
    ]


async def test_a_list_made_in_a_company_is_not_taken_for_issues(anna: Conversation) -> None:
    r = await anna.say("create these in Acme: foo, bar")
    assert r["status"] == "needs_clarification"
    assert writes(r) == []


async def test_without_an_assignee_is_which_issues_when_a_priority_is_set_on_all_of_them(
    anna: Conversation,
) -> None:
    r = await anna.say("Поставь priority high всем задачам без исполнителя")
    assert writes(r) == [
        {
            "op": "update_matching",
            "object": "issues",
            "filters": {"assignee": "none"},
            "changes": {"priority": "high"},
        }
    ]


async def test_what_a_colleague_owns_is_their_deals(anna: Conversation) -> None:
    r = await anna.say("What does Max own?")
    assert intents(r) == [{"op": "find", "object": "deals", "filters": {"owner": "Max Weber"}}]
    assert "Initech renewal" in r["user_message"]
    r = await anna.say("что ведёт Олег?")
    assert intents(r) == [{"op": "find", "object": "deals", "filters": {"owner": "Oleg Ivanov"}}]


async def test_an_owner_nobody_knows_is_asked_about_not_dropped_from_the_filter(anna: Conversation) -> None:
    r = await anna.say("what deals does Petya own")
    assert r["status"] == "needs_clarification"
    assert "Petya" in r["clarifying_question"]
    max_weber = next(c for c in r["choices"] if c["label"] == "Max Weber")
    picked = await anna.call(
        "pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value=max_weber["value"]
    )
    assert picked["status"] == "answered"
    assert intents(picked) == [{"op": "find", "object": "deals", "filters": {"owner": "Max Weber"}}]


# ---- wrong drafts of the blind sets AD and AE that now ask, say no, or draft right ---------------


async def test_hedged_news_is_asked_about_before_anything_is_drafted(anna: Conversation) -> None:
    r = await anna.say("Я не уверена, но вроде Ромашка хочет отказаться от внедрения? Узнаю завтра точно")
    assert r["status"] == "needs_clarification"
    assert "не уверены" in r["clarifying_question"]
    assert r.get("draft") is None


async def test_a_hedged_request_is_still_a_request(anna: Conversation) -> None:
    r = await anna.say("I think it'd make sense to mark the Globex pilot as won")
    assert r["status"] == "draft_pending"
    assert [i["op"] for i in writes(r)] == ["update_deal"]


async def test_cancel_an_issue_is_its_canceled_state_and_every_open_one_is_a_counted_change(
    anna: Conversation,
) -> None:
    r = await anna.say("cancel ENG-101")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-101", "state": "Canceled"}]
    r = await anna.say("cancel every open ENG issue, we're migrating the board to the new workspace")
    assert writes(r) == [
        {"op": "update_matching", "object": "issues", "filters": {"team": "Engineering", "state": "open"},
         "changes": {"state": "Canceled"}}
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["cancel the meeting with Jane", "отмени встречу с Джейн", "move my meeting with Jane to 5pm"],
)
async def test_an_existing_event_is_never_drafted_as_a_new_one(anna: Conversation, text: str) -> None:
    r = await anna.say(text)
    assert r["status"] == "answered"
    assert writes(r) == []
    assert "Google Calendar" in r["user_message"]


async def test_a_question_whether_an_issue_exists_files_nothing(anna: Conversation) -> None:
    r = await anna.say("есть ли уже задача про падение при экспорте в PDF? не хочу заводить дубль")
    assert r["status"] == "answered"
    assert "ENG-103" in r["user_message"]


async def test_a_bulk_request_after_a_heading_that_says_why_is_the_request(anna: Conversation) -> None:
    r = await anna.say(
        "Max is migrating Engineering to a new workspace: archive every Engineering issue in Linear."
    )
    assert [i["op"] for i in writes(r)] == ["update_matching"]
    assert writes(r)[0]["changes"] == {"archive": True}


async def test_a_request_taken_back_as_it_is_said_drafts_nothing(anna: Conversation) -> None:
    r = await anna.say("и это самое закрой CS двенадцать нет подожди не закрывай звонок ещё не провели")
    assert r["status"] == "answered"
    assert r.get("draft") is None


async def test_the_same_request_said_again_for_another_issue_replaces_the_first(anna: Conversation) -> None:
    r = await anna.say("закрой ENG-101, нет, подожди, закрой ENG-102")
    assert writes(r) == [{"op": "complete_issue", "issue": "ENG-102"}]


async def test_a_spoken_and_before_a_team_key_is_no_letter_of_it(anna: Conversation) -> None:
    r = await anna.say("ENG сто четыре закрой и ENG сто три переведи в работу")
    assert writes(r) == [
        {"op": "complete_issue", "issue": "ENG-104"},
        {"op": "update_issue", "issue": "ENG-103", "state": "In Progress"},
    ]


async def test_the_request_retold_is_no_title(anna: Conversation) -> None:
    r = await anna.say("Max asked me to create an issue in Linear for him.")
    assert r["status"] == "needs_clarification"
    assert "called" in r["clarifying_question"]
    assert r.get("draft") is None


async def test_a_crm_task_for_a_colleague_nobody_knows_asks_for_whom(anna: Conversation) -> None:
    r = await anna.say(
        "Max wants an Attio task for Olga: follow up with Li Wei about the pilot scope, deadline December 3."
    )
    assert r["status"] == "needs_clarification"
    assert "Olga" in r["clarifying_question"]
    r = await anna.say("Set a follow-up with John Smith for Monday: send the security questionnaire")
    assert r["status"] == "draft_pending"  # "for Monday" is when, not whom


async def test_an_issue_in_a_project_of_one_team_goes_to_that_team(anna: Conversation) -> None:
    r = await anna.say(
        "please create an issue in the Customer Onboarding project: draft an FAQ for new customers"
    )
    (issue,) = writes(r)
    assert (issue["team"], issue["project"]) == ("Customer Success", "Customer Onboarding")


async def test_words_told_before_are_the_note_not_the_heading_that_says_for_whom(anna: Conversation) -> None:
    r = await anna.say(
        "Для Макса: Мария Соколова сказала, что решение по расширению будет после 10 декабря. "
        "Запишите это заметкой к сделке Альфа-Лизинг, пожалуйста."
    )
    (note,) = writes(r)
    assert "после 10 декабря" in note["body"]


async def test_a_quote_then_add_that_as_a_note_is_the_quote(anna: Conversation) -> None:
    r = await anna.say(
        "Jane wrote: “We won't need the extra licenses this quarter.” Add that as a note on Jane Doe, please."
    )
    (note,) = writes(r)
    assert note["body"] == "We won't need the extra licenses this quarter."


async def test_that_as_a_comment_and_also_as_a_note_is_two_changes_with_the_words_told(
    anna: Conversation,
) -> None:
    r = await anna.say(
        "FYI from Max: «Globex wants the pilot to start Jan 15.» Please leave that as a comment on CS-14 "
        "and also as a note on the Globex pilot deal."
    )
    assert writes(r) == [
        {"op": "comment_issue", "issue": "CS-14", "body": "Globex wants the pilot to start Jan 15."},
        {"op": "create_note", "record": "Globex pilot", "body": "Globex wants the pilot to start Jan 15."},
    ]


async def test_an_issue_then_cancel_is_its_canceled_state(anna: Conversation) -> None:
    r = await anna.say("ENG-102 — cancel, dup of ENG-101")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-102", "state": "Canceled"}]


async def test_an_apology_after_the_request_is_no_part_of_it(anna: Conversation) -> None:
    r = await anna.say("please set the Globex pilot to Won. sorry if this is the wrong way to do it!")
    assert writes(r) == [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won"}]


async def test_a_meeting_that_took_place_is_the_reason_not_a_new_event(anna: Conversation) -> None:
    r = await anna.say("Закрой, пожалуйста, CS-12 — созвон с Acme провели сегодня утром, всё прошло хорошо")
    assert writes(r) == [{"op": "complete_issue", "issue": "CS-12"}]
    r = await anna.say("Джейн из глобекса просила созвон в четверг в 16:00, минут на 30, поставь пожалуйста")
    assert [i["op"] for i in writes(r)] == ["create_event"]  # asked for, not reported


async def test_a_time_inside_a_quote_keeps_its_minutes(anna: Conversation) -> None:
    r = await anna.say(
        "From Jane's email: “Could we do Tuesday, Dec 1 at 11:30? 45 min works for us.” "
        "Please put it on Max's calendar and invite Jane."
    )
    (event,) = writes(r)
    assert (event["start"], event["duration_minutes"]) == ("2026-12-01T11:30:00+03:00", 45)


async def test_a_russian_contraction_of_a_job_title_is_the_title(anna: Conversation) -> None:
    r = await anna.say("добавь контакт анна белова почта anna.belova@globex.com она в глобексе финдиректор")
    (person,) = writes(r)
    assert person["job_title"] == "финдиректор"


async def test_a_record_named_after_a_meeting_word_is_not_taken_for_an_event(anna: Conversation) -> None:
    r = await anna.say("move the demo deal to Won")
    assert "Google Calendar" not in (r["user_message"] or "")


async def test_who_asks_for_a_list_is_no_filter_of_it(anna: Conversation) -> None:
    r = await anna.say("Could you pull up all urgent issues — Max wants them for the standup.")
    assert intents(r) == [{"op": "find", "object": "issues", "filters": {"priority": "urgent"}}]


async def test_a_question_then_why_it_is_asked_is_the_question(anna: Conversation) -> None:
    r = await anna.say("Какие у нас есть проекты в Linear? Не понимаю, куда класть задачи")
    assert all(
        p in r["user_message"] for p in ("Customer Onboarding", "Mobile App", "Q1 Launch", "Website Redesign")
    )


async def test_a_search_word_after_a_colon_is_searched_without_it(anna: Conversation) -> None:
    r = await anna.say("search issues: login")
    assert intents(r) == [{"op": "find", "object": "issues", "filters": {"text": "login"}}]


async def test_a_projects_name_where_a_state_would_be_moves_the_issues_into_it(anna: Conversation) -> None:
    r = await anna.say("move all ENG issues into Q1 Launch")
    assert writes(r) == [
        {
            "op": "update_matching",
            "object": "issues",
            "filters": {"team": "Engineering"},
            "changes": {"project": "Q1 Launch"},
        }
    ]


async def test_a_lead_in_that_apologises_for_a_question_leaves_the_question(anna: Conversation) -> None:
    r = await anna.say("sorry, dumb question — who owns the Alfa-Leasing deal? I need to ask them something")
    assert r["status"] == "answered"
    assert "Oleg" in r["user_message"]


async def test_back_to_a_state_and_a_dash_before_where_are_moves(anna: Conversation) -> None:
    r = await anna.say("ENG-106 back to in progress, Oleg's on it")
    assert writes(r)[0] == {"op": "update_issue", "issue": "ENG-106", "state": "In Progress"}
    r = await anna.say("ENG-105 и DES-7 — в in review")
    assert [(i["issue"], i["state"]) for i in writes(r)] == [("ENG-105", "In Review"), ("DES-7", "In Review")]


async def test_a_hedge_followed_by_what_to_do_is_a_request(anna: Conversation) -> None:
    r = await anna.say("Looks like Globex signed — move it to Won")
    assert r["status"] == "draft_pending"
    r = await anna.say("maybe Romashka refused")
    assert r["status"] == "needs_clarification"


async def test_a_reason_about_him_after_a_bulk_reassign_is_no_filter(anna: Conversation) -> None:
    r = await anna.say("reassign all of Oleg's open issues to Max, he's on vacation till Dec 10")
    assert writes(r) == [
        {"op": "update_matching", "object": "issues", "filters": {"state": "open", "assignee": "Oleg Ivanov"},
         "changes": {"assignee": "Max Weber"}}
    ]  # fmt: skip


async def test_a_last_sentence_that_only_apologises_is_no_request(anna: Conversation) -> None:
    r = await anna.say(
        "Please create a company called Stark Industries, their site is stark.com. "
        "Sorry, I don't know if we already have them somewhere"
    )
    assert [i["op"] for i in writes(r)] == ["create_company"]
    r = await anna.say("close ENG-101. Sorry, close ENG-102 instead")
    assert writes(r) == [{"op": "complete_issue", "issue": "ENG-102"}]


async def test_what_someone_said_then_the_persons_own_ask_after_a_dash_is_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "Max says the Globex negotiation call went fine — log that as a note on the Globex pilot deal."
    )
    assert [i["op"] for i in writes(r)] == ["create_note"]
    assert r["status"] == "draft_pending"
    r = await anna.say("Max said he closed ENG-104")
    assert r["status"] == "needs_clarification"  # only what he said: asked first


async def test_an_event_change_beside_another_request_is_named_back_not_drafted(anna: Conversation) -> None:
    r = await anna.say("Close ENG-101, and also delete the meeting with Jane")
    assert r["status"] == "needs_clarification"
    assert "delete the meeting with Jane" in r["clarifying_question"]
    assert "create_event" not in [i["op"] for i in writes(r)]


async def test_a_persons_new_company_is_drafted_and_lands_in_the_crm(anna: Conversation) -> None:
    r = await anna.say(
        "Jane Doe moved to Initech apparently, weird. anyway please change her company to Initech in the CRM"
    )
    assert writes(r) == [
        {"op": "update_record", "record": "Jane Doe", "object": "people", "values": {"company": "Initech"}}
    ]
    draft = r["draft"]["id"]
    assert (await anna.call("confirm_draft", draft_id=draft))["status"] == "confirmed"
    assert (await anna.call("execute_draft", draft_id=draft))["status"] == "executed"
    after = await anna.say("who from Initech is in our CRM?", conversation_id="after")
    assert "Jane Doe" in after["user_message"]


async def test_a_company_nobody_has_is_no_persons_new_company(anna: Conversation) -> None:
    r = await anna.say("change Jane Doe's company to Wayne Enterprises")
    assert r.get("draft") is None


async def test_the_word_company_before_a_deal_names_no_field_of_a_person(anna: Conversation) -> None:
    r = await anna.say("set the Acme Corp company deal amount to 60k")
    assert [i["op"] for i in writes(r)] == ["update_deal"]
