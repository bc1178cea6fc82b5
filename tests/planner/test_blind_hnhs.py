"""What the sets HN–HS taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; Oleg owns the Acme Logistics pilot and the Alfa-Leasing expansion, CS-15 is unassigned in Backlog)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, writes

pytestmark = pytest.mark.anyio


async def fresh(anna: Conversation, text: str) -> dict[str, Any]:
    """Said in a conversation of its own (no open question or draft from the test's other messages)."""
    return await Conversation(anna.client, conversation=text[:40]).say(text)


# ---- a request taken back aloud, without punctuation, drafts nothing -------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "создай задачу олегу проверить логи на сервере хотя не не надо он уже посмотрел отбой",
        "move globex to lost no no no scratch that wrong one forget it",
        "удали компанию глобекс ой нет ты что не удаляй ничего",
        "поставь созвон с джейн на завтра в десять на час а нет отмена у неё отпуск",
        "создай сделку на ромашку новую а стоп у них же уже есть не надо",
        "archive ENG-102 hold on no max is still on it dont",
        "создай задачу позвонить в Globex... а, не надо, Олег уже позвонил",
    ],
)
async def test_a_request_taken_back_as_it_is_said_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert r["status"] in ("answered", "cancelled", "needs_clarification"), r["user_message"]
    assert r["draft"] is None


async def test_only_the_part_taken_back_is_left_out(anna: Conversation) -> None:
    r = await fresh(
        anna, "ok close ENG-105 and ENG-102 and archive DES-7 - actually scratch the archive, keep DES-7"
    )
    assert drafted(r) == ["linear:complete_issue", "linear:complete_issue"]
    r = await fresh(
        anna,
        "по акме корп переводим в переговоры и джону смиту на пятницу задачу прислать подписанный NDA "
        "хотя нет задачу не надо только сделку",
    )
    assert drafted(r) == ["attio:update_deal"]


async def test_a_change_kept_as_it_is_leaves_only_the_note(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "ok so alfa leasing: Maria says she signs next week. move the alfa expansion deal to proposal - no wait, "
        "keep it in negotiation, just put a note on that deal: Maria signs next week",
    )
    assert writes(r) == [
        {"op": "create_note", "record": "Альфа-Лизинг — расширение", "body": "Maria signs next week"}
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("close ENG-101 no wait move it to review instead", {"op": "update_issue", "state": "In Review"}),
        ("закрой ENG-101 ой нет переведи её в ревью", {"op": "update_issue", "state": "In Review"}),
    ],
)
async def test_another_change_said_in_place_of_the_first_replaces_it(
    anna: Conversation, text: str, want: dict[str, Any]
) -> None:
    (one,) = writes(await fresh(anna, text))
    assert one["issue"] == "ENG-101" and want.items() <= one.items(), one


async def test_a_record_corrected_in_another_case_is_the_one_used(anna: Conversation) -> None:
    r = await fresh(anna, "Запусти онбординг для Ромашки... ой нет, не Ромашке, для Globex")
    assert writes(r) == [{"op": "apply_template", "template": "onboarding", "deal": "Globex pilot"}]


@pytest.mark.parametrize(
    "text", ["переведи альфу в вон ну или в лост не знаю пока", "закрой ENG-101 хотя нет не знаю"]
)
async def test_undecided_as_it_ends_is_asked_before_anything_is_drafted(
    anna: Conversation, text: str
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "needs_clarification" and r["draft"] is None


# ---- values said inside a clause are drafted, or asked about ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("В ENG-104 допиши в описание: нужно покрыть эндпоинты биллинга", "нужно покрыть эндпоинты биллинга"),
        ("в описание к ENG-103 допиши падает только на больших файлах", "падает только на больших файлах"),
        (
            "ENG-101: описание — таймаут 30с мал для 3G, поднять до 90с",
            "таймаут 30с мал для 3G, поднять до 90с",
        ),
    ],
)
async def test_words_added_to_a_description_go_into_the_description_not_a_comment(
    anna: Conversation, text: str, want: str
) -> None:
    (one,) = writes(await fresh(anna, text))
    assert one["op"] == "update_issue" and want in one["description"], one


