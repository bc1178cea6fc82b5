from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolkits.errors import InvalidArguments, UnknownTool
from toolkits.schemas import check_arguments, known_slugs, tool_schema, toolkit_of, validate_arguments

ISSUE_ID = "ENG-101"


def test_the_snapshot_holds_every_slug_of_the_three_toolkits() -> None:
    slugs = known_slugs()
    assert len(slugs) == 34
    assert {toolkit_of(slug) for slug in slugs} == {"attio", "linear", "googlecalendar"}
    assert toolkit_of("LINEAR_UPDATE_ISSUE") == "linear"


def test_an_unknown_slug_is_refused_by_every_lookup() -> None:
    with pytest.raises(UnknownTool):
        tool_schema("LINEAR_CREATE_ISSUE")
    with pytest.raises(UnknownTool):
        toolkit_of("ATTIO_LIST_STAGES")
    with pytest.raises(UnknownTool):
        validate_arguments("NOPE", {})


def test_tool_schema_returns_a_copy_the_caller_may_change() -> None:
    schema = tool_schema("LINEAR_SEARCH_ISSUES")
    assert schema["required"] == ["query"]
    schema["required"].append("first")
    assert tool_schema("LINEAR_SEARCH_ISSUES")["required"] == ["query"]


def test_arguments_that_fit_have_no_problems() -> None:
    assert (
        validate_arguments("LINEAR_UPDATE_ISSUE", {"issueId": ISSUE_ID, "priority": 2, "labelIds": []}) == []
    )
    assert validate_arguments("ATTIO_LIST_WORKSPACE_MEMBERS", {}) == []
    assert validate_arguments("ATTIO_CREATE_TASK", {"content": "Call", "deadline_at": None}) == []


def test_a_missing_required_argument_is_named() -> None:
    problems = validate_arguments("LINEAR_CREATE_LINEAR_ISSUE", {"title": "Fix"})
    assert problems == ["missing required argument 'team_id'"]


def test_an_unknown_top_level_argument_is_a_problem() -> None:
    problems = validate_arguments("LINEAR_SEARCH_ISSUES", {"query": "login", "team": "ENG"})
    assert problems == ["unknown argument 'team'"]


def test_a_wrong_json_type_is_reported_with_both_types() -> None:
    problems = validate_arguments("LINEAR_SEARCH_ISSUES", {"query": 5})
    assert problems == ["argument 'query' must be of type string, not integer"]


def test_an_integer_argument_refuses_a_boolean_and_a_float() -> None:
    assert validate_arguments("LINEAR_SEARCH_ISSUES", {"query": "x", "first": True}) != []
    assert validate_arguments("LINEAR_SEARCH_ISSUES", {"query": "x", "first": 2.5}) != []


def test_a_union_type_accepts_each_member_and_nothing_else() -> None:
    assert (
        validate_arguments("ATTIO_CREATE_TASK", {"content": "x", "deadline_at": "2026-12-01T00:00:00Z"}) == []
    )
    problems = validate_arguments("ATTIO_CREATE_TASK", {"content": "x", "deadline_at": 5})
    assert problems == ["argument 'deadline_at' must be of type string or null, not integer"]


def test_an_enum_violation_lists_the_allowed_values() -> None:
    problems = validate_arguments(
        "ATTIO_LIST_ATTRIBUTE_STATUSES", {"target": "object", "identifier": "deals", "attribute": "stage"}
    )
    assert problems == ["argument 'target' must be one of 'objects', 'lists'"]


def test_numeric_bounds_are_enforced() -> None:
    assert validate_arguments("LINEAR_UPDATE_ISSUE", {"issueId": ISSUE_ID, "priority": 5}) == [
        "argument 'priority' must be <= 4"
    ]
    assert validate_arguments("LINEAR_SEARCH_ISSUES", {"query": "x", "first": 0}) == [
        "argument 'first' must be >= 1"
    ]


def test_array_length_and_item_types_are_enforced() -> None:
    too_few = validate_arguments(
        "ATTIO_SEARCH_RECORDS", {"query": "a", "objects": [], "request_as": "workspace"}
    )
    assert too_few == ["argument 'objects' must have at least 1 item(s)"]
    wrong_item = validate_arguments("LINEAR_UPDATE_ISSUE", {"issueId": ISSUE_ID, "labelIds": ["a", 3]})
    assert wrong_item == ["argument 'labelIds[1]' must be of type string, not integer"]


def test_nested_object_properties_are_checked() -> None:
    problems = validate_arguments("ATTIO_UPDATE_TASK", {"task_id": "t", "data": {"is_completed": "yes"}})
    assert problems == ["argument 'data.is_completed' must be of type boolean, not string"]
    sorts = validate_arguments("ATTIO_QUERY_RECORDS", {"object": "deals", "sorts": [{"direction": "up"}]})
    assert sorts == ["argument 'sorts[0].direction' must be one of 'asc', 'desc'"]


def test_string_patterns_and_lengths_are_checked() -> None:
    assert validate_arguments("LINEAR_GET_LINEAR_ISSUE", {"issue_id": "not an id"}) == [
        "argument 'issue_id' does not have the expected format"
    ]
    assert validate_arguments("LINEAR_CREATE_LINEAR_COMMENT", {"issueId": ISSUE_ID, "body": ""}) != []
    assert validate_arguments("ATTIO_CREATE_TASK", {"content": "x" * 2001}) == [
        "argument 'content' must be at most 2000 characters long"
    ]


def test_an_update_with_nothing_to_change_is_refused() -> None:
    assert validate_arguments("LINEAR_UPDATE_ISSUE", {"issueId": ISSUE_ID}) != []


def test_arguments_that_are_not_an_object_are_refused() -> None:
    assert validate_arguments("LINEAR_SEARCH_ISSUES", ["query"]) == ["arguments must be an object"]  # type: ignore[arg-type]


def test_check_arguments_raises_with_every_problem() -> None:
    with pytest.raises(InvalidArguments) as raised:
        check_arguments("LINEAR_CREATE_LINEAR_ISSUE", {"priority": "high"})
    assert raised.value.slug == "LINEAR_CREATE_LINEAR_ISSUE"
    assert len(raised.value.problems) == 3
    check_arguments("LINEAR_SEARCH_ISSUES", {"query": "login"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@given(slug=st.sampled_from(sorted(known_slugs())), args=st.dictionaries(st.text(max_size=12), json_values))
def test_validation_never_raises_and_reports_text_for_any_json_arguments(
    slug: str, args: dict[str, Any]
) -> None:
    problems = validate_arguments(slug, args)
    assert all(isinstance(problem, str) and problem for problem in problems)
