"""Smoke test of retrieval quality: the real local model on the shipped corpus (data/corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from rag.config import DEFAULT_CORPUS
from rag.retriever import HybridRetriever
from tests.conftest import BundledIndex

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not any(DEFAULT_CORPUS.rglob("*.md")), reason=f"no corpus in {DEFAULT_CORPUS}"),
]

QUESTIONS = [
    ("Quels sont les horaires d'ouverture du château ?", "plan-your-visit/opening-hours."),
    ("What time does the palace open?", "plan-your-visit/opening-hours."),
    ("Combien coûte le billet pour visiter le château ?", "plan-your-visit/tickets-and-prices."),
    ("How much is a ticket to the palace?", "plan-your-visit/tickets-and-prices."),
    ("Comment venir à Versailles en train depuis Paris ?", "getting-there/access-and-transport."),
    ("How do I get to Versailles by train from Paris?", "getting-there/access-and-transport."),
]


@pytest.fixture(scope="module")
def retriever(local_embedder: Any, bundled_index: BundledIndex) -> HybridRetriever:
    assert bundled_index.report.issues == []
    return HybridRetriever(bundled_index.settings, embedder=local_embedder)


@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
def test_obvious_question_finds_its_page_in_the_top_3(
    retriever: HybridRetriever, question: str, expected: str
) -> None:
    hits = retriever.search(question, k=3)

    sources = [source for hit in hits for source in hit.sources]
    assert any(source.startswith(expected) for source in sources), sources


@pytest.mark.parametrize(
    ("question", "language"), [(q, "fr" if i % 2 == 0 else "en") for i, (q, _) in enumerate(QUESTIONS)]
)
def test_the_best_passage_is_in_the_visitors_language(
    retriever: HybridRetriever, question: str, language: str
) -> None:
    assert retriever.search(question, k=1)[0].language == language


def test_the_corpus_is_indexed_in_french_and_english(retriever: HybridRetriever) -> None:
    assert set(retriever.languages) == {"en", "fr"}


def test_every_topic_page_and_nothing_else_is_indexed(retriever: HybridRetriever) -> None:
    topics = {path.relative_to(DEFAULT_CORPUS).as_posix() for path in DEFAULT_CORPUS.glob("*/*.md")}

    indexed = {source for meta in retriever.collections[0].snapshot.metadatas for source in meta["sources"]}

    assert indexed == topics
