"""The offline reader with the real multilingual embedder: meaning, not shared words, ranks sentences."""

from __future__ import annotations

from typing import Any

from agents.graph.gathered import Gathered
from agents.offline import reply
from rag.embeddings import PassageVectorCache

EVIDENCE = [
    {"number": n, "chunk_id": f"c{n}", "title": "Infos", "source": "s", "text": text, "score": 1.0}
    for n, text in [
        (1, "Les bassins du Parc sont curés chaque hiver par les fontainiers du domaine."),
        (2, "L'orgue de la Chapelle royale fut construit par le facteur Robert Clicquot en 1711."),
        (3, "Le restaurant propose une cuisine française de saison dans un pavillon du jardin."),
    ]
]  # fmt: skip
QUESTION = "オルガンを作ったのは誰ですか？"  # no word in common with the French evidence


def _ranking(embedder: Any) -> list[tuple[float, int]]:
    gathered = Gathered.model_validate({"question": QUESTION, "language": "ja", "evidence": EVIDENCE})
    vectors = PassageVectorCache(embedder.embed_documents) if embedder else None
    reading = reply.Reading.of(gathered, "fr", embedder.embed_queries if embedder else None, vectors)
    return [(score, candidate.number) for score, candidate in reading.parts[0].ranked]


def test_the_embedder_ranks_first_the_french_sentence_a_japanese_question_is_about(
    local_embedder: Any,
) -> None:
    ranking = _ranking(local_embedder)

    assert ranking[0][1] == 2
    assert ranking[0][0] > max(score for score, _ in ranking[1:])


def test_without_the_embedder_nothing_tells_the_sentences_apart() -> None:
    assert len({score for score, _ in _ranking(None)}) == 1
