"""The lexical side of a collection: its chunks and BM25 model, saved per Chroma generation."""

from __future__ import annotations

import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag.bm25 import BM25Index
from rag.disk import is_disk_full
from rag.store import ChunkStore

logger = logging.getLogger(__name__)


def context_text(text: str, metadata: dict[str, Any]) -> str:
    """Chunk text preceded by its title and heading path, as embedded and BM25-indexed."""
    context = " > ".join(part for part in (metadata.get("title"), metadata.get("headings")) if part)
    return f"{context}\n{text}" if context else text


@dataclass
class CollectionSnapshot:
    """Chunk texts and metadata of one collection at one generation, with their BM25 index."""

    ids: list[str]
    texts: list[str]
    metadatas: list[dict[str, Any]]
    bm25: BM25Index

    @property
    def generation(self) -> int:
        return self.bm25.generation

    @classmethod
    def build(
        cls,
        records: list[tuple[str, str, dict[str, Any]]],
        language: str,
        generation: int,
    ) -> CollectionSnapshot:
        """Index ``(id, text, metadata)`` records, sorted by id for a stable order."""
        records = sorted(records, key=lambda record: record[0])
        ids = [record[0] for record in records]
        texts = [record[1] for record in records]
        metadatas = [record[2] for record in records]
        contexts = [context_text(text, meta) for text, meta in zip(texts, metadatas, strict=True)]
        return cls(ids, texts, metadatas, BM25Index.build(ids, contexts, language, generation))

    @classmethod
    def from_store(cls, store: ChunkStore) -> CollectionSnapshot:
        """Rebuild from what Chroma holds now."""
        info = store.info
        language = str(info.get("main_language") or "en")
        return cls.build(list(store.iter_records()), language, int(info.get("generation", 0)))

    def save(self, folder: Path) -> None:
        """Write atomically: a new folder, then a rename over the old one; a failed write leaves
        the old folder and no half-written one."""
        staging = folder.with_name(folder.name + ".staging")
        shutil.rmtree(staging, ignore_errors=True)
        try:
            self.bm25.save(staging / "bm25")
            with (staging / "chunks.jsonl").open("w", encoding="utf-8") as handle:
                for chunk_id, text, meta in zip(self.ids, self.texts, self.metadatas, strict=True):
                    handle.write(json.dumps({"id": chunk_id, "text": text, "meta": meta}) + "\n")
            meta = {"language": self.bm25.language, "generation": self.generation}
            (staging / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        replace_folder(staging, folder)

    @classmethod
    def load(cls, folder: Path) -> CollectionSnapshot | None:
        """The saved snapshot, or None when absent or unreadable (the caller rebuilds it)."""
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
            ids, texts, metadatas = [], [], []
            with (folder / "chunks.jsonl").open(encoding="utf-8") as handle:
                for line in handle:
                    record = json.loads(line)
                    ids.append(record["id"])
                    texts.append(record["text"])
                    metadatas.append(record["meta"])
            bm25 = BM25Index.load(folder / "bm25", ids, meta["language"], int(meta["generation"]))
            return cls(ids, texts, metadatas, bm25)
        except (OSError, ValueError, KeyError) as error:
            logger.warning("Lexical snapshot at %s unreadable (%s); rebuilding it.", folder, error)
            return None


def replace_folder(source: Path, folder: Path) -> None:
    """Put ``source`` where ``folder`` is by renames only (no copy, so no room needed)."""
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    source.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def snapshot_folder(index_dir: Path, location: str, collection: str) -> Path:
    """Where the lexical snapshot of ``collection`` lives (embedded or server index)."""
    return index_dir / "lexical" / location / collection


def load_fresh_snapshot(store: ChunkStore, folder: Path) -> CollectionSnapshot:
    """The snapshot matching Chroma's current generation, rebuilt and saved if stale."""
    info = store.info
    snapshot = CollectionSnapshot.load(folder)
    generation = int(info.get("generation", 0))
    if snapshot and snapshot.generation == generation and len(snapshot.ids) == store.count():
        return snapshot
    logger.info("Rebuilding the BM25 snapshot of %s from Chroma.", store.collection.name)
    snapshot = CollectionSnapshot.from_store(store)
    try:
        snapshot.save(folder)
    except OSError as error:
        if not is_disk_full(error):
            raise
        # Searching needs the snapshot, not its copy on disk: the next start saves it again.
        logger.warning("Lexical snapshot of %s kept in memory only: %s.", store.collection.name, error)
    return snapshot
