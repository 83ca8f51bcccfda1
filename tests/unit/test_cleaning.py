"""Cleaning removes extraction debris and keeps every real word."""

from __future__ import annotations

from rag.cleaning import clean_text, content_key
from rag.lexicon.folding import fold_accents


def test_image_placeholders_are_removed() -> None:
    assert clean_text("Before.\n\n<!-- image -->\n\nAfter.") == "Before.\n\nAfter."


def test_inline_image_placeholder_is_removed() -> None:
    assert clean_text("A <!-- image --> B") == "A  B"


def test_empty_headings_are_removed_and_real_ones_kept() -> None:
    cleaned = clean_text("# Title\n\n##\n\nText.\n\n###   \n\n## Section\n\nMore.")

    assert cleaned == "# Title\n\nText.\n\n## Section\n\nMore."


def test_empty_bullets_and_rules_are_removed() -> None:
    cleaned = clean_text("- first\n-\n* •\n---\n- second")

    assert cleaned == "- first\n\n- second"


def test_real_content_is_kept() -> None:
    text = "# Horaires\n\n- Château : 9 h – 18 h 30\n- Tarif : 21 €\n\n**Dernière entrée** à 17 h 45."

    assert clean_text(text) == text


def test_blank_runs_fold_and_no_break_spaces_become_spaces() -> None:
    assert clean_text("A\u00a0B\r\n\r\n\r\n\r\nC   \n") == "A B\n\nC"


def test_content_key_ignores_case_and_white_space() -> None:
    assert content_key("The Same  page\n") == content_key("the same page")
    assert content_key("the same page") != content_key("the same pages")


def test_fold_accents() -> None:
    assert fold_accents("Château Élysée") == "chateau elysee"
