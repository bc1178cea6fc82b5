"""What the sets HT–HY taught, one behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25
12:00 MSK; Anna asks; Oleg owns the Acme Logistics pilot and the Alfa-Leasing expansion, Max the Initech renewal,
Anna the other three deals; CS-15 and ENG-103 are unassigned; Umbrella Health has no deal)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation, drafted, writes

pytestmark = pytest.mark.anyio


async def fresh(anna: Conversation, text: str) -> dict[str, Any]:
    """Said in a conversation of its own (no open question or draft from the test's other messages)."""
    return await Conversation(anna.client, conversation=text[:40]).say(text)


def args_of(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [a["args"] for a in reply["plan"]["actions"] if not a["read_only"]]


# ---- a read broken down by one field -----------------------------------------------------------------------------


async def test_a_pipeline_by_stage_is_counted_and_summed_per_stage(anna: Conversation) -> None:
    r = await fresh(anna, "pipeline by stage — count and amount per stage")
    assert r["status"] == "answered" and r["draft"] is None
    (find,) = r["plan"]["intents"]
    assert find["op"] == "find" and find["group_by"] == "stage"
    said = r["user_message"]
    assert "Negotiation: 2 · 800\u00a0000 RUB + 30\u00a0000 USD" in said
    assert "Lead: 1 · 12\u00a0000 USD" in said


@pytest.mark.parametrize(
    ("text", "group", "line"),
    [
        ("how many deals each manager has", "owner", "Anna Kuznetsova: 3"),
        ("breakdown of open issues by priority", "priority", "Urgent: 2"),
        ("открытые задачи ENG по статусам", "state", "Todo: 3"),
        ("How many open issues has each team got?", "team", "Engineering: 6"),
        ("open deals by company", "company", "Globex: 1"),
    ],
)
async def test_a_breakdown_asked_in_words_is_grouped_never_drafted(
    anna: Conversation, text: str, group: str, line: str
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and r["draft"] is None, r["user_message"]
    assert r["plan"]["intents"][0]["group_by"] == group
    assert line in r["user_message"]


async def test_a_client_model_groups_a_find_with_group_by(anna: Conversation) -> None:
    r = await anna.call(
        "plan",
        intents=[{"op": "find", "object": "issues", "filters": {"state": "open"}, "group_by": "assignee"}],
    )
    assert r["status"] == "answered"
    said = r["user_message"]
    assert "Oleg Ivanov: 3" in said and ("unassigned: 2" in said or "не назначены: 2" in said)


async def test_a_group_that_does_not_fit_the_list_is_refused(anna: Conversation) -> None:
    r = await anna.call("plan", intents=[{"op": "find", "object": "deals", "group_by": "priority"}])
    assert r["draft"] is None and r["status"] != "answered"
    assert "group_by" in r["user_message"]


# ---- words pointed at, ids said aloud, places said again -----------------------------------------------------------


async def test_a_quote_pointed_at_is_the_comment(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "клиент пишет: «в мобильном приложении пуши приходят с задержкой в час». Это к ENG-105, закинь туда "
        "коммент с цитатой",
    )
    assert writes(r) == [
        {
            "op": "comment_issue",
            "issue": "ENG-105",
            "body": "в мобильном приложении пуши приходят с задержкой в час",
        }
    ]


async def test_a_spoken_id_taken_back_leaves_the_other(anna: Conversation) -> None:
    r = await fresh(anna, "um archive cs fifteen and ENG one oh four no wait not one oh four just cs fifteen")
    assert writes(r) == [{"op": "archive_issue", "issue": "CS-15"}]


async def test_a_spoken_id_is_read_before_the_comment_it_gets(anna: Conversation) -> None:
    r = await fresh(
        anna, "в дез семь напиши что макеты согласованы можно отдавать в разработку и закрывай его"
    )
    assert writes(r) == [
        {"op": "comment_issue", "issue": "DES-7", "body": "макеты согласованы можно отдавать в разработку"},
        {"op": "complete_issue", "issue": "DES-7"},
    ]


async def test_the_same_team_is_the_team_of_the_issue_named_before(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "си эс четырнадцать закрывай требования собрали и в той же команде сделай задачу подготовить план пилота "
        "на олега",
    )
    new = [w for w in writes(r) if w["op"] == "create_issue"]
    assert new and new[0]["team"] == "Customer Success" and new[0]["assignee"] == "Oleg Ivanov"


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("Ромашке поставь сумму 1 100 000, ой нет, 1 050 000", 1050000.0),
        ("new deal for globex phase two sixty k usd stage proposal", 60000.0),
    ],
)
async def test_a_sum_is_the_one_said_last_and_whole(anna: Conversation, text: str, amount: float) -> None:
    (one,) = writes(await fresh(anna, text))
    assert one["amount"] == amount


# ---- records: the right one, or a question -------------------------------------------------------------------------


async def test_a_deal_that_does_not_exist_is_never_its_company_deleted(anna: Conversation) -> None:
    r = await fresh(anna, "Remove the Umbrella Health deal")
    assert r["status"] == "needs_clarification" and r["draft"] is None
    assert "no deal" in r["clarifying_question"]


@pytest.mark.parametrize(
    "text",
    [
        "Delete the comment I left on ENG-105",
        "merge ENG-101 into ENG-102, same root cause",
        "удали проект Q1 Launch",
    ],
)
async def test_what_only_linear_itself_does_is_answered_honestly(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and r["draft"] is None
    assert "can't" in r["user_message"] or "не умею" in r["user_message"]


async def test_a_label_taken_off_an_issue_is_still_a_change(anna: Conversation) -> None:
    r = await fresh(anna, "у CS-13 убери метку customer-request")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-13", "labels_remove": ["customer-request"]}]


async def test_the_deal_that_covers_more_of_the_words_is_the_one(anna: Conversation) -> None:
    r = await fresh(anna, "move acme log pilot to proposal and bump amount to 15k")
    assert writes(r) == [
        {"op": "update_deal", "deal": "Acme Logistics — pilot", "stage": "Proposal", "amount": 15000.0}
    ]


@pytest.mark.parametrize(
    ("text", "name", "email"),
    [
        (
            "Jane Doe left Globex; her replacement is Carlos Mendes, carlos.mendes@globex.com, Procurement lead. "
            "Add Carlos as a contact",
            "Carlos Mendes",
            "carlos.mendes@globex.com",
        ),
        (
            "Add Cyberdyne Systems (cyberdyne.io) as a company and Miles Dyson, CTO, miles@cyberdyne.io as a "
            "contact there",
            "Miles Dyson",
            "miles@cyberdyne.io",
        ),
    ],
)
async def test_a_new_contact_is_the_person_beside_their_own_email(
    anna: Conversation, text: str, name: str, email: str
) -> None:
    people = [w for w in writes(await fresh(anna, text)) if w["op"] == "create_person"]
    assert [(p["name"], p["email"]) for p in people] == [(name, email)]


async def test_a_company_met_is_named_by_itself_not_by_the_verb(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Met the Cyberdyne Systems team - add the company (cyberdyne.io) and their CTO Miles Dyson, "
        "miles@cyberdyne.io.",
    )
    made = {w["op"]: w for w in writes(r)}
    assert made["create_company"]["name"] == "Cyberdyne Systems"
    assert made["create_person"]["name"] == "Miles Dyson" and made["create_person"]["job_title"] == "CTO"


async def test_a_playbook_word_beside_an_issue_id_is_the_issue_title(anna: Conversation) -> None:
    r = await fresh(anna, "Acme Corp onboarding call (CS-12) moved — new due date Dec 2")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-12", "due": "2026-12-02"}]


# ---- changes of everything, and why ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("мы с олегом в отпуск с пн, все сделки перекинь на макса", {}),
        ("I'm going on leave and so is Oleg, so please hand all our deals over to Max", {}),
        ("Олег уходит — все сделки на Макса", {"owner": "Oleg Ivanov"}),
    ],
)
async def test_who_is_away_says_whose_deals_only_without_the_speaker(
    anna: Conversation, text: str, filters: dict[str, Any]
) -> None:
    (bulk,) = writes(await fresh(anna, text))
    assert bulk["op"] == "update_matching" and bulk["filters"] == filters
    assert bulk["changes"] == {"owner": "Max Weber"}


