"""What blind set K taught (a month-end close: a finance lead's numbers, a sales manager's pronouns,
a support engineer's ranges of issues, a recruiter's calendar shorthand, a head of product), one
behaviour each, through the MCP client on the sandbox (now = Wed 2026-11-25 12:00 MSK)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Conversation

pytestmark = pytest.mark.anyio


def intents(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k not in ("confidence", "span")} for i in reply["plan"]["intents"]]


async def test_a_deal_marked_won_is_moved_beside_a_meeting_booked(anna: Conversation) -> None:
    r = await anna.say("Mark the Alfa-Leasing deal Won and book a 30-min kickoff with Maria next Tue at 11")
    assert [(i["op"], i.get("stage") or i.get("start")) for i in intents(r)] == [
        ("update_deal", "Won"),
        ("create_event", "2026-12-01T11:00:00+03:00"),
    ]


async def test_every_issue_of_two_teams_is_changed(anna: Conversation) -> None:
    r = await anna.say("Всем задачам в ENG и CS поставь срок 11 декабря")
    assert [i["filters"]["team"] for i in intents(r)] == ["Engineering", "Customer Success"]
    assert len([a for a in r["plan"]["actions"] if not a["read_only"]]) == 10


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("block the 3rd 14:00-15:30 for the onsite panel", "2026-12-03"),
        ("Add a Linear issue for the office move: get quotes from 3 movers by the 3rd", "2026-12-03"),
    ],
)
async def test_a_day_said_as_an_ordinal_is_this_months_or_the_next(
    anna: Conversation, text: str, day: str
) -> None:
    r = await anna.say(text)
    (said,) = intents(r)
    assert str(said.get("start") or said.get("due")).startswith(day), said


async def test_an_issue_put_in_a_project_is_no_new_project(anna: Conversation) -> None:
    r = await anna.say("Заведи фичу в DES: темная тема для дашборда, в проект Website Redesign")
    assert intents(r) == [
        {
            "op": "create_issue",
            "title": "темная тема для дашборда",
            "team": "Design",
            "labels": ["feature"],  # «заведи фичу»: what kind of issue it is (set R)
            "project": "Website Redesign",
        }
    ]
    r = await anna.say("создай в Linear проект «Миграция биллинга» с целевой датой 15 января")
    assert [i["op"] for i in intents(r)] == ["create_project"]
