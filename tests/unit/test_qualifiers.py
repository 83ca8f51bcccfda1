"""What qualifies a value, in the visitor's words (agents/answer/qualifiers.py)."""

from __future__ import annotations

import pytest

from agents.answer.qualifiers import months_covered, qualifiers, weekdays_named

RATES = {"full price", "reduced rate", "high season"}


def _qualifiers(text: str, values: list[str], language: str) -> list[list[str]]:
    spans = [(text.index(v), text.index(v) + len(v)) for v in values]
    return qualifiers(text, spans, "fr", language, RATES, stops={"closed"})


def test_each_value_takes_the_words_after_it_up_to_the_next_value() -> None:
    text = "Il est vendu 21 € en tarif plein et 13 € en tarif réduit."

    assert _qualifiers(text, ["21 €", "13 €"], "en") == [["full price"], ["reduced rate"]]


@pytest.mark.parametrize(
    ("language", "months"),
    [
        ("en", "Apr\u2009–\u2009Oct"),
        ("de", "April–Oktober"),
        ("ja", "4月～10月"),
        ("fr", "avr.–oct."),
    ],
)
def test_a_range_of_months_is_written_with_babels_names(language: str, months: str) -> None:
    text = "Ouvert de 9h à 18h30 d'avril à octobre."

    assert _qualifiers(text, ["9h à 18h30"], language) == [[months]]


def test_a_closing_day_after_a_value_does_not_qualify_it() -> None:
    text = "Le Château 9h - 18h30 Fermé le lundi."

    assert _qualifiers(text, ["9h - 18h30"], "en") == [[]]


def test_a_range_of_months_covers_the_months_between_even_across_the_new_year() -> None:
    assert months_covered("de novembre à mars") == {11, 12, 1, 2, 3}


def test_weekdays_are_recognised_in_any_of_the_nine_languages() -> None:
    assert weekdays_named("samedis et dimanches") == weekdays_named("zaterdag, zondag") == {5, 6}