async def test_a_quoted_description_and_a_label_are_one_change_of_the_issue(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-102: описание «новый дизайн по макетам из figma» и добавь лейбл docs")
    assert writes(r) == [
        {
            "op": "update_issue",
            "issue": "ENG-102",
            "description": "новый дизайн по макетам из figma",
            "labels_add": ["docs"],
        }
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("CS-12 перенеси на 1 декабря и поменяй на Олега", {"due": "2026-12-01", "assignee": "Oleg Ivanov"}),
        ("CS-15 в работу, я возьму", {"state": "In Progress", "assignee": "Anna Kuznetsova"}),
        ("ENG-103 to in progress, I'll take it", {"state": "In Progress", "assignee": "Anna Kuznetsova"}),
        ("naznach CS-15 na olega i srok 1 dekabrya", {"assignee": "Oleg Ivanov", "due": "2026-12-01"}),
    ],
)
async def test_whom_an_issue_goes_to_is_drafted_with_its_other_change(
    anna: Conversation, text: str, want: dict[str, Any]
) -> None:
    (one,) = writes(await fresh(anna, text))
    assert want.items() <= one.items(), one


async def test_a_triage_line_drafts_each_issue_with_its_own_change(anna: Conversation) -> None:
    r = await fresh(anna, "triage: ENG-103 -> oleg high, CS-15 -> max, ENG-104 due dec 11, close CS-14")
    assert writes(r) == [
        {"op": "update_issue", "issue": "ENG-103", "assignee": "Oleg Ivanov", "priority": "high"},
        {"op": "update_issue", "issue": "CS-15", "assignee": "Max Weber"},
        {"op": "update_issue", "issue": "ENG-104", "due": "2026-12-11"},
        {"op": "complete_issue", "issue": "CS-14"},
    ]


async def test_a_colleague_said_in_lower_case_beside_a_new_deal_is_its_owner(anna: Conversation) -> None:
    (deal,) = writes(await fresh(anna, "new deal globex expansion sixty grand proposal stage oleg owns it"))
    assert deal["owner"] == "Oleg Ivanov" and deal["amount"] == 60000.0 and deal["stage"] == "Proposal"


async def test_a_project_said_after_a_quoted_title_is_the_issues_project(anna: Conversation) -> None:
    (issue,) = writes(await fresh(anna, "DES: 'dark mode tokens' in Website Redesign, due dec 12"))
    assert issue["title"] == "dark mode tokens" and issue["project"] == "Website Redesign"


async def test_a_project_named_whole_is_no_label(anna: Conversation) -> None:
    r = await fresh(anna, "bump CS-15 to high and put it in Customer Onboarding")
    assert {"project": "Customer Onboarding"}.items() <= writes(r)[-1].items()
    assert not any("labels_add" in w for w in writes(r))


async def test_a_one_hour_slot_is_how_long_not_when(anna: Conversation) -> None:
    (event,) = writes(
        await fresh(anna, "put in a one hour slot on friday at two thirty pm for the alfa review")
    )
    assert event["start"].startswith("2026-11-27T14:30") and event["duration_minutes"] == 60


async def test_a_deadline_of_yesterday_is_drafted_and_flagged_not_dropped(anna: Conversation) -> None:
    (issue,) = writes(await fresh(anna, "Создай задачу «обновить прайс» с дедлайном вчера"))
    assert issue["due"] == "2026-11-24"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Джон Смит теперь не VP Operations, его повысили до COO — обнови должность в карточке", "COO"),
        (
            "у Марии Соколовой новая должность — финансовый директор и член правления, обнови",
            "финансовый директор и член правления",
        ),
    ],
)
async def test_the_new_job_title_is_the_one_said_whole(anna: Conversation, text: str, title: str) -> None:
    (one,) = writes(await fresh(anna, text))
    assert one["values"] == {"job_title": title}


# ---- what a note says -------------------------------------------------------------------------------------------


async def test_a_note_of_that_carries_the_reason_said_before(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Mark the Acme Logistics pilot as lost, they went with a competitor. Also put that in a note on the deal.",
    )
    assert writes(r)[-1] == {
        "op": "create_note",
        "record": "Acme Logistics — pilot",
        "body": "they went with a competitor",
    }


async def test_a_dictated_note_of_this_carries_what_was_said_before_it(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "так значит по ромашке вот щас созвонились с иваном петровым они короче просят скидку десять процентов "
        "запиши это заметкой к сделке ну и переведи её в переговоры",
    )
    note, move = writes(r)
    assert "просят скидку" in note["body"] and move["stage"] == "Negotiation"


