"""Index a small corpus into an embedded Chroma and search it back."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.config import RagSettings
from rag.indexer import IndexInputError, index_corpus
from rag.retriever import HybridRetriever
from rag.store import ChunkStore, open_client
from tests.conftest import CORPUS, HashingEmbedder


def _stored_ids(settings: RagSettings) -> set[str]:
    return set(ChunkStore.open(open_client(settings), settings.collection).all_metadata())


def test_index_then_search_finds_the_right_document(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    report = index_corpus([corpus], settings, embedder=fake_embedder)

    assert report.documents == len(CORPUS)
    assert report.issues == []
    assert report.embedded == report.chunks == len(_stored_ids(settings))
    hits = HybridRetriever(settings, embedder=fake_embedder).search("RER C train station", k=3)
    assert hits[0].source == "getting-there/transport.en.md"
    assert hits[0].category == "getting-there"
    assert hits[0].title == "Getting there"
    assert "RER C" in hits[0].text
    assert {"bm25", "dense", "rrf"} <= set(hits[0].scores)
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_index_records_how_it_was_built(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    info = ChunkStore.open(open_client(settings), settings.collection).info
    assert info["embedding_model"] == "fake/hashing-64"
    assert info["embedding_dimension"] == 64
    assert info["complete"] is True
    assert info["documents"] == len(CORPUS)
    assert set(info["languages"].split(",")) == {"en", "fr"}


def test_search_returns_at_most_k_hits(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)

    hits = HybridRetriever(settings, embedder=fake_embedder).search("palace", k=2)

    assert len(hits) == 2


def test_rerun_on_unchanged_corpus_embeds_nothing(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    first = index_corpus([corpus], settings, embedder=fake_embedder)
    ids = _stored_ids(settings)
    rerun = HashingEmbedder()

    second = index_corpus([corpus], settings, embedder=rerun)

    assert (second.embedded, second.deleted, second.metadata_updated) == (0, 0, 0)
    assert second.chunks == first.chunks
    assert rerun.texts_embedded == 0
    assert _stored_ids(settings) == ids


def test_rebuild_embeds_everything_again(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    first = index_corpus([corpus], settings, embedder=fake_embedder)

    second = index_corpus([corpus], settings, embedder=fake_embedder, rebuild=True)

    assert second.embedded == first.chunks
    assert len(_stored_ids(settings)) == first.chunks


@pytest.mark.parametrize("typo", ["empty", "does/not/exist"])
@pytest.mark.parametrize("rebuild", [False, True])
def test_a_path_with_nothing_to_index_is_an_error_that_removes_nothing(
    corpus: Path,
    tmp_path: Path,
    settings: RagSettings,
    fake_embedder: HashingEmbedder,
    typo: str,
    rebuild: bool,
) -> None:
    first = index_corpus([corpus], settings, embedder=fake_embedder)
    (tmp_path / "empty").mkdir()

    with pytest.raises(IndexInputError, match="nothing was indexed or removed"):
        index_corpus([tmp_path / typo], settings, embedder=fake_embedder, rebuild=rebuild, prune=True)

    assert len(_stored_ids(settings)) == first.chunks
