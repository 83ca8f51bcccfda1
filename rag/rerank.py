"""Reranking of fused candidates: query-term coverage, then near-duplicate suppression.

With an English-only embedding model over French text, fusion lets through chunks that match a
single frequent query word. Coverage (the IDF-weighted share of the query's terms a chunk holds,
heading path included) favours chunks that answer the whole query; near-duplicate suppression
keeps pages scraped twice under different URLs from filling the top k with the same text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.answer_types import RERANKED, expected_types, type_match
from rag.passage import Passage

_WORD = re.compile(r"\w+", re.UNICODE)
Coverage = Callable[[list[Passage]], list[float]]


def word_set(text: str) -> frozenset[str]:
    """Lower-cased word set, for duplicate detection."""
    return frozenset(_WORD.findall(text.casefold()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap of two word sets (1.0 = same words)."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def dense_closeness(pool: list[Passage]) -> list[float]:
    """Each hit's dense cosine rescaled to 0-1 within the pool (1 = the closest hit).

    A hit that only BM25 found was not among the dense candidates, so it is no closer than the
    farthest one that was: it gets 0. Rescaling matters because a multilingual model's cosines sit
    in a narrow band (0.75-0.90 for e5), where raw values would barely move the sum.
    """
    cosines = [hit.scores.get("dense") for hit in pool]
    known = [c for c in cosines if c is not None]
    if not known:
        return [0.0] * len(pool)
    low, high = min(known), max(known)
    span = high - low
    return [0.0 if c is None or span <= 0 else (c - low) / span for c in cosines]


class Reranker:
    """Re-sorts the best fused candidates by coverage-weighted score and drops near-duplicates."""

    def __init__(
        self,
        enabled: bool = True,
        depth: int = 30,
        coverage_weight: float = 1.0,
        duplicate_threshold: float = 0.8,
        answer_type_weight: float = 0.0,
        same_language_weight: float = 0.0,
        dense_similarity_weight: float = 0.0,
    ) -> None:
        self.dense_similarity_weight = dense_similarity_weight
        self.answer_type_weight = answer_type_weight
        self.same_language_weight = same_language_weight
        self.enabled = enabled
        self.depth = depth
        self.coverage_weight = coverage_weight
        self.duplicate_threshold = duplicate_threshold

    def rerank(
        self, hits: list[Passage], coverage: Coverage, query: str = "", language: str = ""
    ) -> list[Passage]:
        """The best hits, best first, near-duplicates removed (fused order when disabled).

        ``query`` is the lexical query (for answer types); a hit written in ``language``, the
        visitor's, gets a small bonus so a bilingual corpus answers in the visitor's language.
        """
        if not self.enabled or not hits:
            return hits
        pool = hits[: self.depth]
        top = max(hit.score for hit in pool) or 1.0
        kinds = expected_types(query, RERANKED)
        closeness = dense_closeness(pool)
        for hit, share, close in zip(pool, coverage(pool), closeness, strict=True):
            hit.scores["coverage"] = share
            hit.score = hit.score / top + self.coverage_weight * share
            hit.score += self.dense_similarity_weight * close
            if language and hit.language == language:
                hit.score += self.same_language_weight
            if kinds:
                hit.scores["answer_type"] = type_match(kinds, hit.text)
                hit.score += self.answer_type_weight * hit.scores["answer_type"]
            hit.scores["rerank"] = hit.score
        pool.sort(key=lambda hit: -hit.score)
        return self._distinct(pool)

    def _distinct(self, ranked: list[Passage]) -> list[Passage]:
        kept: list[Passage] = []
        kept_words: list[frozenset[str]] = []
        for hit in ranked:
            words = word_set(hit.text)
            if any(jaccard(words, other) >= self.duplicate_threshold for other in kept_words):
                continue
            kept.append(hit)
            kept_words.append(words)
        return kept
