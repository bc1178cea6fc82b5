"""What people actually say, and what the plan must contain: one row per phrasing."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import WORKSPACE, Conversation

pytestmark = pytest.mark.anyio

ISSUE = {i["identifier"]: i["id"] for i in WORKSPACE["linear"]["issues"]}
PERSON = {p["key"]: p["id"] for p in WORKSPACE["attio"]["people"]}
COMPANY = {c["key"]: c["id"] for c in WORKSPACE["attio"]["companies"]}
DEAL = {d["key"]: d["id"] for d in WORKSPACE["attio"]["deals"]}
LABEL = {x["name"]: x["id"] for x in WORKSPACE["linear"]["labels"]}
LUSER = {u["email"].split("@")[0]: u["id"] for u in WORKSPACE["linear"]["users"]}

CASES: list[tuple[str, str, list[str], dict[str, Any]]] = [
    # (text, status, operations, fragments that must appear in the actions' arguments)
    (
        "ну короче это закрой пожалуйста eng 101",
        "draft_pending",
        ["linear:complete_issue"],
        {"issueId": ISSUE["ENG-101"]},
    ),
    (
        "I'm done with the iOS push notifications",
        "draft_pending",
        ["linear:complete_issue"],
        {"issueId": ISSUE["ENG-105"]},
    ),
    (
        "Альфа-Лизинг отказались",
        "draft_pending",
        ["attio:update_deal"],
        {"record_id": DEAL["alfa-expansion"], "stage": "Lost"},
    ),
    (
        "Globex signed! move the deal to won and create the onboarding tasks",
        "draft_pending",
        ["attio:update_deal"] + ["linear:create_issue"] * 4,
        {"record_id": DEAL["globex-pilot"]},
    ),
    (
        "Ромашка подписала — переведи сделку в Won и заведи онбординг",
        "draft_pending",
        ["attio:update_deal"] + ["linear:create_issue"] * 4,
        {"title": "Kickoff call with Ромашка"},
    ),
    (
        "Ивану Петрову позвонить завтра в 11",
        "draft_pending",
        ["attio:create_task"],
        {"target_record_id": PERSON["ivan-petrov"], "deadline_at": "2026-11-26T11:00:00+03:00"},
    ),
    ("Поменяй должность Джона Смита на CEO", "draft_pending", ["attio:update_record"], {"job_title": "CEO"}),
    (
        "у Globex новый домен globex.io",
        "draft_pending",
        ["attio:update_record"],
        {"record_id": COMPANY["globex"]},
    ),
    (
        "передай сделку Globex pilot Олегу",
        "draft_pending",
        ["attio:update_deal"],
        {"owner": "oleg@northwind.dev"},
    ),
    (
        "сумма сделки Globex pilot теперь 35000 USD",
        "draft_pending",
        ["attio:update_deal"],
        {"currency_value": 35000},
    ),
    (
        "create a project Partner Portal in ENG",
        "draft_pending",
        ["linear:create_project"],
        {"name": "Partner Portal"},
    ),
    (
        "добавь метку security к ENG-104",
        "draft_pending",
        ["linear:update_issue"],
        {"labelIds": LABEL["security"]},
    ),
    (
        "отложи ENG-104 на следующую неделю",
        "draft_pending",
        ["linear:update_issue"],
        {"dueDate": "2026-11-30"},
    ),
    (
        "Разбей ENG-104 на подзадачи: собрать примеры, описать эндпоинты, ревью",
        "draft_pending",
        ["linear:create_issue"] * 3,
        {"parentId": ISSUE["ENG-104"]},
    ),
    (
        "поставь встречу с Джейн на пятницу в 15:00 на час",
        "draft_pending",
        ["googlecalendar:create_event"],
        {"start_datetime": "2026-11-27T15:00:00+03:00", "summary": "Встреча с Джейн"},
    ),
    ("какие стадии есть в воронке?", "answered", ["attio:list_stages"], {}),
    ("кто есть в CRM?", "answered", ["attio:list_members"], {}),
    ("who is in Linear?", "answered", ["linear:list_users"], {}),
    ("какие статусы у ENG?", "answered", ["linear:list_states"], {}),
    ("какие метки есть в Linear", "answered", ["linear:list_labels"], {}),
    ("list projects", "answered", ["linear:list_projects"], {}),
    ("какие команды в Linear", "answered", ["linear:list_teams"], {}),
    (
        "what's left in the Q1 launch?",
        "answered",
        ["linear:list_issues"],
        {"project_id": "a60f9910-bf0f-5981-858e-d202a5138b4d"},
    ),
    (
        "задачи команды Design",
        "answered",
        ["linear:list_issues"],
        {"team_id": "f3215408-2152-5d9a-8ae1-d0cea98c158a"},
    ),
    ("заметки по Initech", "answered", ["attio:list_notes"], {"parent_record_id": COMPANY["initech"]}),
    ("какие задачи по Ромашке", "answered", ["attio:list_tasks"], {"linked_record_id": COMPANY["romashka"]}),
    ("find companies with acme", "answered", ["attio:search_records"], {"query": "acme"}),
    ("контакты из Ромашки", "answered", ["attio:search_records"], {"company": COMPANY["romashka"]}),
    (
        "что у меня в календаре завтра?",
        "answered",
        ["googlecalendar:list_events"],
        {"timeMin": "2026-11-26T00:00:00+03:00"},
    ),
    ("создай задачу в Jira", "needs_clarification", [], {}),
    # no CRM task exists; the one Linear issue about Ромашка is meant (the draft preview names it)
    (
        "отметь задачу по Ромашке выполненной",
        "draft_pending",
        ["linear:complete_issue"],
        {"issueId": ISSUE["CS-13"]},
    ),
    ("напомни мне позвонить Ивану завтра", "needs_clarification", [], {}),
    # a state after "to" is not a person; the one who "took it" is the assignee, not me
    ("Move ENG-102 to In Progress", "draft_pending", ["linear:update_issue"], {"issueId": ISSUE["ENG-102"]}),
    ("Олег взял ENG-103 на себя", "draft_pending", ["linear:update_issue"], {"assigneeId": LUSER["oleg"]}),
    ("give ENG-104 to Max", "draft_pending", ["linear:update_issue"], {"assigneeId": LUSER["max"]}),
    ("give me my Linear issues", "answered", ["linear:list_issues"], {}),
    # a question after a comma asks; it does not close the second issue
    (
        "Закрой ENG-101, что там с ENG-102?",
        "draft_pending",
        ["linear:complete_issue", "linear:get_issue"],
        {"issueId": ISSUE["ENG-101"]},
    ),
    (
        "Move ENG-105 to In Review and comment that the build is on TestFlight",
        "draft_pending",
        ["linear:update_issue", "linear:comment_issue"],
        {"body": "the build is on TestFlight"},
    ),
    (
        "слушай поставь мне блок послезавтра в девять утра на девяносто минут",
        "draft_pending",
        ["googlecalendar:create_event"],
        {"start_datetime": "2026-11-27T09:00:00+03:00"},
    ),
    ("pls move the pilot deal to won", "needs_clarification", [], {}),
    (
        "Schedule a QBR meeting with Initech tomorrow at half past two in the afternoon, one hour",
        "draft_pending",
        ["googlecalendar:create_event"],
        {"start_datetime": "2026-11-26T14:30:00+03:00", "summary": "QBR meeting with Initech"},
    ),
    (
        "Push ENG-105's due date to December 18",
        "draft_pending",
        ["linear:update_issue"],
        {"dueDate": "2026-12-18"},
    ),
    ("Li Wei теперь CEO, обнови в CRM", "draft_pending", ["attio:update_record"], {"job_title": "CEO"}),
]


def _flat(value: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((k, v))
            out += _flat(v)
    elif isinstance(value, list):
        for v in value:
            out.append(("", v))
            out += _flat(v)
    return out


@pytest.mark.parametrize(("text", "status", "operations", "fragments"), CASES, ids=[c[0][:40] for c in CASES])
async def test_the_plan_matches_what_was_meant(
    anna: Conversation, text: str, status: str, operations: list[str], fragments: dict[str, Any]
) -> None:
    r = await anna.say(text)
    assert r["status"] == status, (r["status"], r.get("clarifying_question"), r.get("user_message"))
    actions = r["plan"]["actions"]
    assert sorted(f"{a['toolkit']}:{a['operation']}" for a in actions) == sorted(operations)
    pairs = _flat([a["args"] for a in actions])
    for key, value in fragments.items():
        assert any(k == key and (v == value or (isinstance(v, list) and value in v)) for k, v in pairs), (
            key,
            value,
            actions,
        )


async def test_a_task_for_jira_goes_to_linear_only_when_the_person_says_so(anna: Conversation) -> None:
    r = await anna.say("создай задачу в Jira: обновить документацию")
    assert r["status"] == "needs_clarification" and r["plan"]["domain"] == "unknown"
    r = await anna.call("pick", plan_id=r["plan"]["plan_id"], question_id=r["question_id"], value="linear")
    assert r["status"] == "draft_pending"
    assert r["plan"]["actions"][0]["args"]["variables"]["input"]["title"] == "обновить документацию"


async def test_a_plan_whose_call_does_not_fit_the_tool_schema_is_refused(
    anna: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    from planner.actions import find
    from toolkits._ops import action
    from toolkits.linear import OPERATIONS

    def broken_read(ident: str) -> Any:  # as if a rule built the arguments wrong
        return action(OPERATIONS["get_issue"], {"issue_id": 101, "bogus": True}, [ident], "read")

    monkeypatch.setattr(find.linear, "get_issue", broken_read)
    r = await anna.say("Покажи ENG-101")
    assert r["ok"] is False and r["status"] == "safe_fail"
    assert "LINEAR_GET_LINEAR_ISSUE" in r["user_message"] and "bogus" in r["user_message"]
