"""Sentence vectors on disk beside the index, keyed by the embedder's name and the sentence's text.

The offline model compares a question with the evidence's sentences by meaning. Those sentences are
embedded once, when their passage is indexed (``rag.sentence_vectors``), and read from this file at
every turn after, by any process. A vector is found only under the embedder that made it, so an index
rebuilt with another embedder never reads stale vectors. One SQLite file: several processes may
read and write it at once, and a run stopped half-way keeps what it wrote.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

FILE_NAME = "sentence_vectors.sqlite3"
EMBEDDED_CHARS = 400  # a sentence's first characters embedded: a long table row says its value early
_BATCH = 500  # SQLite's parameters per statement stay well under its limit
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (embedder TEXT NOT NULL, text_hash TEXT NOT NULL, "
    "vector BLOB NOT NULL, PRIMARY KEY (embedder, text_hash))",
    # the chunks whose sentences are all stored: an unchanged corpus is checked without reading them
    "CREATE TABLE IF NOT EXISTS chunks (embedder TEXT NOT NULL, chunk_id TEXT NOT NULL, "
    "PRIMARY KEY (embedder, chunk_id))",
)


def kind_of(embedder: str, kind: str) -> str:
    """The name another kind of vector of ``embedder`` is stored under ("…#evidence-words"): dropped
    with the embedder's own when the index moves to another embedder."""
    return f"{embedder}#{kind}"


def embedded_form(text: str) -> str:
    """The part of a sentence's text that is embedded, and its key in the store."""
    return text[:EMBEDDED_CHARS]


def text_hash(text: str) -> str:
    """The key of a sentence's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SentenceVectorStore:
    """Sentence vectors per embedder in ``path``; a write that fails is logged, never raised, so a
    read-only index still answers (only slower)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None

    @classmethod
    def beside(cls, index_dir: Path) -> SentenceVectorStore:
        """The store of the index in ``index_dir``."""
        return cls(index_dir / FILE_NAME)

    def vectors(self, embedder: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of ``texts`` under ``embedder`` (the texts not stored are left out)."""
        by_hash = {text_hash(text): text for text in texts}
        found: dict[str, np.ndarray] = {}
        hashes = list(by_hash)
        for start in range(0, len(hashes), _BATCH):
            group = hashes[start : start + _BATCH]
            rows = self._read(
                f"SELECT text_hash, vector FROM vectors WHERE embedder = ? AND text_hash IN "
                f"({','.join('?' * len(group))})",
                [embedder, *group],
            )
            found.update({by_hash[key]: np.frombuffer(blob, dtype=np.float32) for key, blob in rows})
        return found

    def add(self, embedder: str, vectors: dict[str, np.ndarray]) -> None:
        """Store ``vectors`` (text → vector) under ``embedder``."""
        rows = [
            (embedder, text_hash(text), np.asarray(vector, dtype=np.float32).tobytes())
            for text, vector in vectors.items()
        ]
        self._write("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)

    def done_chunks(self, embedder: str, chunk_ids: Iterable[str]) -> set[str]:
        """Those of ``chunk_ids`` whose sentences are all stored under ``embedder``."""
        ids, done = list(chunk_ids), set[str]()
        for start in range(0, len(ids), _BATCH):
            group = ids[start : start + _BATCH]
            rows = self._read(
                "SELECT chunk_id, chunk_id FROM chunks WHERE embedder = ? AND chunk_id IN "
                f"({','.join('?' * len(group))})",
                [embedder, *group],
            )
            done.update(chunk_id for chunk_id, _ in rows)
        return done

    def mark_done(self, embedder: str, chunk_ids: Iterable[str]) -> None:
        """Record that the sentences of ``chunk_ids`` are all stored under ``embedder``."""
        self._write("INSERT OR IGNORE INTO chunks VALUES (?, ?)", [(embedder, i) for i in chunk_ids])

    def keep_only(self, embedder: str) -> None:
        """Drop every other embedder's vectors, of every kind (the index now uses ``embedder``)."""
        kinds = kind_of(embedder, "")
        for table in ("vectors", "chunks"):
            self._write(
                f"DELETE FROM {table} WHERE embedder != ? AND substr(embedder, 1, ?) != ?",
                [(embedder, len(kinds), kinds)],
            )

    def close(self) -> None:
        """Close the file (it reopens on the next use)."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.commit()
            self._connection = connection
        return self._connection

    def _read(self, sql: str, parameters: Sequence[str]) -> list[tuple[str, Any]]:
        """The rows (two columns) ``sql`` selects; none when the file is absent or unreadable."""
        if not self.path.exists():
            return []
        try:
            with self._lock:
                return self._connect().execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            logger.warning("Sentence vectors in %s cannot be read: %s", self.path, error)
            return []

    def _write(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        try:
            with self._lock:
                connection = self._connect()
                with connection:
                    connection.executemany(sql, rows)
        except (sqlite3.Error, OSError) as error:  # read-only or full: answers stay the same, slower
            logger.warning("Sentence vectors not stored in %s: %s", self.path, error)