@pytest.mark.parametrize(
    ("text", "filters", "changes"),
    [
        ("unassign all of Max's issues", {"assignee": "Max Weber"}, {"assignee": "none"}),
        ("assign every unassigned issue to me", {"assignee": "none"}, {"assignee": "Anna Kuznetsova"}),
        ("Oleg's sick till Monday. Move his urgent stuff to me", {"assignee": "Oleg Ivanov", "priority": "urgent"},
         {"assignee": "Anna Kuznetsova"}),
        ("We shipped the release - close out everything in ENG", {"team": "Engineering", "state": "open"},
         {"complete": True}),
        ("close all open ENG issues — eng is moving to a separate board", {"team": "Engineering", "state": "open"},
         {"complete": True}),
        ("Всё, что в Todo, перекинь в In Progress — спринт стартовал", {"state": "Todo"}, {"state": "In Progress"}),
        ("всем открытым задачам в ENG поставь низкий приоритет, разгребаем бэклог по-другому",
         {"team": "Engineering", "state": "open"}, {"priority": "low"}),
    ],
)  # fmt: skip
async def test_a_change_of_everything_reads_which_ones_apart_from_why(
    anna: Conversation, text: str, filters: dict[str, Any], changes: dict[str, Any]
) -> None:
    (bulk,) = writes(await fresh(anna, text))
    assert bulk["op"] == "update_matching" and bulk["filters"] == filters and bulk["changes"] == changes


