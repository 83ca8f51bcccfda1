"""An embedder that remembers its recent query vectors, so a turn embeds each query text once.

A turn embeds the same texts as queries several times: the search embeds its query, then the
offline reader embeds the question's parts (often the same text) for its gap analysis, its critique
and its answer. A query's vector does not depend on the texts embedded beside it (checked for e5:
one text alone and in a batch give the same floats), so a remembered vector is the vector.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from rag.embeddings import Embedder

KEPT = 1024  # query texts remembered, the least recently used dropped first


class QueryMemo:
    """``inner`` with its query vectors remembered (passages are embedded as ``inner`` does)."""

    def __init__(self, inner: Embedder, limit: int = KEPT) -> None:
        self.inner, self.limit = inner, limit
        self.name = inner.name
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return self.inner.embed_queries(texts)
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._kept))
        if missing:  # embedded outside the lock: the engine has its own
            vectors = np.asarray(self.inner.embed_queries(missing), dtype=np.float32)
        with self._lock:
            if missing:
                self._kept.update(zip(missing, vectors, strict=True))
            rows = [self._kept[t] for t in texts] if all(t in self._kept for t in texts) else None
            for text in texts:
                if text in self._kept:
                    self._kept.move_to_end(text)
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)
        if rows is None:  # pushed out by another thread's texts meanwhile (a limit below a turn's texts)
            return np.asarray(self.inner.embed_queries(list(texts)), dtype=np.float32)
        return np.array(rows, dtype=np.float32).reshape(len(texts), -1)

    def __getattr__(self, attribute: str) -> Any:
        """Everything else (``model``, ``batch_size``...) is ``inner``'s."""
        if attribute == "inner":  # not set yet (a copy being made)
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)


def remembering(embedder: Embedder) -> Embedder:
    """``embedder`` with its query vectors remembered (once: a memo is not wrapped again)."""
    return embedder if isinstance(embedder, QueryMemo) else QueryMemo(embedder)
