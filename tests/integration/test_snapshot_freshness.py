"""The BM25 snapshot is rebuilt from Chroma whenever it is missing or stale."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.snapshot import snapshot_folder
from rag.store import ChunkStore, open_client
from tests.conftest import HashingEmbedder


def _folder(settings: RagSettings) -> Path:
    return snapshot_folder(settings.index_dir, "embedded", settings.collection)


def _generation_on_disk(settings: RagSettings) -> int:
    return int(json.loads((_folder(settings) / "meta.json").read_text(encoding="utf-8"))["generation"])


def test_indexing_saves_a_snapshot_of_the_current_generation(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    index_corpus([corpus], settings, embedder=fake_embedder)
    store = ChunkStore.open(open_client(settings), settings.collection)
    assert _generation_on_disk(settings) == store.info["generation"] == 1, "unchanged run: same generation"

    first = sorted(corpus.rglob("*.md"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n\nA new paragraph about opening hours.\n")
    index_corpus([corpus], settings, embedder=fake_embedder)
    store = ChunkStore.open(open_client(settings), settings.collection)
    assert _generation_on_disk(settings) == store.info["generation"] == 2


def test_deleted_snapshot_is_rebuilt_and_search_works(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    shutil.rmtree(_folder(settings))

    hits = HybridRetriever(settings, embedder=fake_embedder).search("RER C train station", k=3)

    assert hits[0].source == "getting-there/transport.en.md"
    assert "bm25" in hits[0].scores
    assert _generation_on_disk(settings) == 1


def test_corrupt_snapshot_is_rebuilt(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    (_folder(settings) / "meta.json").write_text("{not json", encoding="utf-8")

    hits = HybridRetriever(settings, embedder=fake_embedder).search("RER C train station", k=3)

    assert hits[0].source == "getting-there/transport.en.md"
    assert _generation_on_disk(settings) == 1


def test_bumped_generation_rebuilds_the_snapshot_from_chroma(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    store = ChunkStore.open(open_client(settings), settings.collection)
    removed = [
        i for i, meta in store.all_metadata().items() if meta["source"] == "getting-there/transport.en.md"
    ]
    store.delete(removed)
    store.update_info(generation=store.info["generation"] + 1)

    retriever = HybridRetriever(settings, embedder=fake_embedder)

    assert _generation_on_disk(settings) == 2
    assert not set(removed) & set(retriever.collections[0].snapshot.ids)
    hits = retriever.search("RER C train station", k=3)
    assert hits
    assert all(hit.source != "getting-there/transport.en.md" for hit in hits)


def test_open_retriever_sees_a_reindex_without_restarting(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    retriever = HybridRetriever(settings.model_copy(update={"freshness_check_seconds": 0.0}), fake_embedder)
    assert not any("zeppelin" in hit.text for hit in retriever.search("zeppelin hangar", k=5))

    (corpus / "zeppelin.md").write_text("# Zeppelin\n\nThe zeppelin hangar opens on Sundays.\n")
    index_corpus([corpus], settings, embedder=fake_embedder)

    assert any("zeppelin" in hit.text for hit in retriever.search("zeppelin hangar", k=5))
