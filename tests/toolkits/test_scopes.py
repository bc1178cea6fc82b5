"""Scopes per draft (DESIGN §7): which operations carry the draft placeholder, and how binding keeps
a Linear create's client-chosen id derived from its final scope."""

from __future__ import annotations

from toolkits import attio, googlecalendar, linear
from toolkits._ops import scoped_uuid
from toolkits.scopes import DRAFT, bind_draft, per_draft, supersede


def test_value_changes_and_creates_without_an_identity_are_scoped_by_their_draft() -> None:
    scoped = [
        attio.ops.update_deal("r1", {"stage": "Won"}, "p"),
        attio.ops.create_note("deals", "r1", "t", "c", "p"),
        attio.ops.create_deal({"name": "X"}, "c1", "p"),
        attio.ops.complete_task("t1", "p"),
        attio.ops.delete_record("deals", "r1", "p"),
        linear.ops.update_issue("i1", {"stateId": "s1"}, "p", operation="complete_issue"),
        linear.ops.comment_issue("i1", "hello", "p"),
        linear.ops.archive_issue("i1", "p"),
        googlecalendar.ops.create_event(
            start_iso="2026-11-26T09:00:00+03:00",
            minutes=60,
            summary="x",
            timezone="Europe/Moscow",
            preview="p",
        ),
    ]
    assert all(a.idempotency_scope.endswith(":" + DRAFT) for a in scoped)
    identified = [
        attio.ops.create_company("Wayne", "wayne.com", "p"),
        attio.ops.create_person({"name": "Bruce"}, "bruce@wayne.com", "p"),
        linear.ops.create_issue(["deal-1", "kickoff"], {"teamId": "t", "title": "Kickoff"}, "p"),
        linear.ops.create_project("Q1 launch", ["t"], "p"),
    ]
    assert not any(per_draft(a.idempotency_scope) for a in identified)


def test_binding_a_draft_replaces_the_placeholder_and_re_derives_a_linear_client_id() -> None:
    create = linear.ops.create_issue([DRAFT, "0"], {"teamId": "t", "title": "Fix login"}, "p")
    read = linear.ops.get_issue("ENG-1")
    bound = bind_draft([create, read], "D1")
    assert bound[0].idempotency_scope == "linear:create_issue:D1:0"
    assert bound[0].args["variables"]["input"]["id"] == scoped_uuid("linear:create_issue:D1:0")
    assert bound[1] == read
    assert (
        bind_draft([create], "D2")[0].args["variables"]["input"]["id"]
        != bound[0].args["variables"]["input"]["id"]
    )


def test_sending_anyway_is_a_new_scope_that_names_the_one_it_supersedes() -> None:
    deal = bind_draft([attio.ops.create_deal({"name": "X"}, "c1", "p")], "D1")[0]
    again = bind_draft([supersede(deal)], "D2")[0]
    assert again.supersedes == deal.idempotency_scope
    assert again.idempotency_scope == f"{deal.idempotency_scope}:anyway:D2"
