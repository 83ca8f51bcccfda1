"""BM25 tokenisation: accent folding, stop words and stemming, the same for text and query."""

from __future__ import annotations

from rag.bm25 import BM25Index, tokenizer_for


def test_accents_are_folded() -> None:
    tokenize = tokenizer_for("fr")

    assert tokenize("château") == tokenize("chateau") == tokenize("CHÂTEAU")


def test_plural_and_singular_share_a_stem() -> None:
    assert tokenizer_for("fr")("jardins") == tokenizer_for("fr")("jardin")
    assert tokenizer_for("en")("gardens") == tokenizer_for("en")("garden")


def test_stop_words_are_dropped() -> None:
    assert tokenizer_for("fr")("le jardin du roi") == tokenizer_for("fr")("jardin roi")


def test_unknown_language_falls_back_to_english() -> None:
    assert tokenizer_for("und").language == "en"


def test_plural_query_finds_singular_text() -> None:
    index = BM25Index.build(["a", "b"], ["La galerie des Glaces", "Le jardin du roi"], "fr", generation=1)

    assert [position for position, _ in index.search("jardins", 5)] == [1]


def test_unaccented_query_finds_accented_text() -> None:
    index = BM25Index.build(["a", "b"], ["Le château de Trianon", "Le jardin du roi"], "fr", generation=1)

    assert [position for position, _ in index.search("chateau", 5)] == [0]


def test_query_sharing_no_term_returns_nothing() -> None:
    index = BM25Index.build(["a", "b"], ["La galerie des Glaces", "Le jardin du roi"], "fr", generation=1)

    assert index.search("parking voiture", 5) == []


def test_empty_index_returns_nothing() -> None:
    index = BM25Index.build([], [], "fr", generation=1)

    assert index.search("jardin", 5) == []