async def test_a_statement_after_a_change_names_no_values_of_it(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-105 bump to urgent, Acme Logistics drivers are missing dispatch alerts")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-105", "priority": "urgent"}]
    r = await fresh(anna, "Unassign ENG-102, Max won't get to it this sprint")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-102", "assignee": "none"}]


# ---- one issue's changes said in pieces ------------------------------------------------------------------------------


async def test_changes_of_one_issue_said_in_pieces_are_one_call(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-102 забирает Олег, Макс перегружен. Срок — пятница")
    assert drafted(r) == ["linear:update_issue"]
    (one,) = args_of(r)
    assert one["dueDate"] == "2026-11-27" and one["assigneeId"]
    r = await fresh(anna, "Triage: ENG-103 goes to Todo, assign Oleg, priority high, due Friday")
    assert drafted(r) == ["linear:update_issue"]
    assert {"stateId", "assigneeId", "dueDate", "priority"} <= set(args_of(r)[0])


async def test_whose_it_is_said_in_brackets_after_where_it_goes(anna: Conversation) -> None:
    r = await fresh(anna, "Sprint planning done. ENG-103 -> In Progress (Max), ENG-102 -> Backlog")
    said = {k: v for w in writes(r) if w["issue"] == "ENG-103" for k, v in w.items()}
    assert said["assignee"] == "Max Weber" and said["state"] == "In Progress"
    assert drafted(r) == ["linear:update_issue", "linear:update_issue"]  # ENG-103 once (both fields), ENG-102


async def test_left_as_it_is_then_moved(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-106 — срочный уже, оставь. Просто в ревью переведи")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-106", "state": "In Review"}]
    assert "Не трогаю" not in r["user_message"]


async def test_a_priority_set_to_none_is_cleared(anna: Conversation) -> None:
    r = await fresh(anna, "ENG-102 — set priority to none, it's not customer-facing anymore")
    assert writes(r) == [{"op": "update_issue", "issue": "ENG-102", "priority": "none"}]


# ---- new things: every value said lands --------------------------------------------------------------------------------


async def test_a_new_issue_keeps_its_kind_its_assignee_answered_aloud_and_its_due_field(
    anna: Conversation,
) -> None:
    (one,) = writes(
        await fresh(anna, "тикет в ENG про 2FA для админки, фича, приоритет средний, в проект Q1 Launch")
    )
    assert (
        one["title"] == "2FA для админки" and one["labels"] == ["feature"] and one["project"] == "Q1 Launch"
    )
    (one,) = writes(
        await fresh(
            anna,
            "Создай тикет: не работает фильтр по дате в отчётах. Кому? Ну пусть Олегу. Приоритет средний",
        )
    )
    assert one["title"] == "не работает фильтр по дате в отчётах" and one["assignee"] == "Oleg Ivanov"
    (one,) = writes(
        await fresh(
            anna,
            "Open an issue: Initech SSO cert expires Jan 10, rotate it before then. CS team, Oleg, due Jan 5",
        )
    )
    assert one["due"] == "2027-01-05" and one["team"] == "Customer Success"


