"""The evidence's words, embedded to translate a visitor's word by meaning, are kept in the index's
sentence store: a new process (here a new embedder object) reads them instead of embedding them
again, and the visitor's own words are never written there."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from agents.answer.sentences import Candidate
from agents.offline.word_translation import EVIDENCE_WORDS, keep_evidence_words, translations
from rag.sentence_store import SentenceVectorStore, kind_of
from tests.conftest import HashingEmbedder

NAME = "fake/hashing-64"


class CountingEmbedder(HashingEmbedder):
    """Counts the texts embedded as queries, and remembers them."""

    def __init__(self) -> None:
        super().__init__(NAME)
        self.queried: list[str] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.queried += list(texts)
        return np.stack([self._vector(text) for text in texts]).astype(np.float32)


def _best() -> list[Candidate]:
    text = "Les véhicules électriques stationnent devant la grille principale."
    return [
        Candidate(1, text, "Accès", "fr", frozenset(), frozenset(), "Accès", 1.0, 0),
    ]


def _translate(store: SentenceVectorStore) -> CountingEmbedder:
    embedder = CountingEmbedder()
    keep_evidence_words(embedder.embed_queries, store, embedder.name)
    translations(["vehículos", "eléctricos"], _best(), embedder.embed_queries)
    return embedder


def test_a_new_process_reads_the_evidence_words_and_never_stores_the_visitors(tmp_path: Path) -> None:
    store = SentenceVectorStore.beside(tmp_path)
    first = _translate(store)
    assert "stationnent" in first.queried  # the evidence's words were embedded once
    second = _translate(store)
    assert second.queried == ["vehículos", "eléctricos"]  # only the visitor's words, again
    stored = store.vectors(kind_of(NAME, EVIDENCE_WORDS), ["stationnent", "vehículos"])
    assert set(stored) == {"stationnent"}


def test_the_evidence_words_go_with_their_embedder(tmp_path: Path) -> None:
    store = SentenceVectorStore.beside(tmp_path)
    _translate(store)
    store.keep_only(NAME)  # the same embedder: its words stay
    assert store.vectors(kind_of(NAME, EVIDENCE_WORDS), ["stationnent"])
    store.keep_only("fake/another-model")  # another one: they go
    assert not store.vectors(kind_of(NAME, EVIDENCE_WORDS), ["stationnent"])