async def test_a_note_with_no_words_of_its_own_is_asked(anna: Conversation) -> None:
    r = await fresh(anna, "leave a note on the umbrella account")
    assert r["status"] == "needs_clarification" and r["draft"] is None


# ---- requests said another way ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Иван Петров просил перезвонить ему в понедельник, поставь мне напоминалку плз",
        "John asked me to call him back on Monday, set me a reminder",
    ],
)
async def test_what_was_told_then_remind_me_is_a_crm_task_for_me(anna: Conversation, text: str) -> None:
    (task,) = writes(await fresh(anna, text))
    assert task["op"] == "create_task" and task["assignee"] == "Anna Kuznetsova"
    assert task["deadline"].startswith("2026-11-30")


async def test_slang_for_starting_the_playbook_starts_it(anna: Conversation) -> None:
    r = await fresh(anna, "globex signed!!! ставь won и погнали онбординг")
    assert [w["op"] for w in writes(r)] == ["update_deal", "apply_template"]


async def test_telling_the_team_in_linear_is_an_issue(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Oleg's Acme Logistics pilot, they came back, bump it to Qualification, and tell the team in Linear to "
        "prep a sandbox for them, CS team, due Monday",
    )
    assert drafted(r) == ["attio:update_deal", "linear:create_issue"]


async def test_a_russian_request_typed_in_latin_letters_is_read(anna: Conversation) -> None:
    assert writes(await fresh(anna, "zakroy ENG-101, Oleg uzhe pofiksil")) == [
        {"op": "complete_issue", "issue": "ENG-101"}
    ]


