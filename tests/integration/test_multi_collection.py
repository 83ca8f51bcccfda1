"""Several collections searched together, each hit saying which one it came from."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, write_corpus


def _two_collections(tmp_path: Path, settings_factory: Callable[..., RagSettings]) -> HashingEmbedder:
    """Index a "guides_kb" and a "pages_kb" collection side by side; return their embedder."""
    embedder = HashingEmbedder()
    guides = write_corpus(tmp_path / "guides", {"hours.md": "# Hours\n\nThe palace opens at nine."})
    pages = write_corpus(
        tmp_path / "pages", {"tickets.md": "# Tickets\n\nThe palace ticket costs twenty euros."}
    )
    index_corpus([guides], settings_factory(collection="guides_kb"), embedder=embedder)
    index_corpus([pages], settings_factory(collection="pages_kb"), embedder=embedder)
    return embedder


def test_hits_come_from_both_collections(
    tmp_path: Path, settings_factory: Callable[..., RagSettings]
) -> None:
    embedder = _two_collections(tmp_path, settings_factory)

    retriever = HybridRetriever(settings_factory(), embedder=embedder, collections=["guides_kb", "pages_kb"])
    hits = retriever.search("palace", k=5)

    assert {(hit.collection, hit.source) for hit in hits} == {
        ("guides_kb", "hours.md"),
        ("pages_kb", "tickets.md"),
    }


def test_one_collection_only_searches_that_one(
    tmp_path: Path, settings_factory: Callable[..., RagSettings]
) -> None:
    embedder = _two_collections(tmp_path, settings_factory)

    hits = HybridRetriever(settings_factory(collection="pages_kb"), embedder=embedder).search("palace", k=5)

    assert {hit.collection for hit in hits} == {"pages_kb"}