async def test_a_project_named_as_the_heading_of_a_new_issue_is_its_project(anna: Conversation) -> None:
    (one,) = writes(await fresh(anna, "q1 launch: new issue in ENG — load test billing API, high, oleg"))
    assert one["project"] == "Q1 Launch" and one["title"] == "load test billing API"


async def test_a_new_deal_named_after_a_dash_and_a_reminder_beside_it_stay_in_the_crm(
    anna: Conversation,
) -> None:
    r = await fresh(
        anna,
        "new deal Globex - support add-on, 8k USD, owner Oleg. And remind Oleg to send the quote by Friday",
    )
    assert drafted(r) == ["attio:create_deal", "attio:create_task"]
    deal, task = writes(r)
    assert deal["name"] == "Globex — support add-on" and deal["amount"] == 8000.0
    assert task["assignee"] == "Oleg Ivanov" and task["record"] == "Globex"


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("Friday: nudge Li Wei about the pilot report, put a reminder in for me", "2026-11-27"),
        ("задача на завтра: подготовить договор для Ромашки", "2026-11-26"),
    ],
)
async def test_a_to_do_about_a_crm_record_with_its_day_said_first_is_a_crm_task(
    anna: Conversation, text: str, deadline: str
) -> None:
    (task,) = writes(await fresh(anna, text))
    assert task["op"] == "create_task" and task["deadline"].startswith(deadline)


@pytest.mark.parametrize(
    ("text", "start", "minutes"),
    [
        ("поставь блок в субботу с двенадцати на три часа разобрать почту", "2026-11-28T12:00", 180),
        ("поставь блок в субботу с 14 до 16 разобрать почту", "2026-11-28T14:00", 120),
        ("блок на отчёт по пайплайну в пятницу 16:00 на 1.5 часа", "2026-11-27T16:00", 90),
    ],
)
async def test_a_block_said_from_when_and_for_how_long(
    anna: Conversation, text: str, start: str, minutes: int
) -> None:
    (event,) = writes(await fresh(anna, text))
    assert event["start"].startswith(start) and event["duration_minutes"] == minutes


@pytest.mark.parametrize(
    ("text", "filters", "said"),
    [
        ("Сколько задач в ENG без проекта?", {"team": "Engineering", "project": "none"}, "Найдено: 3"),
        ("Что у Олега сейчас в работе?", {"state": "In Progress", "assignee": "Oleg Ivanov"}, "ENG-101"),
        ("сделки в стадии лид", {"stage": "Lead"}, "Acme Logistics"),
    ],
)
async def test_a_list_asked_without_a_verb_is_read_with_its_filters(
    anna: Conversation, text: str, filters: dict[str, Any], said: str
) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "answered" and r["draft"] is None
    assert r["plan"]["intents"][0]["filters"] == filters
    assert said in r["user_message"]


# ---- what HZ–IE (the second round) taught ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Переведи Альфа-Лизинг в Won... хотя нет, стоп, пусть пока остаётся как есть",
        "Globex pilot в Proposal... а нет, стоп, пусть остаётся в Negotiation",
        "Создай сделку Initech upsell на 20 тысяч долларов... а, нет, забудь, сначала поговорю с Максом",
        "I was going to ask you to close ENG-105, but not yet. Let's wait until Apple approves the build.",
        "Что будет, если я удалю компанию Globex? Пока не удаляй",
    ],
)
async def test_a_change_put_off_or_kept_as_it_is_drafts_nothing(anna: Conversation, text: str) -> None:
    r = await fresh(anna, text)
    assert r["draft"] is None and r["status"] in ("answered", "needs_clarification", "cancelled"), r[
        "user_message"
    ]


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("так еще создай задачу эээ сейчас соображу", "Как назвать задачу?"),
        ("ну в общем надо создать задачу а название я потом скажу", "Как назвать задачу?"),
        ("okay create a new issue in design for, uh, hmm, I'll tell you later", "called"),
        ("ага и добавь заметку к ромашке текст потом надиктую", "заметку"),
        ("leave a comment on CS twelve i'll tell you what to write in a sec", "comment"),
    ],
)
async def test_words_still_to_come_are_asked_for(anna: Conversation, text: str, question: str) -> None:
    r = await fresh(anna, text)
    assert r["status"] == "needs_clarification" and r["draft"] is None
    assert question in r["clarifying_question"]


