"""The shared vocabularies (rag/lexicon/): languages, scripts, folding, transport modes and dates."""

from __future__ import annotations

import pytest
from babel import Locale

from agents.tools.travel.tool import parse_mode
from rag.lexicon.dates import month_names, weekday_names
from rag.lexicon.folding import fold, fold_accents, fold_latin_accents, folded_positions
from rag.lexicon.languages import LANGUAGE_NAMES, SUPPORTED_LANGUAGES, supported_language
from rag.lexicon.scripts import CJK_CHARACTER, UNSPACED_CHARACTER
from rag.lexicon.transport import named_kinds


def test_fold_straightens_apostrophes_as_well_as_accents() -> None:
    assert fold("L’Orangerie du Château") == "l'orangerie du chateau"


def test_folded_positions_point_back_into_the_original_text() -> None:
    folded, starts = folded_positions("Straße")
    assert (folded, starts) == ("strasse", [0, 1, 2, 3, 4, 4, 5])


def test_the_place_name_fold_spells_ligatures_out() -> None:
    assert fold_latin_accents("Sacré-Cœur") == "sacre-coeur"


def test_the_place_name_fold_keeps_kana_voicing_marks_the_general_fold_drops() -> None:
    assert (fold_latin_accents("ド"), fold_accents("ド")) == ("ド", "ト")


@pytest.mark.parametrize("char", ["ひ", "カ", "・", "宮", "㐀", "﨑"])
def test_kana_and_han_are_unspaced_characters(char: str) -> None:
    assert UNSPACED_CHARACTER.match(char) and CJK_CHARACTER.match(char)


def test_hangul_is_cjk_but_written_with_spaces() -> None:
    assert CJK_CHARACTER.match("한") and not UNSPACED_CHARACTER.match("한")


@pytest.mark.parametrize("char", ["a", "é", "ж", "。", "1"])
def test_latin_cyrillic_punctuation_and_digits_are_not_cjk(char: str) -> None:
    assert not CJK_CHARACTER.match(char)


@pytest.mark.parametrize(
    ("tag", "language"),
    [("pt-BR", "pt"), ("zh-Hant", "zh"), ("zh_Hans_CN", "zh"), (" DE-at ", "de"), ("ja", "ja")],
)
def test_a_locale_tag_names_its_supported_language(tag: str, language: str) -> None:
    assert supported_language(tag) == language


@pytest.mark.parametrize("tag", ["ko", "ko-KR", "", None, "French"])
def test_an_unsupported_tag_falls_back_to_the_default(tag: str | None) -> None:
    assert (supported_language(tag), supported_language(tag, default="fr")) == ("en", "fr")


def test_the_english_language_names_are_cldrs() -> None:
    english = Locale.parse("en").languages
    assert {code: english[code] for code in SUPPORTED_LANGUAGES} == LANGUAGE_NAMES


MARCH = {"fr": "mars", "en": "March", "es": "marzo", "de": "März", "it": "marzo", "pt": "março",
         "nl": "maart", "ja": "3月", "zh": "三月"}  # fmt: skip


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_twelve_month_names_in_each_language_from_babel(language: str) -> None:
    names = month_names(language)
    assert len(set(names)) == 12 and names[2] == MARCH[language]


@pytest.mark.parametrize(("language", "monday"), [("fr", "lundi"), ("de", "Montag"), ("ja", "月曜日")])
def test_weekday_names_start_on_monday(language: str, monday: str) -> None:
    names = weekday_names(language)
    assert len(set(names)) == 7 and names[0] == monday


@pytest.mark.parametrize(
    ("kind", "mode"), [(kind, mode) for mode, kinds in named_kinds().items() for kind in kinds]
)
def test_the_travel_tool_reads_each_named_kind_as_its_mode(kind: str, mode: str) -> None:
    assert parse_mode(kind) == mode  # the offline router passes the kind's name as ``mode``


@pytest.mark.parametrize(
    ("word", "mode"),
    [(word, mode) for mode, kinds in named_kinds().items() for words in kinds.values() for word in words],
)
def test_no_word_of_a_named_kind_means_another_mode_to_the_travel_tool(word: str, mode: str) -> None:
    assert parse_mode(word) in (mode, None)
