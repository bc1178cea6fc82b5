"""A month after "to" is a date, not a person; a name that only starts like a month is a person."""

from __future__ import annotations

import pytest

from planner.dates import MONTH_NAME


@pytest.mark.parametrize("word", ["December", "Dec", "декабря", "May", "March"])
def test_month_names_are_recognised(word: str) -> None:
    assert MONTH_NAME.match(word)


@pytest.mark.parametrize("name", ["Maria", "Marta", "Mayer", "Augustin", "Decker", "Maxim"])
def test_names_that_start_like_a_month_are_not_months(name: str) -> None:
    assert not MONTH_NAME.match(name)
