"""The retriever as the agent's searches see it, remembering each search's per-stage scores.

Tool results carry only the final score of a passage (the model needs no more); the trace
inspector shows every ranking stage. One service serves every browser session, so the log is
bounded and locked, and keyed by query: the same query on the same index gives the same hits.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from rag.documents import SearchHit
from rag.embeddings import Embedder
from rag.retriever import HybridRetriever


@dataclass(frozen=True)
class SearchRecord:
    """The hits of one search (``SearchHit.to_dict()``, per-stage scores included) and its time."""

    hits: list[dict[str, Any]] = field(default_factory=list)
    ms: float = 0.0


class SearchLog:
    """A :class:`HybridRetriever` that remembers the last ``size`` searches by query."""

    def __init__(self, retriever: HybridRetriever, size: int = 256) -> None:
        self.retriever = retriever
        self.size = size
        self._records: OrderedDict[str, SearchRecord] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def languages(self) -> list[str]:
        return self.retriever.languages

    @property
    def embedder(self) -> Embedder:
        return self.retriever.embedder

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Search and remember the hits under ``query``."""
        started = time.perf_counter()
        hits = self.retriever.search(query, k=k)
        record = SearchRecord(
            [hit.to_dict() for hit in hits], round((time.perf_counter() - started) * 1000, 1)
        )
        with self._lock:
            self._records[query] = record
            self._records.move_to_end(query)
            while len(self._records) > self.size:
                self._records.popitem(last=False)
        return hits

    def lookup(self, query: str) -> SearchRecord | None:
        """The remembered search for ``query``, if still in the log."""
        with self._lock:
            return self._records.get(query)
