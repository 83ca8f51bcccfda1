"""Headline precision: a reformatted headline is compared with the French answer string by its values."""

from __future__ import annotations

import pytest

from agents.evaluation.evaluate import headline_lines, headline_right, holds_facts


def test_headline_lines_are_the_bold_lines_without_their_citations() -> None:
    answer = (
        "**Palace ticket: 21 €, reduced rate 13 €.** [2]  \n**Hours**: 09:00 – 18:00 [1]\n\n- “quote” [2]"
    )

    assert headline_lines(answer) == ["Palace ticket: 21 €, reduced rate 13 €.", "Hours: 09:00 – 18:00"]


def test_an_answer_holds_a_fact_written_the_visitors_way() -> None:
    """A visit fact says "09:00–17:00" where the corpus said "de 9h à 17h": the fact is held."""
    assert holds_facts([["de 9h à 17h"]], "**The Museum, low season: 09:00–17:00.** [1]")
    assert not holds_facts([["de 9h à 17h"]], "**The Museum, low season: 09:00–16:30.** [1]")


@pytest.mark.parametrize(
    ("line", "answer", "language"),
    [
        ("07:30\u2009–\u200919:00 · 21:00 (summer)", "de 7h30 à 19h", "en"),
        ("June 14, 1772", "14 juin 1772", "en"),
        ("1772年6月14日", "14 juin 1772", "ja"),
        ("2,350 m", "2 350 mètres", "en"),
        ("€\u00a027 (normaal tarief)", "27 €", "nl"),
        ("martes, jueves", "mardis et jeudis", "es"),
    ],
)
def test_a_headline_holds_an_aspect_written_the_visitors_way(line: str, answer: str, language: str) -> None:
    assert headline_right([line], [[answer]], language)


def test_a_headline_with_another_value_does_not_hold_the_aspect() -> None:
    assert not headline_right(["€13 · €8"], [["21 €"]], "en")


def test_a_headline_on_a_question_without_answer_aspects_is_wrong() -> None:
    assert not headline_right(["free"], [], "en")


def test_every_headline_line_must_hold_an_aspect() -> None:
    assert not headline_right(["1741", "1598"], [["bâtie en 1741"], ["achevé en 1820"]], "en")
