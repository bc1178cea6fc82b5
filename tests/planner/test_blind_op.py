"""What blind sets O and P taught (a founder typing fast into Telegram; a project manager and a support lead
writing long explained sentences about issues they describe rather than number), one behaviour each,
through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


def ops(reply: dict[str, Any]) -> list[str]:
    return [i["op"] for i in intents(reply)]


async def test_requests_on_their_own_lines_are_each_drafted(anna: Conversation) -> None:
    r = await anna.say(
        "issue: export to xlsx, label customer-request\nthen note on acme corp license deal: promised xlsx export by dec 10"
    )
    assert ops(r) == ["create_issue", "create_note"]
    r = await anna.say(
        "issue in CS: ромашка sso cert expires, urgent, on oleg\nand note on ivan petrov: cert expires dec 5"
    )
    assert [(i["op"], i.get("assignee")) for i in intents(r)] == [
        ("create_issue", "Oleg Ivanov"),
        ("create_note", None),
    ]


async def test_changes_said_with_arrows_and_pluses_are_each_drafted(anna: Conversation) -> None:
    r = await anna.say("CS-14 → done, then созвон с jane в пт 12:00 на 30 мин")
    assert ops(r) == ["complete_issue", "create_event"]
    r = await anna.say("acme corp license signed → won + kick off onboarding in linear")
    assert ops(r) == ["update_deal", "apply_template"]
    r = await anna.say("globex pilot → won, note 'signed 12mo', and remind me to send invoice fri")
    assert ops(r) == ["update_deal", "create_note", "create_task"]  # the reminder is about that deal
    assert intents(r)[2]["record"] == "Globex pilot"


async def test_open_things_asked_about_are_a_list_not_a_new_issue(anna: Conversation) -> None:
    r = await anna.say("open security issues?")
    assert r["status"] == "answered" and intents(r)[0]["filters"] == {"state": "open", "label": "security"}


async def test_what_cannot_be_drafted_is_said_not_dropped(anna: Conversation) -> None:
    r = await anna.say("ENG-102 unassign + коммент: max в отпуске до 10 дек")
    assert sorted(drafted(r)) == ["linear:comment_issue", "linear:update_issue"]  # both, neither dropped
    r = await anna.say("создай задачу обновить прайс после праздников")
    assert r["status"] == "needs_clarification" and "после праздников" in r["user_message"]
    r = await anna.say("запиши заметку по джону смиту он просит перезвонить после праздников")
    assert r["status"] == "draft_pending"  # in a note, the words are the note's own
    r = await anna.say(
        "Li: 'We're ready to sign if you include onboarding for 3 warehouses.' Please note it on her record, "
        "and create a CRM task for me to draft the revised proposal by Friday"
    )
    assert r["draft"] is None or "create_note" in ops(r)  # the note is never silently left out


async def test_a_project_said_after_the_title_is_the_new_issues(anna: Conversation) -> None:
    r = await anna.say("issue for max: ios push retry logic, mobile app project, end of month")
    (issue,) = intents(r)
    assert (issue["project"], issue["assignee"], issue["due"]) == ("Mobile App", "Max Weber", "2026-11-30")


async def test_a_sub_issue_goes_under_the_issue_named_by_id_or_words(anna: Conversation) -> None:
    r = await anna.say(
        "Under the Romashka SSO ticket, create a sub-issue 'Collect IdP metadata from Romashka' and assign it to Oleg."
    )
    assert [(i["op"], i["parent"], i["assignee"]) for i in intents(r)] == [
        ("create_issue", "CS-13", "Oleg Ivanov")
    ]
    r = await anna.say("create a sub-issue of CS-13 'Collect IdP metadata' and assign it to Oleg")
    assert ops(r) == ["create_issue"]  # the parent is not reassigned
    r = await anna.say("add a note to Ivan: wants the invoice split in two")
    assert "create_issue" not in ops(r)


async def test_one_issue_per_item_when_asked_for_each(anna: Conversation) -> None:
    r = await anna.say(
        "Create a separate issue in ENG for each browser we still need to test the PDF export on: Chrome, "
        "Firefox, Safari, Edge, Opera and Yandex Browser."
    )
    assert [i["title"] for i in intents(r)] == [
        "Chrome",
        "Firefox",
        "Safari",
        "Edge",
        "Opera",
        "Yandex Browser",
    ]


async def test_an_issue_described_in_other_words_is_found(anna: Conversation) -> None:
    r = await anna.say(
        "Rename the Initech check-in issue to 'Quarterly business review with Initech' — they want a QBR now."
    )
    assert [(i["op"], i["issue"], i["title"]) for i in intents(r)] == [
        ("update_issue", "CS-15", "Quarterly business review with Initech")
    ]
    r = await anna.say(
        "Add the customer-request label to the PDF export crash, since Acme and Globex both reported it."
    )
    assert [(i["issue"], i["labels_add"]) for i in intents(r)] == [("ENG-103", ["customer-request"])]
    r = await anna.say("Баг с экспортом в PDF бьёт по клиентам — поставь ему высокий приоритет.")
    assert [(i["issue"], i["priority"]) for i in intents(r)] == [("ENG-103", "high")]


async def test_existing_things_are_not_made_new(anna: Conversation) -> None:
    r = await anna.say("Mark my CRM task about calling Maria as done.")
    assert "create_task" not in ops(r) and r["draft"] is None
    r = await anna.say(
        "Добавь метку onboarding к задаче про сбор требований к пилоту Globex — это часть их онбординга."
    )
    assert [(i["op"], i["issue"]) for i in intents(r)] == [("update_issue", "CS-14")]  # no template
    r = await anna.say("Добавь описание к задаче про SSO для Ромашки: нужен SAML, IdP — Azure AD")
    assert "create_task" not in ops(r)


async def test_a_request_said_in_a_sentence_and_a_standing_rule_after_it(anna: Conversation) -> None:
    r = await anna.say(
        "Please add a comment to CS-14 saying Jane sent the requirements doc. I was told to keep the ticket updated."
    )
    assert ops(r) == ["comment_issue"]
    r = await anna.say(
        "My manager said I should set a reminder to send Jane Doe the pricing sheet on Friday. Please make that a CRM task."
    )
    assert ops(r) == ["create_task"]
