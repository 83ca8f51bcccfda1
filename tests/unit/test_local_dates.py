"""Dates written the visitor's way (Babel): the nine reply languages, and dates quoted from passages."""

from __future__ import annotations

import datetime as dt

import pytest

from agents.tools.dates import parse_visit_date
from rag.lexicon.dates import day_label, rewrite_passage_date
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language

SATURDAY = dt.date(2026, 11, 28)
FULL = {
    "fr": "samedi 28 novembre 2026",
    "en": "Saturday, November 28, 2026",
    "es": "sábado, 28 de noviembre de 2026",
    "de": "Samstag, 28. November 2026",
    "it": "sabato 28 novembre 2026",
    "pt": "sábado, 28 de novembro de 2026",
    "nl": "zaterdag 28 november 2026",
    "ja": "2026年11月28日土曜日",
    "zh": "2026年11月28日星期六",
}
QUOTED = {  # "14 juin 1772" from a French passage
    "fr": "14 juin 1772",
    "en": "June 14, 1772",
    "es": "14 de junio de 1772",
    "de": "14. Juni 1772",
    "it": "14 giugno 1772",
    "pt": "14 de junho de 1772",
    "nl": "14 juni 1772",
    "ja": "1772年6月14日",
    "zh": "1772年6月14日",
}


def test_the_tables_cover_the_nine_reply_languages() -> None:
    assert set(FULL) == set(QUOTED) == set(SUPPORTED_LANGUAGES)


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_day_is_written_with_its_weekday(language: str) -> None:
    assert day_label(SATURDAY, language) == FULL[language]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_label_reads_back_as_the_same_day(language: str) -> None:
    # Summaries offer a label as the example of a date to give: a visitor typing it back is understood.
    others = tuple(code for code in SUPPORTED_LANGUAGES if code != language)
    parsed = parse_visit_date(day_label(SATURDAY, language), dt.date(2026, 11, 23), (language, *others))
    assert (parsed.status, parsed.day) == ("ok", SATURDAY)


@pytest.mark.parametrize(
    ("language", "locale"), [("fr-FR", "fr"), ("pt_BR", "pt"), ("ko", "en"), (None, "en")]
)
def test_regional_and_unknown_languages(language: str | None, locale: str) -> None:
    assert supported_language(language) == locale


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_quoted_date_is_rewritten_in_the_reply_language(language: str) -> None:
    assert rewrite_passage_date("14 juin 1772", language) == QUOTED[language]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("1er juillet", "en", "July 1"),
        ("1er juillet", "fr", "1er juillet"),  # already in the visitor's language: kept as the passage has it
        ("Février 1710", "de", "Februar 1710"),
        ("29 février", "ja", "2月29日"),
        ("14 July 1789", "fr", "14 juillet 1789"),
        ("14 July 1789", "en", "14 July 1789"),
    ],
)
def test_day_month_and_month_year_forms(text: str, language: str, expected: str) -> None:
    assert rewrite_passage_date(text, language) == expected


@pytest.mark.parametrize("text", ["1682", "XVIIe siècle", "31 avril 1900", "le 8", "mars"])
def test_what_is_not_a_calendar_date_is_kept(text: str) -> None:
    assert rewrite_passage_date(text, "en") == text
