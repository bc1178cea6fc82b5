from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolkits.base import Backend
from toolkits.errors import InvalidArguments, UnknownTool
from toolkits.sandbox import SandboxBackend
from toolkits.schemas import known_slugs, tool_schema, validate_arguments

ACME = "b0a22383-700d-505a-99c4-e69e9405c278"
GLOBEX = "13003857-c288-519d-be16-c1790741a9dd"
JOHN = "3dbaa42b-7e8d-5a25-b269-ab7e1aef79b9"
ACME_DEAL = "dce59e09-a33e-5f53-a154-8a1e072e2620"
WON_STAGE = "fcd055a2-8bcb-5751-9031-fd123b2eab7c"
ANNA_MEMBER = "6f224b33-59e6-57db-8871-f87b53abf640"
OLEG_MEMBER = "e5362764-79eb-5922-8d7b-23917c1396b4"
ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
CS = "9e2bf746-330f-5caa-a0fc-209158789100"
ENG_TODO = "c0209171-ca56-52cf-a72b-a54aafb7ec6a"
ENG_DONE = "75804e1e-4ed1-5bf2-b19f-976e90385b3b"
ONBOARDING_PROJECT = "746e1b95-5b01-5e14-a68f-eebf42011eac"
MOBILE_PROJECT = "e932604c-9727-5ad8-935a-4d4d73d1f4a3"
BUG_LABEL = "cf329843-17de-5285-97a4-eabc9a3c41b7"
DOCS_LABEL = "92f69e0f-13fb-5757-b4c7-1bade9b44953"
OLEG_USER = "d6b6642c-1bce-5839-a29c-a7c4d4d3b505"
ISSUE_CREATE = (
    "mutation IssueCreate($input: IssueCreateInput!) "
    "{ issueCreate(input: $input) { success issue { id identifier url } } }"
)
ISSUE_QUERY = "query Issue($id: String!) { issue(id: $id) { id identifier title } }"

