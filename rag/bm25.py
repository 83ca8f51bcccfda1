"""BM25 over accent-folded, stop-word-filtered, Snowball-stemmed tokens (bm25s + PyStemmer)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
from bm25s import stopwords as bm25s_stopwords

from rag.lexicon.folding import fold_accents

_TOKEN = re.compile(r"\w+", re.UNICODE)
STEMMER_LANGUAGES = {
    "fr": "french", "en": "english", "es": "spanish", "de": "german",
    "it": "italian", "pt": "portuguese", "nl": "dutch",
}  # fmt: skip
_STOPWORDS = {
    "fr": bm25s_stopwords.STOPWORDS_FRENCH, "en": bm25s_stopwords.STOPWORDS_EN,
    "es": bm25s_stopwords.STOPWORDS_SPANISH, "de": bm25s_stopwords.STOPWORDS_GERMAN,
    "it": bm25s_stopwords.STOPWORDS_ITALIAN, "pt": bm25s_stopwords.STOPWORDS_PORTUGUESE,
    "nl": bm25s_stopwords.STOPWORDS_DUTCH,
}  # fmt: skip


class Tokenizer:
    """Fold accents, drop stop words, stem: the same function for documents and queries."""

    def __init__(self, language: str) -> None:
        self.language = language if language in STEMMER_LANGUAGES else "en"
        self.stemmer = Stemmer.Stemmer(STEMMER_LANGUAGES[self.language])
        self.stopwords = frozenset(fold_accents(word) for word in _STOPWORDS[self.language])

    def __call__(self, text: str) -> list[str]:
        words = [word for word in _TOKEN.findall(fold_accents(text)) if word not in self.stopwords]
        return list(self.stemmer.stemWords(words))


@lru_cache(maxsize=8)
def tokenizer_for(language: str) -> Tokenizer:
    """Shared tokenizer per language (stemmers are cheap but not free to build)."""
    return Tokenizer(language)


class BM25Index:
    """A bm25s index over chunk ids, saved beside the Chroma generation it mirrors."""

    def __init__(self, ids: list[str], model: bm25s.BM25, language: str, generation: int) -> None:
        self.ids = ids
        self.model = model
        self.language = language
        self.generation = generation
        self.tokenize = tokenizer_for(language)

    @classmethod
    def build(cls, ids: list[str], texts: list[str], language: str, generation: int) -> BM25Index:
        """Index ``texts`` (already carrying their heading context)."""
        tokenize = tokenizer_for(language)
        model = bm25s.BM25()
        if ids:
            model.index([tokenize(text) or [""] for text in texts], show_progress=False)
        return cls(ids, model, language, generation)

    def search(self, query: str, limit: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
        """Positions and scores of the best chunks; chunks sharing no term are never returned."""
        if not self.ids:
            return []
        tokens = [token for token in self.tokenize(query) if token in self.model.vocab_dict]
        if not tokens:
            return []
        limit = min(limit, len(self.ids))
        positions, scores = self.model.retrieve(
            [tokens], k=limit, show_progress=False, weight_mask=mask, n_threads=1
        )
        return [
            (int(position), float(score))
            for position, score in zip(positions[0], scores[0], strict=True)
            if score > 0
        ]

    def coverage(self, query: str, positions: list[int]) -> list[float]:
        """IDF-weighted share of the query's distinct terms found in each given chunk."""
        if not self.ids or not positions:
            return [0.0] * len(positions)
        tokens = list(dict.fromkeys(t for t in self.tokenize(query) if t in self.model.vocab_dict))
        if not tokens:
            return [0.0] * len(positions)
        total = len(self.ids)
        found = np.zeros(len(positions), dtype=np.float64)
        weight_sum = 0.0
        for token in tokens:
            scores = self.model.get_scores([token])
            frequency = int(np.count_nonzero(scores))
            idf = float(np.log((total - frequency + 0.5) / (frequency + 0.5) + 1.0))
            weight_sum += idf
            found += idf * (scores[positions] > 0)
        return (found / weight_sum).tolist() if weight_sum else [0.0] * len(positions)

    def save(self, folder: Path) -> None:
        """Write the bm25s model files into ``folder`` (the caller makes the write atomic)."""
        folder.mkdir(parents=True, exist_ok=True)
        if self.ids:
            self.model.save(str(folder), show_progress=False)

    @classmethod
    def load(cls, folder: Path, ids: list[str], language: str, generation: int) -> BM25Index:
        """Read the model saved by :meth:`save` for the given ids."""
        model = bm25s.BM25.load(str(folder), show_progress=False) if ids else bm25s.BM25()
        return cls(ids, model, language, generation)
