"""Values a sentence states, read whole and written the visitor's way (agents/answer/stated_values.py)."""

from __future__ import annotations

import pytest

from agents.answer.stated_values import stated_values, written


def _keys(kind: str, text: str, language: str = "fr") -> list[tuple[float | int | None, ...]]:
    return [value.key for value in stated_values(kind, text, language)]


@pytest.mark.parametrize("space", [" ", "\u00a0", "\u202f", "\u2009"])
def test_a_number_is_read_whole_whatever_space_splits_its_digit_groups(space: str) -> None:
    assert _keys("distance", f"long de 1{space}670 mètres") == [(1670.0,)]


@pytest.mark.parametrize(
    ("text", "language"), [("1 670 m", "fr"), ("1,670 m", "en"), ("1.670 m", "de"), ("1.670 m", "nl")]
)
def test_digit_groups_are_read_in_the_conventions_of_the_texts_language(text: str, language: str) -> None:
    assert _keys("distance", text, language) == [(1670.0,)]


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("fr", "21\u00a0€"), ("en", "€21"), ("es", "21\u00a0€"), ("de", "21\u00a0€"), ("it", "21\u00a0€"),
        ("pt", "€\u00a021"), ("nl", "€\u00a021"), ("ja", "€21"), ("zh", "€21"),
    ],
)  # fmt: skip
def test_a_price_is_written_the_visitors_way(language: str, shown: str) -> None:
    (price,) = stated_values("price", "Le billet est vendu 21€.")

    assert written(price, language) == shown


def test_free_is_a_price_of_nothing_written_in_the_visitors_words() -> None:
    (free,) = stated_values("price", "L'accès est gratuit.")

    assert free.key == (0.0,) and written(free, "ja") == "無料"


def test_an_opening_range_is_one_value_of_two_times() -> None:
    assert _keys("hours", "ouvert de 9h à 17h30") == [(540, 1050)]


def test_a_later_time_in_brackets_after_a_range_closes_it() -> None:
    assert _keys("hours", "ouvert de 9h à 17h30 (18h30 en haute saison)") == [(540, 1050), (540, 1110)]


def test_a_bare_number_is_no_time_of_day() -> None:
    assert _keys("hours", "Il y a 17 salles.") == []


@pytest.mark.parametrize(
    ("text", "language"),
    [("le 8 mars 1876", "fr"), ("March 8, 1876", "en"), ("8. März 1876", "de"), ("1876年3月8日", "ja")],
)
def test_a_date_reads_the_same_in_any_language(text: str, language: str) -> None:
    assert _keys("date", text, language) == [(1876, 3, 8)]


def test_a_duration_written_1h30_is_ninety_minutes() -> None:
    (duration,) = stated_values("duration", "Comptez 1h30 de visite.")

    assert duration.key == (90,) and written(duration, "en") == "1 hr 30 min"