VALID_CALLS: dict[str, dict[str, Any]] = {
    "ATTIO_SEARCH_RECORDS": {"query": "acme", "objects": ["companies", "people"], "request_as": "workspace"},
    "ATTIO_FIND_RECORD": {"object_id": "companies", "record_id": ACME},
    "ATTIO_QUERY_RECORDS": {"object": "deals", "filter": {"stage": "Won"}, "limit": 10},
    "ATTIO_CREATE_RECORD": {"object_type": "deals", "values": {"name": "Globex expansion", "stage": "Lead"}},
    "ATTIO_UPDATE_RECORD": {"object_type": "deals", "record_id": ACME_DEAL, "values": {"stage": "Won"}},
    "ATTIO_ASSERT_COMPANY": {"matching_attribute": "domains", "domain": "hooli.com", "name": "Hooli"},
    "ATTIO_ASSERT_PERSON": {
        "matching_attribute": "email_addresses",
        "values": {"email_addresses": ["gavin@hooli.com"], "name": "Gavin Belson"},
    },
    "ATTIO_CREATE_NOTE": {
        "parent_object": "companies",
        "parent_record_id": ACME,
        "title": "Kickoff",
        "content": "Signed",
    },
    "ATTIO_CREATE_TASK": {"content": "Send the contract", "deadline_at": "2026-11-27T12:00:00+03:00"},
    "ATTIO_UPDATE_TASK": {"task_id": "<task>", "data": {"is_completed": True}},
    "ATTIO_DELETE_TASK": {"task_id": "<task>"},
    "ATTIO_DELETE_RECORD": {"object_type": "people", "record_id": JOHN},
    "ATTIO_LIST_ATTRIBUTE_STATUSES": {"target": "objects", "identifier": "deals", "attribute": "stage"},
    "ATTIO_LIST_WORKSPACE_MEMBERS": {},
    "ATTIO_LIST_NOTES": {"parent_object": "companies", "parent_record_id": ACME},
    "ATTIO_GET_V2_TASKS": {"is_completed": False},
    "LINEAR_SEARCH_ISSUES": {"query": "login"},
    "LINEAR_GET_LINEAR_ISSUE": {"issue_id": "ENG-101"},
    "LINEAR_LIST_ISSUES_BY_TEAM_ID": {"team_id": ENG},
    "LINEAR_LIST_LINEAR_ISSUES": {"project_id": MOBILE_PROJECT},
    "LINEAR_LIST_LINEAR_TEAMS": {},
    "LINEAR_LIST_LINEAR_PROJECTS": {},
    "LINEAR_LIST_LINEAR_STATES": {"team_id": ENG},
    "LINEAR_LIST_LINEAR_LABELS": {},
    "LINEAR_LIST_LINEAR_USERS": {},
    "LINEAR_GET_CURRENT_USER": {},
    "LINEAR_CREATE_LINEAR_ISSUE": {
        "team_id": ENG,
        "title": "Add SSO",
        "priority": 2,
        "label_ids": [BUG_LABEL],
    },
    "LINEAR_UPDATE_ISSUE": {"issueId": "ENG-101", "stateId": ENG_DONE},
    "LINEAR_CREATE_LINEAR_COMMENT": {"issueId": "ENG-101", "body": "Deployed"},
    "LINEAR_DELETE_LINEAR_ISSUE": {"issue_id": "ENG-103"},
    "LINEAR_CREATE_LINEAR_PROJECT": {"name": "Acme rollout", "team_ids": [CS]},
    "LINEAR_RUN_QUERY_OR_MUTATION": {"query_or_mutation": ISSUE_QUERY, "variables": {"id": "ENG-102"}},
    "GOOGLECALENDAR_CREATE_EVENT": {"start_datetime": "2026-11-26T14:00:00", "summary": "Acme sync"},
    "GOOGLECALENDAR_EVENTS_LIST": {"timeMin": "2026-11-25T00:00:00+03:00"},
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def sandbox() -> AsyncIterator[SandboxBackend]:
    backend = SandboxBackend()
    yield backend
    await backend.aclose()


async def ok(backend: SandboxBackend, slug: str, args: dict[str, Any]) -> Any:
    result = await backend.execute(slug, args)
    assert result["successful"], result["error"]
    assert result["error"] is None
    return result["data"]


async def failure(backend: SandboxBackend, slug: str, args: dict[str, Any]) -> str:
    result = await backend.execute(slug, args)
    assert result["successful"] is False
    assert result["data"] == {}
    assert isinstance(result["error"], str)
    return result["error"]


async def new_task_id(backend: SandboxBackend) -> str:
    data = await ok(backend, "ATTIO_CREATE_TASK", {"content": "Follow up"})
    task_id: str = data["data"]["id"]["task_id"]
    return task_id


async def deal_stage(backend: SandboxBackend, record_id: str) -> str:
    data = await ok(backend, "ATTIO_FIND_RECORD", {"object_id": "deals", "record_id": record_id})
    title: str = data["data"]["values"]["stage"][0]["status"]["title"]
    return title


def test_the_sandbox_implements_the_backend_port() -> None:
    backend = SandboxBackend()
    assert isinstance(backend, Backend)
    assert backend.name == "sandbox"
    asyncio.run(backend.aclose())


def test_every_slug_of_the_snapshot_has_a_valid_example_call() -> None:
    assert set(VALID_CALLS) == known_slugs()


@pytest.mark.anyio
@pytest.mark.parametrize("slug", sorted(VALID_CALLS))
async def test_every_slug_executes_successfully_with_valid_arguments(
    sandbox: SandboxBackend, slug: str
) -> None:
    args = dict(VALID_CALLS[slug])
    if args.get("task_id") == "<task>":
        args["task_id"] = await new_task_id(sandbox)
    result = await sandbox.execute(slug, args)
    assert result == {"data": result["data"], "error": None, "successful": True}
    assert sandbox.calls[-1] == (slug, args)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("slug", "args"),
    [
        ("LINEAR_CREATE_LINEAR_ISSUE", {"title": "No team"}),
        ("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": 42}),
        ("LINEAR_SEARCH_ISSUES", {"query": "login", "team": "ENG"}),
        ("ATTIO_LIST_ATTRIBUTE_STATUSES", {"target": "object", "identifier": "deals", "attribute": "stage"}),
        (
            "ATTIO_SEARCH_RECORDS",
            {"query": "acme", "objects": ["companies"], "request_as": {"type": "workspace"}},
        ),
    ],
)
async def test_arguments_outside_the_schema_are_refused_before_anything_runs(
    sandbox: SandboxBackend, slug: str, args: dict[str, Any]
) -> None:
    before = await ok(sandbox, "LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 250})
    with pytest.raises(InvalidArguments) as raised:
        await sandbox.execute(slug, args)
    assert raised.value.slug == slug
    assert raised.value.problems
    assert await ok(sandbox, "LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 250}) == before


@pytest.mark.anyio
async def test_an_unknown_slug_raises_unknown_tool(sandbox: SandboxBackend) -> None:
    with pytest.raises(UnknownTool):
        await sandbox.execute("LINEAR_CREATE_ISSUE", {"title": "x"})


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("slug", "args", "message"),
    [
        ("ATTIO_FIND_RECORD", {"object_id": "deals", "record_id": str(uuid.UUID(int=1))}, "Record not found"),
        (
            "ATTIO_UPDATE_RECORD",
            {"object_type": "deals", "record_id": "nope", "values": {}},
            "Record not found",
        ),
        (
            "ATTIO_CREATE_NOTE",
            {
                "parent_object": "deals",
                "parent_record_id": str(uuid.UUID(int=2)),
                "title": "t",
                "content": "c",
            },
            "Record not found",
        ),
        ("ATTIO_UPDATE_TASK", {"task_id": "missing", "data": {"is_completed": True}}, "Task not found"),
        ("ATTIO_QUERY_RECORDS", {"object": "invoices"}, "does not exist"),
        ("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-999"}, "Issue not found"),
        ("LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": "OPS"}, "Team not found"),
        ("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": str(uuid.UUID(int=3)), "title": "x"}, "Team not found"),
        (
            "LINEAR_CREATE_LINEAR_ISSUE",
            {"team_id": ENG, "title": "x", "project_id": ONBOARDING_PROJECT},
            "not in team",
        ),
        ("LINEAR_UPDATE_ISSUE", {"issueId": "ENG-101", "stateId": "nope"}, "does not belong to team"),
        ("LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": "{ viewer { id } }"}, "unsupported query"),
        ("GOOGLECALENDAR_EVENTS_LIST", {"calendarId": "team@northwind.dev"}, "Calendar not found"),
        ("GOOGLECALENDAR_CREATE_EVENT", {"start_datetime": "tomorrow"}, "ISO 8601"),
    ],
)
async def test_business_failures_come_back_as_unsuccessful_results(
    sandbox: SandboxBackend, slug: str, args: dict[str, Any], message: str
) -> None:
    assert message in await failure(sandbox, slug, args)


