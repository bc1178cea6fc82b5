"""Requests typed in a hurry or asked politely read as the commands they are."""

from __future__ import annotations

import pytest

from planner.hurried import unhurried


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("закрй тикет про login page", "закрой тикет про login page"),
        ("созадй задачу", "создай задачу"),
        ("list all projcts in Linear", "list all projects in Linear"),
        ("I finshed the push notifications", "I finished the push notifications"),
        ("bump priorty on the API ticket", "bump priority on the API ticket"),
        ("добавь контак Ольга Смирнова", "добавь контакт Ольга Смирнова"),
        ("could you please mark CS-12 as done?", "mark CS-12 as done"),
        ("не могли бы вы закрыть ENG-101?", "закрыть ENG-101"),
    ],
)
def test_hurried_requests_are_spelt_as_meant(typed: str, meant: str) -> None:
    assert unhurried(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "Create a Linear issue to draft the contract",  # a real word one letter from "contact"
        "Globex pilot",
        "what is the status of ENG-101?",  # a question stays a question
        "Can you?",
    ],
)
def test_words_that_are_not_typos_stay(typed: str) -> None:
    assert unhurried(typed) == typed
