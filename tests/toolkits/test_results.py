"""Result shapes the sources disagree on are all read one way (toolkits/results.py); both variants of
each are tested, since nothing could be run against the live services."""

from __future__ import annotations

from typing import Any

import pytest

from toolkits.attio import link_for as attio_link
from toolkits.googlecalendar import link_for as calendar_link
from toolkits.linear import link_for as linear_link
from toolkits.results import normalise

GRAPHQL = "LINEAR_RUN_QUERY_OR_MUTATION"
ISSUE = {
    "id": "4d5c5b3e-0000-4000-8000-000000000001",
    "identifier": "ENG-9",
    "url": "https://linear.app/x/issue/ENG-9",
}
EVENT = {"id": "ev1", "htmlLink": "https://calendar.google.com/calendar/event?eid=ev1", "items": None}
RECORD = {
    "id": {"workspace_id": "w", "object_id": "companies", "record_id": "rec-1"},
    "web_url": "https://app.attio.com/w/companies/record/rec-1",
    "values": {},
}


def ok(data: Any) -> Any:
    return {"data": data, "error": None, "successful": True}


@pytest.mark.parametrize(
    "data",
    [
        {"issueCreate": {"success": True, "issue": ISSUE}},  # data.<field>
        {"data": {"issueCreate": {"success": True, "issue": ISSUE}}},  # data.data.<field>
    ],
    ids=["fields-under-data", "graphql-body-under-data"],
)
def test_a_graphql_result_is_read_as_its_fields_whichever_envelope_it_came_in(data: Any) -> None:
    result = normalise(GRAPHQL, ok(data))
    assert result["successful"] and result["data"]["issueCreate"]["issue"]["id"] == ISSUE["id"]
    assert linear_link(result["data"]) == ISSUE["url"]


@pytest.mark.parametrize(
    "data",
    [
        {
            "data": None,
            "errors": [{"message": "Argument Validation Error", "extensions": {"code": "INPUT_ERROR"}}],
        },
        {"errors": [{"message": "Entity not found: Team"}]},
        {"data": {"issueCreate": None}, "errors": [{"message": "teamId must be a UUID"}]},
    ],
    ids=["data-null", "errors-only", "partial-data"],
)
def test_a_graphql_errors_array_inside_a_successful_answer_is_a_failure(data: Any) -> None:
    result = normalise(GRAPHQL, ok(data))
    assert not result["successful"] and result["data"] == {}
    assert (result["error"] or "").startswith("Linear refused the request: ")


def test_graphql_error_codes_and_readable_messages_are_kept_in_the_failure() -> None:
    body = {
        "data": None,
        "errors": [
            {
                "message": "ratelimit",
                "extensions": {"code": "RATELIMITED", "userPresentableMessage": "Too many requests"},
            }
        ],
    }
    assert (
        normalise(GRAPHQL, ok(body))["error"] == "Linear refused the request: Too many requests (RATELIMITED)"
    )


def test_a_mutation_payload_that_says_it_was_not_applied_is_a_failure() -> None:
    result = normalise(GRAPHQL, ok({"data": {"issueCreate": {"success": False, "issue": None}}}))
    assert not result["successful"] and result["error"] == "Linear did not apply issueCreate"


def test_an_already_failed_result_is_left_as_it_is() -> None:
    failed = {"data": {}, "error": "Team not found", "successful": False}
    assert normalise(GRAPHQL, failed) == failed


@pytest.mark.parametrize("data", [{"response_data": EVENT}, EVENT], ids=["response_data", "bare"])
def test_a_created_events_link_is_found_under_response_data_or_bare(data: Any) -> None:
    result = normalise("GOOGLECALENDAR_CREATE_EVENT", ok(data))
    assert result["data"]["id"] == "ev1"
    assert calendar_link(result["data"]) == EVENT["htmlLink"]
    assert calendar_link(data) == EVENT["htmlLink"]  # a result stored before normalising reads too


@pytest.mark.parametrize(
    "data",
    [
        {"issue": {**ISSUE, "comments": {"nodes": [{"body": "hi"}]}}},
        {**ISSUE, "comments": {"nodes": [{"body": "hi"}]}},
    ],
    ids=["issue-wrapper", "bare-issue"],
)
def test_an_issue_read_is_the_issue_node_with_its_comments_as_nodes(data: Any) -> None:
    result = normalise("LINEAR_GET_LINEAR_ISSUE", ok(data))
    assert result["data"]["identifier"] == "ENG-9"
    assert result["data"]["comments"]["nodes"] == [{"body": "hi"}]


@pytest.mark.parametrize(
    "data",
    [
        {"id": "p1", "name": "Q3"},
        {"project": {"id": "p1", "name": "Q3"}},
        {"projectCreate": {"success": True, "project": {"id": "p1", "name": "Q3"}}},
    ],
    ids=["node", "project", "projectCreate"],
)
def test_a_created_projects_id_is_on_top_whichever_shape_it_came_in(data: Any) -> None:
    assert normalise("LINEAR_CREATE_LINEAR_PROJECT", ok(data))["data"]["id"] == "p1"


@pytest.mark.parametrize("data", [{"data": RECORD}, RECORD], ids=["attio-body", "bare-record"])
def test_a_written_attio_records_id_is_at_data_id_record_id(data: Any) -> None:
    result = normalise("ATTIO_ASSERT_COMPANY", ok(data))
    assert result["data"]["data"]["id"]["record_id"] == "rec-1"
    assert attio_link(result["data"]) == RECORD["web_url"]
