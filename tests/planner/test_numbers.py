"""Numbers said in words become digits only where they measure something, and offsets never move."""

from __future__ import annotations

import pytest

from planner.numbers import spoken_numbers


@pytest.mark.parametrize(
    ("said", "digits"),
    [
        ("на девяносто минут", "на 90 минут"),
        ("в девять утра", "в 9 утра"),
        ("сегодня в пять вечера минут на сорок", "сегодня в 5 вечера минут на 40"),
        ("at nine thirty for an hour", "at 9:30 for an hour"),
        ("на триста тысяч рублей", "на 300 тысяч рублей"),
        ("forty-five minutes", "45 minutes"),
        ("three hundred dollars", "300 dollars"),
        ("встреча в пять", "встреча в 5"),
        ("at half past two in the afternoon", "at 2:30 in the afternoon"),
        ("at quarter to ten", "at 9:45"),
    ],
)
def test_measuring_number_words_become_digits_in_place(said: str, digits: str) -> None:
    out = spoken_numbers(said)
    assert len(out) == len(said)
    assert " ".join(out.split()) == digits


@pytest.mark.parametrize(
    "said",
    ["оплата в один клик", "двадцать второго декабря", "one of the deals", "три задачи про экспорт"],
)
def test_number_words_that_measure_nothing_stay_words(said: str) -> None:
    assert spoken_numbers(said) == said
