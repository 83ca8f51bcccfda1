"""Citation checking: unknown numbers removed, cited sources listed in order of first citation."""

from __future__ import annotations

from agents.answer.citations import check_citations, cited_numbers, unfinished_citation


def test_valid_citations_are_kept_and_listed_in_order_of_first_use() -> None:
    check = check_citations("Open at 9 [2]. Closed on Mondays [1][2].", {1, 2, 3})

    assert check.text == "Open at 9 [2]. Closed on Mondays [1][2]."
    assert check.cited == [2, 1]
    assert check.removed == []


def test_unknown_numbers_are_removed_without_leaving_gaps() -> None:
    check = check_citations("Open at 9 [7]. Closed on Mondays [1].", {1})

    assert check.text == "Open at 9. Closed on Mondays [1]."
    assert check.removed == [7]
    assert check.cited == [1]


def test_grouped_citations_keep_only_the_valid_numbers() -> None:
    check = check_citations("Free for under-18s [1, 4; 2].", {1, 2})

    assert check.text == "Free for under-18s [1][2]."
    assert check.removed == [4]


def test_text_without_citations_is_unchanged() -> None:
    check = check_citations("Bonjour ! Comment puis-je vous aider ?", {1})

    assert check.text == "Bonjour ! Comment puis-je vous aider ?"
    assert check.cited == []


def test_cited_numbers_are_listed_once_in_reading_order() -> None:
    assert cited_numbers("Tickets [2], hours [1][2] and [3, 1].") == [2, 1, 3]


def test_an_unfinished_citation_at_the_end_is_found_and_a_finished_one_is_not() -> None:
    assert unfinished_citation("Open at 9 h [1") == len("Open at 9 h ")
    assert unfinished_citation("Open at 9 h [1, ") == len("Open at 9 h ")
    assert unfinished_citation("Open at 9 h [1]") is None
    assert unfinished_citation("See [the map") is None


def test_french_spacing_before_punctuation_survives_a_removal() -> None:
    check = check_citations("Ouvert à 9 h [7] ! Fermé le lundi [1] ?", {1})

    assert check.text == "Ouvert à 9 h ! Fermé le lundi [1] ?"
