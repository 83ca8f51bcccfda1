"""Citation checking: unknown numbers removed, cited sources listed in order of first citation."""

from __future__ import annotations

from agents.citations import CitedSource, check_citations


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


def test_sources_follow_the_cited_numbers() -> None:
    evidence = {
        1: CitedSource(1, "Horaires", "https://example.org/horaires"),
        2: CitedSource(2, "Tarifs", "https://example.org/tarifs"),
    }

    check = check_citations("Tickets [2], hours [1].", evidence)

    assert [source.title for source in check.sources(evidence)] == ["Tarifs", "Horaires"]


def test_french_spacing_before_punctuation_survives_a_removal() -> None:
    check = check_citations("Ouvert à 9 h [7] ! Fermé le lundi [1] ?", {1})

    assert check.text == "Ouvert à 9 h ! Fermé le lundi [1] ?"
