"""The sandbox refuses what the real services refuse and answers in their real shapes (DESIGN §8), so
no test can pass on its leniency: record references, team-scoped labels, GraphQL errors, Calendar's
`response_data`, no `isMe`."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from toolkits.sandbox import SandboxBackend
from toolkits.sandbox._store import default_fixture

pytestmark = pytest.mark.anyio

GLOBEX = "13003857-c288-519d-be16-c1790741a9dd"
ENG = "a9337aaa-8922-515f-974b-df31c9cbb8d6"
DES = "f3215408-2152-5d9a-8ae1-d0cea98c158a"
BUG = "cf329843-17de-5285-97a4-eabc9a3c41b7"
DES_ONLY = "0d6f3f1c-7a5e-4a57-9a55-5f0c1e7d2a11"
ISSUE_CREATE = (
    "mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id } } }"
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def sandbox(tmp_path: Path) -> AsyncIterator[SandboxBackend]:
    """The default workspace plus one label that belongs to the DES team only."""
    workspace = json.loads(default_fixture().read_text(encoding="utf-8"))
    workspace["linear"]["labels"].append({"id": DES_ONLY, "name": "design-review", "team_id": DES})
    fixture = tmp_path / "workspace.json"
    fixture.write_text(json.dumps(workspace), encoding="utf-8")
    async with SandboxBackend(tmp_path / "s.db", fixture=fixture) as backend:
        yield backend


def create(team: str, **fields: Any) -> dict[str, Any]:
    payload = {"id": str(uuid.uuid4()), "teamId": team, "title": "Strict", **fields}
    return {"query_or_mutation": ISSUE_CREATE, "variables": {"input": payload}}


async def test_a_bare_uuid_for_a_deals_company_is_refused_as_attio_refuses_it(
    sandbox: SandboxBackend,
) -> None:
    bare = {
        "object_type": "deals",
        "values": {"name": "Globex renewal", "stage": "Lead", "associated_company": GLOBEX},
    }
    refused = await sandbox.execute("ATTIO_CREATE_RECORD", bare)
    assert not refused["successful"] and "target_record_id" in (refused["error"] or "")
    reference = [{"target_object": "companies", "target_record_id": GLOBEX}]
    made = await sandbox.execute(
        "ATTIO_CREATE_RECORD",
        {"object_type": "deals", "values": {**bare["values"], "associated_company": reference}},
    )
    assert made["successful"]
    assert made["data"]["data"]["values"]["associated_company"][0]["target_record_id"] == GLOBEX


async def test_a_bare_uuid_for_a_persons_company_is_refused(sandbox: SandboxBackend) -> None:
    values = {"email_addresses": ["ada@globex.com"], "name": "Ada", "company": GLOBEX}
    args = {"matching_attribute": "email_addresses", "values": values}
    assert not (await sandbox.execute("ATTIO_ASSERT_PERSON", args))["successful"]
    values["company"] = [{"target_object": "companies", "target_record_id": GLOBEX}]
    assert (await sandbox.execute("ATTIO_ASSERT_PERSON", args))["successful"]


async def test_an_invalid_mutation_answers_graphql_errors_inside_a_successful_envelope(
    sandbox: SandboxBackend,
) -> None:
    wire = await sandbox.execute_wire("LINEAR_RUN_QUERY_OR_MUTATION", create(str(uuid.uuid4())))
    assert wire["successful"] is True  # Linear says it with HTTP 200, so Composio's envelope reads fine
    assert wire["data"]["data"] is None and wire["data"]["errors"][0]["message"].startswith("Team not found")
    read = await sandbox.execute("LINEAR_RUN_QUERY_OR_MUTATION", create(str(uuid.uuid4())))
    assert not read["successful"] and "Team not found" in (read["error"] or "")
    found = await sandbox.execute("LINEAR_SEARCH_ISSUES", {"query": "Strict"})
    assert found["data"]["issues"] == []  # nothing was created


async def test_a_successful_mutation_answers_linears_body_under_data(sandbox: SandboxBackend) -> None:
    wire = await sandbox.execute_wire("LINEAR_RUN_QUERY_OR_MUTATION", create(ENG))
    assert wire["data"]["data"]["issueCreate"]["success"] is True
    assert "errors" not in wire["data"]


async def test_labels_listed_for_a_team_leave_out_other_teams_labels(sandbox: SandboxBackend) -> None:
    every = (await sandbox.execute("LINEAR_LIST_LINEAR_LABELS", {}))["data"]["labels"]
    eng = (await sandbox.execute("LINEAR_LIST_LINEAR_LABELS", {"team_id": ENG}))["data"]["labels"]
    assert DES_ONLY in {x["id"] for x in every} and DES_ONLY not in {x["id"] for x in eng}
    assert BUG in {x["id"] for x in eng}


async def test_an_issue_may_not_carry_another_teams_label(sandbox: SandboxBackend) -> None:
    refused = await sandbox.execute("LINEAR_RUN_QUERY_OR_MUTATION", create(ENG, labelIds=[DES_ONLY]))
    assert not refused["successful"] and "another team" in (refused["error"] or "")
    assert (await sandbox.execute("LINEAR_RUN_QUERY_OR_MUTATION", create(DES, labelIds=[DES_ONLY])))[
        "successful"
    ]
    assert (await sandbox.execute("LINEAR_RUN_QUERY_OR_MUTATION", create(ENG, labelIds=[BUG])))["successful"]


async def test_a_created_event_comes_under_response_data_on_the_wire(sandbox: SandboxBackend) -> None:
    args = {"start_datetime": "2026-12-01T10:00:00", "event_duration_hour": 1, "summary": "Focus"}
    wire = await sandbox.execute_wire("GOOGLECALENDAR_CREATE_EVENT", args)
    assert set(wire["data"]) == {"response_data"}
    assert wire["data"]["response_data"]["htmlLink"].startswith("https://calendar.google.com/")


async def test_linear_users_carry_no_is_me_and_the_viewer_names_the_current_user(
    sandbox: SandboxBackend,
) -> None:
    users = (await sandbox.execute_wire("LINEAR_LIST_LINEAR_USERS", {}))["data"]["users"]
    viewer = (await sandbox.execute_wire("LINEAR_GET_CURRENT_USER", {}))["data"]["viewer"]
    assert all("isMe" not in user for user in users)
    assert viewer["id"] in {user["id"] for user in users}


ISSUE_UPDATE = (
    "mutation IssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) "
    "{ success issue { id identifier } } }"
)


async def test_issue_update_with_null_clears_the_assignee_and_the_due_date(sandbox: SandboxBackend) -> None:
    variables = {"id": "ENG-104", "input": {"assigneeId": None, "dueDate": None}}
    done = await sandbox.execute(
        "LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_UPDATE, "variables": variables}
    )
    assert done["successful"] and done["data"]["issueUpdate"]["success"] is True
    issue = (await sandbox.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "ENG-104"}))["data"]
    assert issue.get("assignee") is None and issue.get("dueDate") is None


async def test_issue_update_refuses_a_field_its_input_type_does_not_have(sandbox: SandboxBackend) -> None:
    variables = {"id": "ENG-104", "input": {"owner": None}}
    refused = await sandbox.execute(
        "LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_UPDATE, "variables": variables}
    )
    assert not refused["successful"] and "IssueUpdateInput" in (refused["error"] or "")


async def update_labels(sandbox: SandboxBackend, issue: str, **delta: list[str]) -> dict[str, Any]:
    variables = {"id": issue, "input": delta}
    return await sandbox.execute(
        "LINEAR_RUN_QUERY_OR_MUTATION", {"query_or_mutation": ISSUE_UPDATE, "variables": variables}
    )


async def label_names(sandbox: SandboxBackend, issue: str) -> set[str]:
    found = (await sandbox.execute("LINEAR_GET_LINEAR_ISSUE", {"issue_id": issue}))["data"]
    labels = found.get("labels") or []
    nodes = labels.get("nodes", []) if isinstance(labels, dict) else labels
    return {x["name"] for x in nodes}


async def test_issue_update_removes_and_adds_labels_relative_to_what_the_issue_carries(
    sandbox: SandboxBackend,
) -> None:
    assert await label_names(sandbox, "CS-13") == {"onboarding", "customer-request"}
    added = await update_labels(sandbox, "CS-13", addedLabelIds=[BUG])
    assert added["successful"]  # what it carried stays
    assert await label_names(sandbox, "CS-13") == {"onboarding", "customer-request", "bug"}
    removed = await update_labels(sandbox, "ENG-103", removedLabelIds=[BUG])
    assert removed["successful"] and await label_names(sandbox, "ENG-103") == set()
    again = await update_labels(sandbox, "ENG-103", removedLabelIds=[BUG])
    assert again["successful"]  # removing a label it no longer carries changes nothing: a rerun is safe


async def test_issue_update_refuses_an_unknown_label_and_a_label_list_that_is_not_a_list(
    sandbox: SandboxBackend,
) -> None:
    before = await label_names(sandbox, "ENG-101")
    unknown = await update_labels(sandbox, "ENG-101", removedLabelIds=[str(uuid.uuid4())])
    assert not unknown["successful"]
    not_a_list = await sandbox.execute(
        "LINEAR_RUN_QUERY_OR_MUTATION",
        {"query_or_mutation": ISSUE_UPDATE, "variables": {"id": "ENG-101", "input": {"addedLabelIds": BUG}}},
    )
    assert not not_a_list["successful"] and "addedLabelIds" in (not_a_list["error"] or "")
    other_team = await update_labels(sandbox, "ENG-101", addedLabelIds=[DES_ONLY])
    assert not other_team["successful"]
    assert await label_names(sandbox, "ENG-101") == before


def test_an_issue_updated_through_graphql_links_to_the_issue() -> None:
    from toolkits.linear import link_for

    data = {
        "issueUpdate": {
            "success": True,
            "issue": {"id": "x", "url": "https://linear.app/northwind/issue/ENG-104"},
        }
    }
    assert link_for(data) == "https://linear.app/northwind/issue/ENG-104"
