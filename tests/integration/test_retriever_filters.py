"""Filters apply to both the lexical and the dense side of the hybrid search."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.config import RagSettings
from rag.filters import SearchFilters
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder

QUERY = "palace gardens open every day"


@pytest.fixture
def retriever(corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder) -> HybridRetriever:
    index_corpus([corpus], settings, embedder=fake_embedder)
    return HybridRetriever(settings, embedder=fake_embedder)


def test_category_filter_keeps_that_category_only(retriever: HybridRetriever) -> None:
    hits = retriever.search(QUERY, k=10, filters=SearchFilters(categories=("getting-there",)))

    assert hits
    assert {hit.category for hit in hits} == {"getting-there"}


def test_category_filter_includes_sub_folders(tmp_path: Path, settings: RagSettings) -> None:
    embedder = HashingEmbedder()
    (tmp_path / "kb" / "visit" / "hours").mkdir(parents=True)
    (tmp_path / "kb" / "visit" / "hours" / "a.md").write_text("# Hours\n\nOpen at nine.", encoding="utf-8")
    (tmp_path / "kb" / "visitors.md").write_text("# Visitors\n\nOpen at ten.", encoding="utf-8")
    index_corpus([tmp_path / "kb"], settings, embedder=embedder)

    hits = HybridRetriever(settings, embedder=embedder).search(
        "open", k=5, filters=SearchFilters(categories=("visit",))
    )

    assert [hit.source for hit in hits] == ["visit/hours/a.md"]


def test_language_filter(retriever: HybridRetriever) -> None:
    hits = retriever.search("jardins bassin Grand Canal", k=10, filters=SearchFilters(languages=("en",)))

    assert hits
    assert {hit.language for hit in hits} == {"en"}


def test_source_prefix_filter(retriever: HybridRetriever) -> None:
    hits = retriever.search(QUERY, k=10, filters=SearchFilters(source_prefix="plan-your-visit/tickets"))

    assert {hit.source for hit in hits} == {"plan-your-visit/tickets.en.md"}


def test_filter_matching_nothing_returns_nothing(retriever: HybridRetriever) -> None:
    assert retriever.search(QUERY, k=5, filters=SearchFilters(categories=("nowhere",))) == []
