"""Errors a user can meet with an index: each says what to do next."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever, QueryError
from rag.store import ChunkStore, EmbeddingMismatchError, IndexCorruptError, IndexMissingError, open_client
from tests.conftest import HashingEmbedder


def test_searching_with_another_model_says_how_to_rebuild(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    with pytest.raises(EmbeddingMismatchError) as raised:
        HybridRetriever(settings, embedder=HashingEmbedder(name="fake/other-64"))

    message = str(raised.value)
    assert "fake/hashing-64" in message
    assert "fake/other-64" in message
    assert "--rebuild" in message


def test_searching_with_another_dimension_is_refused(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    with pytest.raises(EmbeddingMismatchError, match="--rebuild"):
        HybridRetriever(settings, embedder=HashingEmbedder(dimension=32))


def test_indexing_with_another_model_is_refused_and_leaves_the_index_alone(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    store = ChunkStore.open(open_client(settings), settings.collection)
    ids, info = set(store.all_metadata()), store.info
    (corpus / "plan-your-visit" / "tickets.en.md").unlink()

    with pytest.raises(EmbeddingMismatchError, match="--rebuild"):
        index_corpus([corpus], settings, embedder=HashingEmbedder(name="fake/other-64"))

    assert set(store.all_metadata()) == ids
    assert store.info == info


def test_rebuild_switches_the_model(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    other = HashingEmbedder(name="fake/other-64")

    index_corpus([corpus], settings, embedder=other, rebuild=True)

    assert HybridRetriever(settings, embedder=other).search("ticket", k=1)


def test_missing_index_says_how_to_build_it(settings: RagSettings, fake_embedder: HashingEmbedder) -> None:
    with pytest.raises(IndexMissingError, match="python -m rag index"):
        HybridRetriever(settings, embedder=fake_embedder)


def test_missing_collection_next_to_another_is_reported(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    with pytest.raises(IndexMissingError, match="'other_kb'"):
        HybridRetriever(settings, embedder=fake_embedder, collections=["test_kb", "other_kb"])


def test_empty_query_is_refused(corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    with pytest.raises(QueryError):
        HybridRetriever(settings, embedder=fake_embedder).search("   \n ", k=3)


def _corrupt(settings: RagSettings) -> None:
    settings.index_dir.mkdir(parents=True, exist_ok=True)
    (settings.index_dir / "chroma.sqlite3").write_bytes(b"not a database" * 1000)


def test_a_corrupt_index_is_a_clear_error_that_says_how_to_rebuild(
    settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _corrupt(settings)

    with pytest.raises(IndexCorruptError, match="--rebuild"):
        HybridRetriever(settings, embedder=fake_embedder)


def test_rebuild_replaces_a_corrupt_index_and_keeps_it_aside(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _corrupt(settings)

    report = index_corpus([corpus], settings, embedder=fake_embedder, rebuild=True)

    assert report.embedded == report.chunks > 0
    assert HybridRetriever(settings, embedder=fake_embedder).search("opening hours", k=3)
    assert list(settings.index_dir.parent.glob(f"{settings.index_dir.name}.corrupt-*"))


def test_an_index_of_the_previous_default_says_exactly_what_to_run(
    corpus: Path, settings: RagSettings
) -> None:
    index_corpus([corpus], settings, embedder=HashingEmbedder(name="local/all-MiniLM-L6-v2"))

    with pytest.raises(EmbeddingMismatchError) as raised:
        HybridRetriever(settings, embedder=HashingEmbedder(name="local/multilingual-e5-small"))

    message = str(raised.value)
    assert "all-MiniLM-L6-v2, the default before multilingual-e5-small" in message
    command = f"python -m rag index {corpus} --index {settings.index_dir} --collection test_kb --rebuild"
    assert command in message
    assert "RAG_EMBEDDING_PROVIDER=minilm" in message


def test_re_indexing_an_index_of_the_previous_default_quotes_the_paths_given(
    corpus: Path, settings: RagSettings
) -> None:
    index_corpus([corpus], settings, embedder=HashingEmbedder(name="local/all-MiniLM-L6-v2"))

    with pytest.raises(EmbeddingMismatchError, match=f"python -m rag index {corpus / 'estate'} --index"):
        index_corpus(
            [corpus / "estate"], settings, embedder=HashingEmbedder(name="local/multilingual-e5-small")
        )


def test_an_index_of_the_previous_default_opens_with_the_minilm_provider(
    corpus: Path, settings: RagSettings
) -> None:
    index_corpus([corpus], settings, embedder=HashingEmbedder(name="local/all-MiniLM-L6-v2"))

    retriever = HybridRetriever(settings, embedder=HashingEmbedder(name="minilm/all-MiniLM-L6-v2"))

    assert retriever.search("palace opening hours", k=1)
