"""The term rule (rag/lexicon/terms.py): a term touches no letter or digit of a script with spaces."""

from __future__ import annotations

import re

import pytest

from rag.lexicon.folding import fold
from rag.lexicon.terms import TermMatcher, holds_term, term_pattern, term_span

CASES = [  # text (folded), term, first span under the rule
    ("rerun", "rer", None),
    ("le rer b", "rer", (3, 6)),
    ("rerun, puis le rer", "rer", (15, 18)),  # the first occurrence is hidden, the second is not
    ("rer2", "rer", None),
    ("2rer", "rer", None),
    ("ligne 2", "2", (6, 7)),
    ("rer_b", "rer", None),
    ("rerà", "rer", None),  # an accented letter is a letter
    ("àrer", "rer", None),
    ("rer한", "rer", None),  # hangul is written with spaces
    ("l'orangerie", "orangerie", (2, 11)),
    ("orangerie's", "orangerie", (0, 9)),
    ("wifiはありますか", "wifi", (0, 4)),
    ("無料wifi", "wifi", (2, 6)),
    ("ヴェルサイユ宮殿の営業時間は", "営業時間", (9, 13)),
    ("x営業時間y", "営業時間", (1, 5)),  # a term in kana or Han needs no neighbours
    ("free wifi無料です", "wifi無料", (5, 11)),
    ("freewifi無料", "wifi無料", None),
    ("st.x", "st.", (0, 3)),
    ("", "rer", None),
    ("abc", "", (0, 0)),
]


@pytest.mark.parametrize(("text", "term", "span"), CASES)
def test_a_term_is_found_where_the_rule_allows(text: str, term: str, span: tuple[int, int] | None) -> None:
    assert term_span(text, term) == span
    assert holds_term(text, term) is (span is not None)


@pytest.mark.parametrize(("text", "term"), [(text, term) for text, term, _ in CASES])
def test_the_span_is_the_one_the_terms_regular_expression_finds(text: str, term: str) -> None:
    match = re.search(term_pattern(term), text)
    assert term_span(text, term) == (match.span() if match else None)


def test_the_matcher_takes_the_longest_term_the_rule_lets_through() -> None:
    matcher = TermMatcher(["RER", "RER B"])
    assert matcher.find("le RER B, le RER Bis") == [(3, 8), (13, 16)]


def test_the_matcher_never_overlaps_and_points_into_the_original_text() -> None:
    assert TermMatcher(["château", "teau de"]).find("Le Château de Versailles") == [(3, 10)]


def test_the_matcher_finds_a_latin_term_beside_japanese() -> None:
    assert TermMatcher(["Wi-Fi"]).find("Wi-Fiはありますか、wi-fiー") == [(0, 5), (12, 17)]


@pytest.mark.parametrize(
    "text", ["Le RER B, le RER Bis, rerun", "L’Orangerie et l'orangerie's", "wifiはwifi無料", "2rer rer2 rer"]
)
def test_the_matcher_finds_what_the_alternation_of_term_patterns_finds(text: str) -> None:
    terms = ["RER", "RER B", "orangerie", "wifi", "wifi無料", "l'orangerie"]
    longest = sorted({fold(t) for t in terms}, key=len, reverse=True)
    expected = [m.span() for m in re.finditer("|".join(map(term_pattern, longest)), fold(text))]
    assert TermMatcher(terms).find(text) == expected