# ---- a playbook's tasks given to someone, by a day ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "who", "due"),
    [
        ("Renewal playbook for Initech, assign both tasks to Max, due Dec 10", "Max Weber", "2026-12-10"),
        ("запусти продление для Initech, обе задачи на Олега, срок 10 декабря", "Oleg Ivanov", "2026-12-10"),
        ("run onboarding for Globex and make Max the assignee on all", "Max Weber", None),
        (
            "Alright, renewal season. Initech's contract is up in January so spin up the renewal tasks for them, "
            "make Oleg the assignee on both, due the 15th of December",
            "Oleg Ivanov",
            "2026-12-15",
        ),
    ],
)
async def test_every_task_of_a_playbook_goes_to_whom_was_said_by_the_day_said(
    anna: Conversation, text: str, who: str, due: str | None
) -> None:
    r = await fresh(anna, text)
    (playbook,) = writes(r)
    assert playbook["op"] == "apply_template" and playbook["assignee"] == who and playbook.get("due") == due
    created = [a["args"]["variables"]["input"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert created and all(c["assigneeId"] and c.get("dueDate") == due for c in created)
    assert "update_deal" not in [w["op"] for w in writes(r)]  # the deal's owner is not changed


async def test_a_client_sends_a_playbook_with_its_assignee_and_due_date(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        intents=[
            {
                "op": "apply_template",
                "template": "renewal",
                "deal": "Initech",
                "assignee": "me",
                "due": "2026-12-10",
            }
        ],
    )
    created = [a["args"]["variables"]["input"] for a in r["plan"]["actions"] if not a["read_only"]]
    assert r["status"] == "draft_pending" and len(created) == 2
    assert {c["dueDate"] for c in created} == {"2026-12-10"} and len({c["assigneeId"] for c in created}) == 1


# ---- bulk changes said with why, and in short forms ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "filters", "changes"),
    [
        (
            "Reassign all of Anna's deals to Oleg while she's on leave",
            {"owner": "Anna Kuznetsova"},
            {"owner": "Oleg Ivanov"},
        ),
        (
            "Tag every open issue with customer-request — leadership wants to see everything client-driven",
            {"state": "open"},
            {"labels_add": ["customer-request"]},
        ),
        (
            "все задачи олега перекинь на макса олег в отпуск уходит",
            {"assignee": "Oleg Ivanov"},
            {"assignee": "Max Weber"},
        ),
        (
            "все сделки олега переводим на меня он увольняется",
            {"owner": "Oleg Ivanov"},
            {"owner": "Anna Kuznetsova"},
        ),
        (
            "Все задачи из бэклога перекинь в Todo, будем разбирать на планёрке.",
            {"state": "Backlog"},
            {"state": "Todo"},
        ),
        ("all unassigned -> me", {"assignee": "none"}, {"assignee": "Anna Kuznetsova"}),
        ("all high pri in ENG → urgent", {"team": "Engineering", "priority": "high"}, {"priority": "urgent"}),
        ("every unassigned issue goes to Max", {"assignee": "none"}, {"assignee": "Max Weber"}),
        ("Смени владельца всех рублёвых сделок на Олега", {"currency": "RUB"}, {"owner": "Oleg Ivanov"}),
        (
            "Every issue that still has no due date - set it to this Friday. I don't want anything floating around.",
            {"due": "none"},
            {"due": "2026-11-27"},
        ),
    ],
)
async def test_a_bulk_change_said_with_why_or_in_short_is_drafted_for_what_matches(
    anna: Conversation, text: str, filters: dict[str, Any], changes: dict[str, Any]
) -> None:
    r = await fresh(anna, text)
    (bulk,) = writes(r)
    assert bulk["op"] == "update_matching" and bulk["filters"] == filters and bulk["changes"] == changes, bulk


async def test_an_issue_left_out_by_the_words_of_its_title(anna: Conversation) -> None:
    (bulk,) = writes(await fresh(anna, "Close all of Oleg's issues except the leaked key one"))
    assert bulk["filters"]["exclude"] == ["ENG-106"] and bulk["changes"] == {"complete": True}


async def test_a_pasted_recap_saved_as_a_note_then_another_request(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Recap from the Initech QBR:\n- usage up 30% QoQ\n- Ivan wants SSO for the new subsidiary\n"
        "- they're worried about the price increase\nPlease add this as a note to Initech and create a Linear "
        "issue in CS for me to prepare the SSO rollout plan by Dec 4.",
    )
    note, issue = writes(r)
    assert note["record"] == "Initech" and "price increase" in note["body"] and "usage up 30%" in note["body"]
    assert issue["op"] == "create_issue" and issue["due"] == "2026-12-04"


# ---- corrections said after a sentence, or of one issue of a list -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Close ENG-105 and ENG-102. actually leave 102 open, just 105",
            [{"op": "complete_issue", "issue": "ENG-105"}],
        ),
        (
            "close ENG-102 and ENG-104. wait no, not 102, only 104",
            [{"op": "complete_issue", "issue": "ENG-104"}],
        ),
        (
            "Move Acme Logistics pilot to Qualification. actually no, make it Proposal",
            [{"op": "update_deal", "deal": "Acme Logistics — pilot", "stage": "Proposal"}],
        ),
        (
            "close ENG-102 - no wait, leave it open, just comment on it: blocked by design review",
            [{"op": "comment_issue", "issue": "ENG-102", "body": "blocked by design review"}],
        ),
        (
            "Please set ENG-104 due date to December 11 and bump it to high priority — actually leave the priority "
            "as is, just the date.",
            [{"op": "update_issue", "issue": "ENG-104", "due": "2026-12-11"}],
        ),
        (
            "поставь Макса исполнителем на CS-15 нет стоп на Олега",
            [{"op": "update_issue", "issue": "CS-15", "assignee": "Oleg Ivanov"}],
        ),
        (
            "all of Oleg's deals go to Max now",
            [
                {
                    "op": "update_matching",
                    "object": "deals",
                    "filters": {"owner": "Oleg Ivanov"},
                    "changes": {"owner": "Max Weber"},
                }
            ],
        ),
    ],
)
async def test_what_stands_after_a_correction_is_what_is_drafted(
    anna: Conversation, text: str, want: list[dict[str, Any]]
) -> None:
    assert writes(await fresh(anna, text)) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("ENG-103 в работу, исполнитель я", {"state": "In Progress", "assignee": "Anna Kuznetsova"}),
        ("ENG-102 снимаем с Макса и ставим Олега", {"assignee": "Oleg Ivanov"}),
        ("put me on ENG-103", {"assignee": "Anna Kuznetsova"}),
        ("DES-7 → oleg for review", {"assignee": "Oleg Ivanov"}),
        ("ENG-103 +security", {"labels_add": ["security"]}),
        ("unlabel bug from ENG-101", {"labels_remove": ["bug"]}),
        ("ENG-105 на завтра ⏰", {"due": "2026-11-26"}),
        (
            "Remove the bug label from ENG-101 — turned out it's a config issue on the client side, not our bug.",
            {"labels_remove": ["bug"]},
        ),
    ],
)
async def test_an_issue_change_said_in_short_is_drafted(
    anna: Conversation, text: str, want: dict[str, Any]
) -> None:
    (one,) = writes(await fresh(anna, text))
    assert (
        one["op"] == "update_issue" and {k: v for k, v in one.items() if k not in ("op", "issue")} == want
    ), one


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("open issues assigned to me", {"state": "open", "assignee": "me"}),
        ("Show me everything that's assigned to me", {"assignee": "me"}),
        ("open issues that nobody is assigned to", {"state": "open", "assignee": "none"}),
    ],
)
async def test_a_list_said_by_whose_it_is_is_read(
    anna: Conversation, text: str, filters: dict[str, Any]
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and r["plan"]["intents"][0]["filters"] == filters


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("ромашке сумму режем до миллиона", 1_000_000.0),
        ("ромашке сумму апни до 1.5 ляма", 1_500_000.0),
        ("сделка ромашка сумма миллион триста тысяч рублей", 1_300_000.0),
    ],
)
async def test_an_amount_said_in_slang_or_without_a_verb_is_drafted(
    anna: Conversation, text: str, amount: float
) -> None:
    (one,) = writes(await fresh(anna, text))
    assert one["op"] == "update_deal" and one["deal"] == "Ромашка — внедрение" and one["amount"] == amount


