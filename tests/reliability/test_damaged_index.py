"""An index whose vector (HNSW) files were overwritten: one sentence naming the rebuild, nothing changed."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.store import ChunkStore, IndexCorruptError, open_client
from tests.conftest import HashingEmbedder


def _large_corpus(root: Path, pages: int = 1200) -> Path:
    """Enough chunks for Chroma to write its HNSW files to disk (it keeps small ones in SQLite)."""
    root.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {
                "url": f"https://example.org/page-{i}",
                "title": f"Page {i}",
                "text": f"Room {i} of wing {i % 7}.",
            }
        )
        for i in range(pages)
    ]
    (root / "pages.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _overwrite_vector_files(index_dir: Path) -> list[Path]:
    damaged = sorted(index_dir.glob("*/*.bin"))
    for path in damaged:
        path.write_bytes(os.urandom(path.stat().st_size))
    return damaged


def _stored_rows(index_dir: Path) -> int:
    """Chunks in Chroma's SQLite metadata store, read without Chroma (its vectors are damaged)."""
    with sqlite3.connect(index_dir / "chroma.sqlite3") as connection:
        return int(connection.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])


@pytest.fixture
def damaged_index(tmp_path: Path, settings: RagSettings, fake_embedder: HashingEmbedder) -> Path:
    corpus = _large_corpus(tmp_path / "site")
    index_corpus([corpus], settings, embedder=fake_embedder)
    assert _overwrite_vector_files(settings.index_dir), "Chroma wrote no HNSW file to damage"
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient.clear_system_cache()  # a fresh process would read the damaged files
    return corpus


def test_searching_a_damaged_index_is_one_sentence_naming_the_rebuild(
    damaged_index: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    with pytest.raises(IndexCorruptError) as raised:
        HybridRetriever(settings, embedder=fake_embedder).search("room of the wing")

    message = str(raised.value)
    assert "\n" not in message
    assert "damaged" in message
    assert f"python -m rag index {damaged_index}" in message
    assert message.endswith("--rebuild")


def test_indexing_into_a_damaged_index_changes_nothing_and_rebuild_repairs_it(
    damaged_index: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    (damaged_index / "pages.jsonl").write_text("", encoding="utf-8")  # a run that would remove all
    (damaged_index / "more.md").write_text("# More\n\nA new page.\n", encoding="utf-8")
    stored_before = _stored_rows(settings.index_dir)

    with pytest.raises(IndexCorruptError, match="--rebuild"):
        index_corpus([damaged_index], settings, embedder=fake_embedder, prune=True)
    assert _stored_rows(settings.index_dir) == stored_before == 1200

    _large_corpus(damaged_index)
    (damaged_index / "more.md").unlink()

    report = index_corpus([damaged_index], settings, embedder=fake_embedder, rebuild=True)
    assert report.chunks == report.embedded == 1200
    store = ChunkStore.open(open_client(settings), settings.collection, settings)
    assert store.count() == 1200
    assert HybridRetriever(settings, embedder=fake_embedder).search("Room 17 of wing 3")
