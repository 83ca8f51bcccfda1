"""A full disk while indexing is said to be one: the index stays usable and a rebuild drops nothing.

A real full disk needs root (a tiny tmpfs), so Chroma's writes are made to fail the ways a full disk
fails them: an ``OSError`` with ``ENOSPC``, SQLite's sentence, or Chroma's Rust core quoting the OS.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chromadb.api.models.Collection import Collection
from chromadb.errors import InternalError

import rag.indexer
from rag.config import RagSettings
from rag.disk import is_disk_full
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.snapshot import CollectionSnapshot
from rag.store import ChunkStore, DiskFullError, open_client
from tests.conftest import HashingEmbedder

FULL_DISK_ERRORS: dict[str, Callable[[], Exception]] = {
    "enospc": lambda: OSError(errno.ENOSPC, "No space left on device"),
    "sqlite": lambda: sqlite3.OperationalError("database or disk is full"),
    "chroma": lambda: InternalError(
        "Error executing plan: Error sending backfill request to compactor: "
        "Failed to apply logs to the hnsw segment writer: No space left on device (os error 28)"
    ),
}


def _fill_disk_after(monkeypatch: pytest.MonkeyPatch, upserts: int, error: Callable[[], Exception]) -> None:
    """Chroma accepts ``upserts`` batches, then every write fails as on a full disk."""
    original = Collection.upsert
    done = [0]

    def upsert(self: Collection, *args: Any, **kwargs: Any) -> Any:
        if done[0] >= upserts:
            raise error()
        done[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Collection, "upsert", upsert)
    monkeypatch.setattr(rag.indexer, "EMBED_GROUP", 2)  # several batches, so the disk fills mid-run


def _more_pages(corpus: Path, count: int = 8) -> None:
    for i in range(count):
        (corpus / f"wing-{i}.en.md").write_text(
            f"# Wing {i}\n\nThe wing {i} holds tapestries and clocks of room {i}.\n", encoding="utf-8"
        )


def _store(settings: RagSettings) -> ChunkStore:
    return ChunkStore.open(open_client(settings), settings.collection, settings)


@pytest.mark.parametrize("kind", sorted(FULL_DISK_ERRORS))
def test_a_full_disk_while_indexing_says_so_and_the_index_still_answers(
    corpus: Path,
    settings: RagSettings,
    fake_embedder: HashingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = set(_store(settings).all_metadata())
    _more_pages(corpus)
    _fill_disk_after(monkeypatch, 2, FULL_DISK_ERRORS[kind])

    with pytest.raises(DiskFullError) as raised:
        index_corpus([corpus], settings, embedder=fake_embedder)

    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"The disk holding {settings.index_dir} is full (")
    assert " free)" in message
    assert "indexing stopped after adding 4 of 8 new chunks" in message
    assert "still answers searches" in message and "run the same command again" in message
    assert "damaged" not in message and "nothing was changed" not in message
    assert "Rebuild it" not in message
    held = set(_store(settings).all_metadata())
    assert before < held and len(held) == len(before) + 4
    assert HybridRetriever(settings, embedder=fake_embedder).search("opening hours", k=3)

    monkeypatch.undo()  # space freed: the same command finishes the job
    report = index_corpus([corpus], settings, embedder=fake_embedder)
    assert report.embedded == 4
    assert _store(settings).info["complete"] is True


def test_a_lexical_snapshot_that_finds_no_room_is_kept_in_memory_and_search_works(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    _more_pages(corpus)
    _fill_disk_after(monkeypatch, 1, FULL_DISK_ERRORS["enospc"])
    with pytest.raises(DiskFullError):
        index_corpus([corpus], settings, embedder=fake_embedder)

    def no_room(self: CollectionSnapshot, folder: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(CollectionSnapshot, "save", no_room)

    assert HybridRetriever(settings, embedder=fake_embedder).search("wing tapestries", k=3)


@pytest.mark.parametrize("kind", sorted(FULL_DISK_ERRORS))
def test_a_rebuild_that_fills_the_disk_keeps_every_old_chunk(
    corpus: Path,
    settings: RagSettings,
    fake_embedder: HashingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = _store(settings).all_metadata()
    _more_pages(corpus)
    _fill_disk_after(monkeypatch, 1, FULL_DISK_ERRORS[kind])

    with pytest.raises(DiskFullError) as raised:
        index_corpus([corpus], settings, embedder=fake_embedder, rebuild=True)

    message = str(raised.value)
    assert "\n" not in message
    assert "the rebuild stopped and its partial copy was removed" in message
    assert f"'test_kb' is unchanged ({len(before)} chunks)" in message
    assert _store(settings).all_metadata() == before
    names = [collection.name for collection in open_client(settings).list_collections()]
    assert names == ["test_kb"]  # no partial copy left beside it
    assert HybridRetriever(settings, embedder=fake_embedder).search("opening hours", k=3)


def test_a_rebuild_is_searchable_from_the_old_collection_until_it_swaps(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = set(_store(settings).all_metadata())
    opened = HybridRetriever(settings, embedder=fake_embedder)
    seen_during: list[int] = []

    class Watching(HashingEmbedder):
        def embed_documents(self, texts: Any) -> Any:
            seen_during.append(len(opened.search("opening hours", k=3)))
            seen_during.append(_store(settings).count())
            return super().embed_documents(texts)

    _more_pages(corpus)
    report = index_corpus([corpus], settings, embedder=Watching(), rebuild=True)

    assert seen_during[0] > 0 and seen_during[1] == len(before)  # the old collection, whole
    assert report.embedded == report.chunks == len(before) + 8
    assert _store(settings).count() == report.chunks
    assert opened.search("wing tapestries", k=3)  # an open retriever finds the collection swapped in
    names = [collection.name for collection in open_client(settings).list_collections()]
    assert names == ["test_kb"]


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ENOSPC, "x"),
        OSError(errno.EDQUOT, "x"),
        RuntimeError("Failed to write: no space left on device"),
        sqlite3.OperationalError("database or disk is full"),
    ],
)
def test_a_full_disk_is_found_anywhere_in_the_chain(error: Exception) -> None:
    try:
        try:
            raise error
        except Exception as inner:
            raise ValueError("an upsert failed") from inner
    except ValueError as outer:
        assert is_disk_full(outer)


def test_other_errors_are_not_a_full_disk(tmp_path: Path) -> None:
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_disk_full(InternalError("Error loading hnsw index"), tmp_path)