async def test_a_value_said_again_after_a_correction_replaces_it(anna: Conversation) -> None:
    r = await fresh(anna, "Перенеси Alfa в Won, хотя нет — в Lost, они отказались")
    assert writes(r) == [{"op": "update_deal", "deal": "Альфа-Лизинг — расширение", "stage": "Lost"}]


async def test_a_record_left_where_it_is_gets_nothing(anna: Conversation) -> None:
    r = await fresh(anna, "Only move Globex pilot to Won, leave the Alfa one where it is")
    assert writes(r) == [{"op": "update_deal", "deal": "Globex pilot", "stage": "Won"}]


async def test_a_company_deleted_with_its_deal(anna: Conversation) -> None:
    r = await fresh(anna, "Delete the Globex company and its deal")
    assert [(w["object"], w["record"]) for w in writes(r)] == [
        ("companies", "Globex"),
        ("deals", "Globex pilot"),
    ]


async def test_two_fields_of_one_company_are_one_update(anna: Conversation) -> None:
    r = await fresh(anna, "Переименуй компанию Globex в Globex Corporation и поменяй домен на globexcorp.com")
    assert drafted(r) == ["attio:update_record"]
    assert args_of(r)[0]["values"] == {"name": "Globex Corporation", "domains": ["globexcorp.com"]}


async def test_marked_done_before_the_ids_closes_them(anna: Conversation) -> None:
    r = await fresh(anna, "Пометь как сделанные ENG-104 и CS-14")
    assert drafted(r) == ["linear:complete_issue", "linear:complete_issue"]


async def test_why_said_without_a_comma_is_no_destination(anna: Conversation) -> None:
    (bulk,) = writes(await fresh(anna, "все сделки олега переведи на меня он уходит в другой отдел"))
    assert bulk["filters"] == {"owner": "Oleg Ivanov"} and bulk["changes"] == {"owner": "Anna Kuznetsova"}


async def test_a_deal_goes_to_a_stage_said_without_a_verb(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Two quick updates: Acme Logistics pilot goes to Qualification, and Alfa-Leasing expansion goes to Proposal.",
    )
    assert [(w["deal"], w["stage"]) for w in writes(r)] == [
        ("Acme Logistics — pilot", "Qualification"),
        ("Альфа-Лизинг — расширение", "Proposal"),
    ]


async def test_a_state_said_in_cyrillic_then_why_without_a_pause(anna: Conversation) -> None:
    r = await fresh(anna, "си эс тринадцать переведи в ин прогресс олег начал настраивать")
    assert writes(r) == [{"op": "update_issue", "issue": "CS-13", "state": "In Progress"}]


async def test_a_new_thing_asked_after_a_notes_words_is_its_own_request(anna: Conversation) -> None:
    r = await fresh(
        anna,
        "Mark the Acme Logistics pilot as lost and log a note on it: no budget till Q3. Then a Linear issue for "
        "Oleg: send them a breakup email by Friday",
    )
    assert drafted(r) == ["attio:update_deal", "attio:create_note", "linear:create_issue"]
    assert writes(r)[2]["assignee"] == "Oleg Ivanov"


async def test_a_new_deal_named_after_a_dash_with_its_verb_keeps_its_fields(anna: Conversation) -> None:
    (deal,) = writes(
        await fresh(
            anna, "создай сделку Umbrella Health — support add-on, 6000 USD, стадия Proposal, владелец Макс"
        )
    )
    assert deal["name"] == "Umbrella Health — support add-on" and deal["amount"] == 6000.0
    assert deal["stage"] == "Proposal" and deal["owner"] == "Max Weber"
