"""Reranking of fused candidates."""

from __future__ import annotations

import numpy as np

from rag.documents import SearchHit


class Reranker:
    """Placeholder until measured: keeps the fused order."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled

    def rerank(self, query: str, vector: np.ndarray, hits: list[SearchHit], k: int) -> list[SearchHit]:
        return hits[:k]
