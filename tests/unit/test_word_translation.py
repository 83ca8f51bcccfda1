"""A question's words the glossary does not translate are found in French sentences by the embedder.

Real multilingual-e5-small (the ``local_embedder`` fixture), hand-made sentences.
"""

from __future__ import annotations

from typing import Any

from agents.answer.sentences import candidates
from agents.offline import reader
from agents.offline.reader import read_parts
from agents.offline.word_translation import translations, word_vectors
from rag.embeddings import PassageVectorCache
from rag.passage import Passage

SENTENCES = [
    "Les chambres de l'hôtel donnent sur le parc.",
    "Six véhicules électriques sont équipés pour un fauteuil roulant.",
    "Le parc compte de nombreuses allées plantées d'arbres.",
]


def _pool(texts: list[str]) -> list[Any]:
    passages = [
        Passage(
            number=n, chunk_id=f"c{n}", title="Infos", source=f"https://example.org/{n}", text=t, score=1.0
        )
        for n, t in enumerate(texts, start=1)
    ]
    return candidates(passages, "fr")


def test_a_word_is_translated_by_its_closest_word_in_the_sentences(local_embedder: Any) -> None:
    found = translations(["veiculos", "eletricos"], _pool(SENTENCES), local_embedder.embed_queries)

    assert found == {"veiculos": "vehicules", "eletricos": "electriques"}


def test_a_word_with_no_close_word_in_the_sentences_is_left_untranslated(local_embedder: Any) -> None:
    found = translations(["farmacia", "aeroporto"], _pool(SENTENCES), local_embedder.embed_queries)

    assert found == {}


def test_a_sentence_holding_a_translation_meets_the_word(local_embedder: Any, monkeypatch: Any) -> None:
    """ "Fenster" meets no French sentence by its spelling; "fenêtres" is its translation."""
    pool = _pool(["La galerie mesure 73 mètres de long.", "Dix-sept fenêtres font face aux arcades."])
    question = "Wie viele Fenster hat die Galerie?"

    def score_of_windows() -> float:
        vectors = PassageVectorCache(local_embedder.embed_documents)
        ranked = read_parts([question], "de", pool, local_embedder.embed_queries, vectors)[0].ranked
        return next(score for score, c in ranked if "fenêtres" in c.text)

    translated = score_of_windows()
    monkeypatch.setattr(
        reader, "_translated_needs", lambda part, language, target, needs, members, embed: needs
    )

    assert translated > score_of_windows() + 0.2


def test_word_vectors_are_kept_per_embedder_across_look_ups(local_embedder: Any) -> None:
    """``embedder.embed_queries`` is a new bound method at each look-up: the cache follows the
    embedder, so a second turn finds the first turn's words."""
    first = word_vectors(local_embedder.embed_queries)
    first(["véhicules"])

    assert word_vectors(local_embedder.embed_queries) is first
    assert "véhicules" in first.cache