@pytest.mark.parametrize(
    ("text", "start", "minutes"),
    [
        (
            "Let's do a quick half-hour check-in with Maria Sokolova on Tuesday at 9:30.",
            "2026-12-01T09:30",
            30,
        ),
        ("next monday 10am, 1h, QBR prep with Max", "2026-11-30T10:00", 60),
    ],
)
async def test_a_meeting_said_without_a_booking_verb_is_drafted(
    anna: Conversation, text: str, start: str, minutes: int
) -> None:
    (event,) = writes(await fresh(anna, text))
    assert (
        event["op"] == "create_event"
        and event["start"].startswith(start)
        and event["duration_minutes"] == minutes
    )


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("hi! not 100% sure how this works yet but pls assign ENG-103 to Max", "update_issue"),
        (
            "не уверена что правильно поняла процесс, но заведи компанию ООО Вектор, сайт vector-soft.ru",
            "create_company",
        ),
    ],
)
async def test_unsure_of_the_tool_but_sure_of_the_request_is_drafted(
    anna: Conversation, text: str, op: str
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "draft_pending" and [w["op"] for w in writes(r)] == [op]


async def test_a_picture_between_two_requests_ends_the_first(anna: Conversation) -> None:
    r = await fresh(anna, "globex pilot -> won 🎉 also kick off the onboarding tasks for them in linear")
    assert [w["op"] for w in writes(r)] == ["update_deal", "apply_template"]


async def test_a_label_named_in_why_is_no_change_but_one_asked_after_it_is(anna: Conversation) -> None:
    (one,) = writes(await fresh(anna, "Сними метку bug с ENG-101, это скорее фича — повесь feature"))
    assert one["labels_remove"] == ["bug"] and one["labels_add"] == ["feature"]


async def test_taking_an_issue_into_work_is_in_progress_and_mine(anna: Conversation) -> None:
    (one,) = writes(await fresh(anna, "ENG-103 беру в работу"))
    assert one["state"] == "In Progress" and one["assignee"] == "Anna Kuznetsova"


async def test_a_new_deals_owner_me_stays_its_owner(anna: Conversation) -> None:
    (deal,) = writes(
        await fresh(anna, "новая сделка: Ромашка — техподдержка, 300 тыс руб, стадия лид, ответственный я")
    )
    assert deal["op"] == "create_deal" and deal["owner"] == "Anna Kuznetsova"


async def test_that_s_it_said_first_is_no_all_of_anything(anna: Conversation) -> None:
    r = await fresh(anna, "ну всё альфа лизинг слились переводи расширение в потеряна")
    assert writes(r) == [{"op": "update_deal", "deal": "Альфа-Лизинг — расширение", "stage": "Lost"}]
    (bulk,) = writes(await fresh(anna, "всё в ENG закрой"))
    assert bulk["op"] == "update_matching" and bulk["filters"]["team"] == "Engineering"