@pytest.mark.anyio
async def test_a_write_is_visible_to_a_later_read_and_after_reopening_the_file(tmp_path: Path) -> None:
    db = tmp_path / "planner.db"
    first = SandboxBackend(db)
    await ok(
        first,
        "ATTIO_UPDATE_RECORD",
        {"object_type": "deals", "record_id": ACME_DEAL, "values": {"stage": "Won"}},
    )
    assert await deal_stage(first, ACME_DEAL) == "Won"
    await first.aclose()

    reopened = SandboxBackend(db)
    assert await deal_stage(reopened, ACME_DEAL) == "Won"
    await reopened.aclose()

    fresh = SandboxBackend(tmp_path / "other.db")
    assert await deal_stage(fresh, ACME_DEAL) == "Qualification"
    await fresh.aclose()


@pytest.mark.anyio
async def test_two_backends_on_one_file_see_each_others_writes(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    left, right = SandboxBackend(db), SandboxBackend(db)
    assert await deal_stage(right, ACME_DEAL) == "Qualification"
    await ok(
        left,
        "ATTIO_UPDATE_RECORD",
        {"object_type": "deals", "record_id": ACME_DEAL, "values": {"stage": "Lost"}},
    )
    assert await deal_stage(right, ACME_DEAL) == "Lost"
    created = await ok(right, "LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "From the right"})
    seen = await ok(left, "LINEAR_GET_LINEAR_ISSUE", {"issue_id": created["identifier"]})
    assert seen["id"] == created["id"]
    await left.aclose()
    await right.aclose()


@pytest.mark.anyio
async def test_a_graphql_create_with_a_client_id_creates_exactly_one_issue(sandbox: SandboxBackend) -> None:
    issue_id = "2f1b7c9e-4a3d-4e5f-8a6b-7c8d9e0f1a2b"
    args = {
        "query_or_mutation": ISSUE_CREATE,
        "variables": {"input": {"id": issue_id, "teamId": CS, "title": "Kickoff call with Acme"}},
    }
    created = await ok(sandbox, "LINEAR_RUN_QUERY_OR_MUTATION", args)
    assert created["issueCreate"]["success"] is True
    assert created["issueCreate"]["issue"]["id"] == issue_id
    assert created["issueCreate"]["issue"]["identifier"] == "CS-16"

    assert "already exists" in await failure(sandbox, "LINEAR_RUN_QUERY_OR_MUTATION", args)
    found = await ok(sandbox, "LINEAR_SEARCH_ISSUES", {"query": "kickoff acme"})
    assert [issue["id"] for issue in found["issues"]] == [issue_id]
    read_back = await ok(
        sandbox,
        "LINEAR_RUN_QUERY_OR_MUTATION",
        {"query_or_mutation": ISSUE_QUERY, "variables": {"id": issue_id}},
    )
    assert read_back["issue"]["identifier"] == "CS-16"


@pytest.mark.anyio
async def test_a_graphql_issue_query_for_an_unknown_id_answers_linears_not_found_error(
    sandbox: SandboxBackend,
) -> None:
    args = {"query_or_mutation": ISSUE_QUERY, "variables": {"id": str(uuid.uuid4())}}
    wire = await sandbox.execute_wire("LINEAR_RUN_QUERY_OR_MUTATION", args)
    assert wire["successful"] and wire["data"]["data"] is None
    assert [e["message"] for e in wire["data"]["errors"]] == ["Entity not found: Issue"]
    read = await sandbox.execute("LINEAR_RUN_QUERY_OR_MUTATION", args)
    assert not read["successful"] and "Entity not found" in (read["error"] or "")


@pytest.mark.anyio
async def test_a_graphql_create_refuses_fields_linear_does_not_define(sandbox: SandboxBackend) -> None:
    args = {
        "query_or_mutation": ISSUE_CREATE,
        "variables": {"input": {"teamId": ENG, "title": "x", "team": "ENG"}},
    }
    assert "IssueCreateInput" in await failure(sandbox, "LINEAR_RUN_QUERY_OR_MUTATION", args)


@pytest.mark.anyio
@pytest.mark.parametrize("stage", ["Won", "won", WON_STAGE, {"status": "Won"}, [{"status": WON_STAGE}]])
async def test_a_deal_stage_can_be_written_by_title_or_by_status_id(
    sandbox: SandboxBackend, stage: Any
) -> None:
    args = {"object_type": "deals", "record_id": ACME_DEAL, "values": {"stage": stage}}
    data = await ok(sandbox, "ATTIO_UPDATE_RECORD", args)
    status = data["data"]["values"]["stage"][0]["status"]
    assert (status["title"], status["id"]["status_id"]) == ("Won", WON_STAGE)


@pytest.mark.anyio
async def test_an_unknown_stage_is_refused_and_changes_nothing(sandbox: SandboxBackend) -> None:
    args = {"object_type": "deals", "record_id": ACME_DEAL, "values": {"name": "Renamed", "stage": "Signed"}}
    assert await failure(sandbox, "ATTIO_UPDATE_RECORD", args) == "Unknown stage 'Signed'"
    data = await ok(sandbox, "ATTIO_FIND_RECORD", {"object_id": "deals", "record_id": ACME_DEAL})
    assert data["data"]["values"]["name"][0]["value"] == "Acme Corp — annual license"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("query_filter", "expected"),
    [
        ({"stage": "Won"}, ["Initech renewal"]),
        ({"stage": {"$eq": WON_STAGE}}, ["Initech renewal"]),
        ({"owner": "oleg@northwind.dev"}, ["Acme Logistics — pilot", "Альфа-Лизинг — расширение"]),
        ({"owner": OLEG_MEMBER, "stage": "Lead"}, ["Acme Logistics — pilot"]),
        ({"associated_company": GLOBEX}, ["Globex pilot"]),
        ({"name": {"$contains": "acme"}}, ["Acme Corp — annual license", "Acme Logistics — pilot"]),
        ({"stage": {"$in": ["Won", "Lost"]}}, ["Initech renewal"]),
        ({"$or": [{"stage": "Won"}, {"name": "Globex pilot"}]}, ["Globex pilot", "Initech renewal"]),
        ({"$and": [{"owner": ANNA_MEMBER}, {"value": {"currency_code": "RUB"}}]}, ["Ромашка — внедрение"]),
    ],
)
async def test_deal_queries_understand_shorthand_and_operators(
    sandbox: SandboxBackend, query_filter: dict[str, Any], expected: list[str]
) -> None:
    data = await ok(sandbox, "ATTIO_QUERY_RECORDS", {"object": "deals", "filter": query_filter})
    assert [record["values"]["name"][0]["value"] for record in data["data"]] == expected


@pytest.mark.anyio
async def test_query_results_can_be_sorted_and_paged(sandbox: SandboxBackend) -> None:
    args = {
        "object": "deals",
        "sorts": [{"attribute": "value", "direction": "desc"}],
        "limit": 2,
        "offset": 1,
    }
    data = await ok(sandbox, "ATTIO_QUERY_RECORDS", args)
    assert [r["values"]["value"][0]["currency_value"] for r in data["data"]] == [800000, 50000]


@pytest.mark.anyio
async def test_records_follow_the_attio_shape_without_fixture_only_fields(sandbox: SandboxBackend) -> None:
    data = await ok(sandbox, "ATTIO_FIND_RECORD", {"object_id": "people", "record_id": JOHN})
    person = data["data"]
    assert person["id"] == {"workspace_id": "northwind", "object_id": "people", "record_id": JOHN}
    assert person["web_url"] == f"https://app.attio.com/northwind/people/record/{JOHN}"
    values = person["values"]
    assert values["name"][0]["full_name"] == "John Smith"
    assert values["email_addresses"][0]["email_address"] == "john@acme.com"
    assert values["company"][0]["target_record_id"] == ACME
    assert not {"name_ru", "key"} & set(values)


@pytest.mark.anyio
async def test_a_record_found_by_attributes_comes_back_as_a_list(sandbox: SandboxBackend) -> None:
    data = await ok(
        sandbox, "ATTIO_FIND_RECORD", {"object_id": "companies", "attributes": {"domains": "globex.com"}}
    )
    assert [record["id"]["record_id"] for record in data["data"]] == [GLOBEX]


@pytest.mark.anyio
async def test_search_matches_names_domains_emails_and_every_query_word(sandbox: SandboxBackend) -> None:
    args = {"objects": ["companies", "people"], "request_as": "workspace"}
    by_email = await ok(sandbox, "ATTIO_SEARCH_RECORDS", {**args, "query": "romashka.ru"})
    assert [hit["record_text"] for hit in by_email["data"]] == ["Ромашка", "Ivan Petrov"]
    by_words = await ok(sandbox, "ATTIO_SEARCH_RECORDS", {**args, "query": "smith john"})
    assert [hit["object_slug"] for hit in by_words["data"]] == ["people"]


@pytest.mark.anyio
async def test_creating_a_deal_accepts_simplified_values(sandbox: SandboxBackend) -> None:
    values = {
        "name": "Globex expansion",
        "stage": "Proposal",
        "value": 25000,
        "owner": "max@northwind.dev",
        "associated_company": [{"target_object": "companies", "target_record_id": GLOBEX}],
        "associated_people": [
            {"target_object": "people", "target_record_id": "495423ad-3d25-578b-9209-13ca9250e4eb"}
        ],
    }
    data = await ok(sandbox, "ATTIO_CREATE_RECORD", {"object_type": "deals", "values": values})
    created = data["data"]["values"]
    assert created["value"][0]["currency_value"] == 25000
    assert created["owner"][0]["referenced_actor_id"] == "db2d0d32-0fde-5e78-b664-2dc36e13b7b7"
    assert created["associated_company"][0]["target_record_id"] == GLOBEX
    listed = await ok(
        sandbox, "ATTIO_QUERY_RECORDS", {"object": "deals", "filter": {"associated_company": GLOBEX}}
    )
    assert [r["values"]["name"][0]["value"] for r in listed["data"]] == ["Globex pilot", "Globex expansion"]


@pytest.mark.anyio
async def test_a_duplicate_company_domain_is_a_uniqueness_conflict(sandbox: SandboxBackend) -> None:
    args = {"object_type": "companies", "values": {"name": "Acme again", "domains": ["acme.com"]}}
    assert "Uniqueness conflict" in await failure(sandbox, "ATTIO_CREATE_RECORD", args)


@pytest.mark.anyio
async def test_asserting_a_company_twice_by_domain_keeps_one_record(sandbox: SandboxBackend) -> None:
    args = {"matching_attribute": "domains", "domain": "hooli.com", "name": "Hooli"}
    first = await ok(sandbox, "ATTIO_ASSERT_COMPANY", args)
    second = await ok(sandbox, "ATTIO_ASSERT_COMPANY", {**args, "name": "Hooli XYZ"})
    assert first["data"]["id"] == second["data"]["id"]
    assert second["data"]["values"]["name"][0]["value"] == "Hooli XYZ"
    found = await ok(
        sandbox, "ATTIO_QUERY_RECORDS", {"object": "companies", "filter": {"domains": "hooli.com"}}
    )
    assert len(found["data"]) == 1
    existing = await ok(
        sandbox, "ATTIO_ASSERT_COMPANY", {"matching_attribute": "domains", "domains": ["acme.com"]}
    )
    assert existing["data"]["id"]["record_id"] == ACME


@pytest.mark.anyio
async def test_asserting_a_person_by_email_updates_the_existing_record(sandbox: SandboxBackend) -> None:
    args = {
        "matching_attribute": "email_addresses",
        "values": {"email_addresses": [{"email_address": "john@acme.com"}], "job_title": "CEO"},
    }
    data = await ok(sandbox, "ATTIO_ASSERT_PERSON", args)
    assert data["data"]["id"]["record_id"] == JOHN
    assert data["data"]["values"]["job_title"][0]["value"] == "CEO"


@pytest.mark.anyio
async def test_notes_are_listed_per_parent_newest_first(sandbox: SandboxBackend) -> None:
    for title in ("First", "Second"):
        note = {"parent_object": "companies", "parent_record_id": ACME, "title": title, "content": "..."}
        created = await ok(sandbox, "ATTIO_CREATE_NOTE", note)
        assert created["data"]["parent_record_id"] == ACME
    await ok(sandbox, "ATTIO_CREATE_NOTE", {**note, "parent_record_id": GLOBEX, "title": "Other"})
    listed = await ok(sandbox, "ATTIO_LIST_NOTES", {"parent_object": "companies", "parent_record_id": ACME})
    assert [note["title"] for note in listed["data"]] == ["Second", "First"]


@pytest.mark.anyio
async def test_a_task_can_be_created_completed_filtered_and_deleted(sandbox: SandboxBackend) -> None:
    task = {
        "content": "Send the contract",
        "linked_records": [{"target_object": "deals", "target_record_id": ACME_DEAL}],
        "assignees": [{"referenced_actor_type": "workspace-member", "referenced_actor_id": ANNA_MEMBER}],
    }
    created = (await ok(sandbox, "ATTIO_CREATE_TASK", task))["data"]
    assert created["linked_records"] == [{"target_object_id": "deals", "target_record_id": ACME_DEAL}]
    task_id = created["id"]["task_id"]
    done = await ok(sandbox, "ATTIO_UPDATE_TASK", {"task_id": task_id, "data": {"is_completed": True}})
    assert done["data"]["is_completed"] is True
    by_deal = await ok(
        sandbox, "ATTIO_GET_V2_TASKS", {"linked_object": "deals", "linked_record_id": ACME_DEAL}
    )
    assert [t["id"]["task_id"] for t in by_deal["data"]] == [task_id]
    assert (await ok(sandbox, "ATTIO_GET_V2_TASKS", {"is_completed": False}))["data"] == []
    assert (await ok(sandbox, "ATTIO_GET_V2_TASKS", {"assignee": "anna@northwind.dev"}))["data"][0][
        "id"
    ] == created["id"]
    await ok(sandbox, "ATTIO_DELETE_TASK", {"task_id": task_id})
    assert (await ok(sandbox, "ATTIO_GET_V2_TASKS", {}))["data"] == []


@pytest.mark.anyio
async def test_a_task_assigned_to_a_stranger_is_refused(sandbox: SandboxBackend) -> None:
    task = {
        "content": "x",
        "assignees": [{"referenced_actor_type": "workspace-member", "referenced_actor_id": "nobody"}],
    }
    assert "Workspace member not found" in await failure(sandbox, "ATTIO_CREATE_TASK", task)


@pytest.mark.anyio
async def test_deleting_a_record_removes_it_and_its_notes(sandbox: SandboxBackend) -> None:
    note = {"parent_object": "people", "parent_record_id": JOHN, "title": "Call", "content": "..."}
    await ok(sandbox, "ATTIO_CREATE_NOTE", note)
    await ok(sandbox, "ATTIO_DELETE_RECORD", {"object_type": "people", "record_id": JOHN})
    assert "Record not found" in await failure(
        sandbox, "ATTIO_FIND_RECORD", {"object_id": "people", "record_id": JOHN}
    )
    assert (await ok(sandbox, "ATTIO_LIST_NOTES", {"parent_record_id": JOHN}))["data"] == []
    deal = await ok(sandbox, "ATTIO_FIND_RECORD", {"object_id": "deals", "record_id": ACME_DEAL})
    assert deal["data"]["values"]["associated_people"] == []


@pytest.mark.anyio
async def test_stages_and_members_are_listed_in_attio_shape(sandbox: SandboxBackend) -> None:
    args = {"target": "objects", "identifier": "deals", "attribute": "stage"}
    stages = (await ok(sandbox, "ATTIO_LIST_ATTRIBUTE_STATUSES", args))["data"]
    assert [s["title"] for s in stages] == ["Lead", "Qualification", "Proposal", "Negotiation", "Won", "Lost"]
    assert stages[4]["id"]["status_id"] == WON_STAGE
    members = (await ok(sandbox, "ATTIO_LIST_WORKSPACE_MEMBERS", {}))["data"]
    assert members[0]["id"]["workspace_member_id"] == ANNA_MEMBER
    assert (members[0]["first_name"], members[0]["email_address"]) == ("Anna", "anna@northwind.dev")


@pytest.mark.anyio
async def test_a_new_issue_takes_the_next_number_and_the_todo_state(sandbox: SandboxBackend) -> None:
    first = await ok(sandbox, "LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "One"})
    second = await ok(
        sandbox, "LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "Two", "state_id": ENG_DONE}
    )
    assert (first["identifier"], second["identifier"]) == ("ENG-107", "ENG-108")
    assert first["state"] == {"id": ENG_TODO, "name": "Todo", "type": "unstarted"}
    assert second["state"]["name"] == "Done"
    assert first["url"] == "https://linear.app/northwind/issue/ENG-107"
    assert first["team"] == {"id": ENG, "key": "ENG", "name": "Engineering"}


@pytest.mark.anyio
async def test_updating_an_issue_overwrites_the_given_fields_only(sandbox: SandboxBackend) -> None:
    args = {"issueId": "ENG-101", "labelIds": [DOCS_LABEL], "dueDate": "2026-12-01", "priority": 1}
    issue = await ok(sandbox, "LINEAR_UPDATE_ISSUE", args)
    assert issue["labels"] == [{"id": DOCS_LABEL, "name": "docs"}]
    assert (issue["dueDate"], issue["priority"], issue["priorityLabel"]) == ("2026-12-01", 1, "Urgent")
    assert issue["assignee"]["id"] == OLEG_USER
    assert issue["title"] == "Fix login timeout on slow networks"


@pytest.mark.anyio
async def test_an_archived_issue_leaves_searches_unless_archived_ones_are_asked_for(
    sandbox: SandboxBackend,
) -> None:
    archived = await ok(sandbox, "LINEAR_DELETE_LINEAR_ISSUE", {"issue_id": "ENG-103"})
    assert archived["success"] is True and archived["issue"]["archivedAt"]
    again = await ok(sandbox, "LINEAR_DELETE_LINEAR_ISSUE", {"issue_id": "ENG-103"})
    assert again["issue"]["archivedAt"] == archived["issue"]["archivedAt"]
    assert (await ok(sandbox, "LINEAR_SEARCH_ISSUES", {"query": "pdf export"}))["issues"] == []
    with_archived = await ok(
        sandbox, "LINEAR_SEARCH_ISSUES", {"query": "pdf export", "include_archived": True}
    )
    assert [i["identifier"] for i in with_archived["issues"]] == ["ENG-103"]


@pytest.mark.anyio
async def test_a_comment_points_back_to_its_issue(sandbox: SandboxBackend) -> None:
    comment = await ok(sandbox, "LINEAR_CREATE_LINEAR_COMMENT", {"issueId": "CS-12", "body": "Agenda sent"})
    assert comment["issue"]["identifier"] == "CS-12"
    assert comment["url"].startswith("https://linear.app/northwind/issue/CS-12#comment-")
    issue = await ok(sandbox, "LINEAR_GET_LINEAR_ISSUE", {"issue_id": comment["issue"]["id"]})
    assert [c["body"] for c in issue["comments"]["nodes"]] == ["Agenda sent"]
    wire = await sandbox.execute_wire("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "CS-12"})
    assert wire["data"]["issue"]["comments"]["nodes"][-1]["body"] == "Agenda sent"  # issue.comments.nodes


@pytest.mark.anyio
async def test_linear_lists_filter_and_page(sandbox: SandboxBackend) -> None:
    mobile = await ok(sandbox, "LINEAR_LIST_LINEAR_ISSUES", {"project_id": MOBILE_PROJECT})
    assert [i["identifier"] for i in mobile["issues"]] == ["ENG-105", "DES-7"]
    first_page = await ok(sandbox, "LINEAR_LIST_ISSUES_BY_TEAM_ID", {"team_id": ENG, "first": 4})
    assert first_page["pageInfo"]["hasNextPage"] is True
    after = {"team_id": ENG, "after": first_page["pageInfo"]["endCursor"]}
    rest = await ok(sandbox, "LINEAR_LIST_ISSUES_BY_TEAM_ID", after)
    assert [i["identifier"] for i in rest["issues"]] == ["ENG-105", "ENG-106"]
    states = await ok(sandbox, "LINEAR_LIST_LINEAR_STATES", {"team_id": "ENG"})
    assert states["states"][2] == {
        "id": ENG_TODO,
        "name": "Todo",
        "type": "unstarted",
        "team": {"id": ENG, "key": "ENG"},
    }


@pytest.mark.anyio
async def test_a_created_project_is_listed_with_its_teams(sandbox: SandboxBackend) -> None:
    project = await ok(
        sandbox, "LINEAR_CREATE_LINEAR_PROJECT", {"name": "Acme rollout", "team_ids": [CS, ENG]}
    )
    assert project["teams"] == [{"id": CS, "key": "CS"}, {"id": ENG, "key": "ENG"}]
    listed = await ok(sandbox, "LINEAR_LIST_LINEAR_PROJECTS", {})
    assert listed["projects"][-1]["id"] == project["id"]
    issue = await ok(
        sandbox, "LINEAR_CREATE_LINEAR_ISSUE", {"team_id": ENG, "title": "x", "project_id": project["id"]}
    )
    assert issue["project"] == {"id": project["id"], "name": "Acme rollout"}


@pytest.mark.anyio
async def test_linear_users_know_no_is_me_and_the_current_user_is_the_viewer(sandbox: SandboxBackend) -> None:
    users = (await ok(sandbox, "LINEAR_LIST_LINEAR_USERS", {}))["users"]
    assert all("isMe" not in u for u in users)
    viewer = (await ok(sandbox, "LINEAR_GET_CURRENT_USER", {}))["viewer"]
    assert viewer == users[0]


@pytest.mark.anyio
async def test_a_naive_event_start_is_read_in_moscow_time_by_default(sandbox: SandboxBackend) -> None:
    event = await ok(
        sandbox,
        "GOOGLECALENDAR_CREATE_EVENT",
        {"start_datetime": "2026-11-26T14:00:00", "summary": "Acme sync", "event_duration_hour": 1},
    )
    assert event["start"] == {"dateTime": "2026-11-26T14:00:00+03:00", "timeZone": "Europe/Moscow"}
    assert event["end"]["dateTime"] == "2026-11-26T15:00:00+03:00"
    assert event["htmlLink"] == f"https://calendar.google.com/calendar/event?eid={event['id']}"
    assert event["status"] == "confirmed"


@pytest.mark.anyio
async def test_an_event_start_with_an_offset_keeps_its_instant(sandbox: SandboxBackend) -> None:
    args = {
        "start_datetime": "2026-11-26T09:00:00Z",
        "event_duration_minutes": 45,
        "timezone": "Europe/Berlin",
    }
    event = await ok(sandbox, "GOOGLECALENDAR_CREATE_EVENT", args)
    assert event["start"] == {"dateTime": "2026-11-26T10:00:00+01:00", "timeZone": "Europe/Berlin"}
    assert event["end"]["dateTime"] == "2026-11-26T10:45:00+01:00"


@pytest.mark.anyio
async def test_events_are_listed_by_time_window_and_text(sandbox: SandboxBackend) -> None:
    for start, summary in (("2026-11-26T10:00:00", "Acme sync"), ("2026-11-27T10:00:00", "Globex demo")):
        await ok(sandbox, "GOOGLECALENDAR_CREATE_EVENT", {"start_datetime": start, "summary": summary})
    window = {"timeMin": "2026-11-26T00:00:00+03:00", "timeMax": "2026-11-27T00:00:00+03:00"}
    listed = await ok(sandbox, "GOOGLECALENDAR_EVENTS_LIST", window)
    assert [e["summary"] for e in listed["items"]] == ["Acme sync"]
    by_text = await ok(sandbox, "GOOGLECALENDAR_EVENTS_LIST", {"q": "globex", "orderBy": "startTime"})
    assert [e["summary"] for e in by_text["items"]] == ["Globex demo"]


@pytest.mark.anyio
async def test_write_calls_lists_only_the_calls_that_change_the_workspace(sandbox: SandboxBackend) -> None:
    mutation = {"query_or_mutation": ISSUE_CREATE, "variables": {"input": {"teamId": ENG, "title": "x"}}}
    await ok(sandbox, "LINEAR_SEARCH_ISSUES", {"query": "login"})
    await ok(
        sandbox,
        "LINEAR_RUN_QUERY_OR_MUTATION",
        {"query_or_mutation": ISSUE_QUERY, "variables": {"id": "ENG-101"}},
    )
    await ok(sandbox, "LINEAR_RUN_QUERY_OR_MUTATION", mutation)
    await ok(sandbox, "LINEAR_CREATE_LINEAR_COMMENT", {"issueId": "ENG-101", "body": "hi"})
    assert [slug for slug, _ in sandbox.calls] == [
        "LINEAR_SEARCH_ISSUES",
        "LINEAR_RUN_QUERY_OR_MUTATION",
        "LINEAR_RUN_QUERY_OR_MUTATION",
        "LINEAR_CREATE_LINEAR_COMMENT",
    ]
    assert sandbox.write_calls == [
        ("LINEAR_RUN_QUERY_OR_MUTATION", mutation),
        ("LINEAR_CREATE_LINEAR_COMMENT", {"issueId": "ENG-101", "body": "hi"}),
    ]


@pytest.mark.anyio
async def test_changing_a_returned_result_does_not_change_the_workspace(sandbox: SandboxBackend) -> None:
    data = await ok(sandbox, "LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-101"})
    data["labels"].clear()
    data["state"]["name"] = "Hacked"
    again = await ok(sandbox, "LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-101"})
    assert again["labels"] == [{"id": BUG_LABEL, "name": "bug"}]
    assert again["state"]["name"] == "In Progress"


@pytest.mark.anyio
async def test_concurrent_calls_overlap_their_latency() -> None:
    backend = SandboxBackend(latency=0.2)
    started = time.perf_counter()
    created = await asyncio.gather(
        *(
            backend.execute("LINEAR_CREATE_LINEAR_ISSUE", {"team_id": CS, "title": f"Task {n}"})
            for n in range(7)
        )
    )
    elapsed = time.perf_counter() - started
    await backend.aclose()
    assert all(result["successful"] for result in created)
    assert sorted(result["data"]["identifier"] for result in created) == [f"CS-{n}" for n in range(16, 23)]
    assert 0.2 <= elapsed < 1.0


@pytest.mark.anyio
async def test_a_new_database_is_seeded_from_the_given_fixture(tmp_path: Path) -> None:
    source = Path(__file__).parents[2] / "toolkits" / "data" / "workspace.json"
    fixture = tmp_path / "workspace.json"
    fixture.write_text(source.read_text(encoding="utf-8").replace("Acme Corp", "Acme Inc"), encoding="utf-8")
    backend = SandboxBackend(tmp_path / "seeded.db", fixture=fixture)
    data = await ok(backend, "ATTIO_FIND_RECORD", {"object_id": "companies", "record_id": ACME})
    assert data["data"]["values"]["name"][0]["value"] == "Acme Inc"
    await backend.aclose()


SAMPLE_STRINGS = [
    ACME,
    ACME_DEAL,
    JOHN,
    ENG,
    ENG_TODO,
    ANNA_MEMBER,
    "ENG-101",
    "deals",
    "people",
    "Won",
    "",
    "primary",
]
SAMPLE_STRINGS += [
    "anna@northwind.dev",
    "2026-11-26T14:00:00",
    "2026-11-26",
    "domains",
    "email_addresses",
    "stage",
]
SAMPLE_STRINGS += ["objects", "workspace", "Europe/Moscow", ISSUE_CREATE, ISSUE_QUERY]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.sampled_from(SAMPLE_STRINGS),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(SAMPLE_STRINGS) | st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


def values_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = schema.get("type")
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if isinstance(kind, list):
        return st.one_of([values_for({**schema, "type": one}) for one in kind])
    if kind == "string":
        return st.text(max_size=8) | st.sampled_from(SAMPLE_STRINGS)
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum", -3), max_value=schema.get("maximum", 10**6))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = values_for(schema["items"]) if "items" in schema else json_values
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=3)
    if kind == "object" and "properties" in schema:
        return st.fixed_dictionaries({}, optional={k: values_for(v) for k, v in schema["properties"].items()})
    return json_values


@st.composite
def schema_valid_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    slug = draw(st.sampled_from(sorted(known_slugs())))
    schema = tool_schema(slug)
    required = set(schema.get("required", []))
    properties = schema["properties"]
    args = draw(
        st.fixed_dictionaries(
            {name: values_for(sub) for name, sub in properties.items() if name in required},
            optional={name: values_for(sub) for name, sub in properties.items() if name not in required},
        )
    )
    return slug, args


async def execute_once(slug: str, args: dict[str, Any]) -> Any:
    async with SandboxBackend() as backend:
        return await backend.execute(slug, args)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(call=schema_valid_calls())
def test_any_arguments_that_fit_the_schema_get_an_envelope_and_never_an_exception(
    call: tuple[str, dict[str, Any]],
) -> None:
    slug, args = call
    assume(not validate_arguments(slug, args))
    result = asyncio.run(execute_once(slug, args))
    assert set(result) == {"data", "error", "successful"}
    assert result["successful"] or (isinstance(result["error"], str) and result["error"])
