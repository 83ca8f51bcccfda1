"""Evidence sentences embedded once, at indexing, and read from the store beside the index."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from agents.answer.sentences import candidates
from rag.embeddings import PassageVectorCache
from rag.passage import Passage
from rag.sentence_store import SentenceVectorStore
from rag.sentence_vectors import index_sentences, passage_sentences, sentence_text
from tests.conftest import REPO_ROOT, HashingEmbedder

PAGE = """# Horaires

## Château

Le château ouvre à 9 h et ferme à 18 h 30, tous les jours sauf le lundi.
Les dernières admissions ont lieu à 18 h, une demi-heure avant la fermeture.

## Jardins

Les jardins sont ouverts tous les jours de 8 h à 20 h 30 en haute saison.
"""


def _reader_texts(text: str) -> list[str]:
    """The texts the offline reader embeds for a passage's sentences."""
    passage = Passage(chunk_id="c1", text=text, title="Horaires", headings="", score=1.0, number=1)
    return [sentence_text(c.label, c.text) for c in candidates([passage], "fr")]


def _indexed(tmp_path: Path, embedder: HashingEmbedder) -> SentenceVectorStore:
    store = SentenceVectorStore.beside(tmp_path)
    index_sentences([("c1", PAGE)], embedder.name, lambda: embedder, store, "fr")
    return store


def test_the_reader_embeds_no_sentence_of_an_indexed_passage(tmp_path: Path) -> None:
    indexing = HashingEmbedder()
    store = _indexed(tmp_path, indexing)
    at_turn = HashingEmbedder()
    vectors = PassageVectorCache(at_turn.embed_documents, store=store, name=at_turn.name)

    texts = _reader_texts(PAGE)
    found = vectors(texts)

    assert len(texts) >= 3 and at_turn.calls == 0
    assert np.allclose(found, indexing.embed_documents(texts))


def test_a_sentence_not_indexed_is_embedded_once_and_stored(tmp_path: Path) -> None:
    store = _indexed(tmp_path, HashingEmbedder())
    first, second = HashingEmbedder(), HashingEmbedder()
    new = "Le parc est ouvert aux cyclistes toute l'année, de 7 h à 20 h 30."

    PassageVectorCache(first.embed_documents, store=store, name=first.name)([new])
    PassageVectorCache(second.embed_documents, store=store, name=second.name)([new])

    assert (first.texts_embedded, second.texts_embedded) == (1, 0)


def test_the_vectors_survive_the_process_that_wrote_them(tmp_path: Path) -> None:
    store = _indexed(tmp_path, HashingEmbedder())
    texts = passage_sentences(PAGE, "fr")
    script = (
        "import sys; from pathlib import Path; from rag.sentence_store import SentenceVectorStore; "
        "texts = sys.stdin.read().split('\\n'); "
        "print(len(SentenceVectorStore(Path(sys.argv[1])).vectors('fake/hashing-64', texts)))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script, str(store.path)],
        input="\n".join(texts), capture_output=True, text=True, cwd=REPO_ROOT, check=True,
    )  # fmt: skip

    assert int(found.stdout) == len(texts) > 0


def test_vectors_of_another_embedder_are_never_read(tmp_path: Path) -> None:
    store = _indexed(tmp_path, HashingEmbedder(name="fake/old"))
    other = HashingEmbedder(name="fake/new", dimension=32)
    vectors = PassageVectorCache(other.embed_documents, store=store, name=other.name)

    found = vectors(_reader_texts(PAGE))

    assert other.calls == 1 and found.shape[1] == 32


def test_an_index_rebuilt_with_another_embedder_drops_the_old_vectors(tmp_path: Path) -> None:
    store = _indexed(tmp_path, HashingEmbedder(name="fake/old"))
    new = HashingEmbedder(name="fake/new")

    embedded = index_sentences([("c1", PAGE)], new.name, lambda: new, store, "fr")

    texts = passage_sentences(PAGE, "fr")
    assert embedded == len(texts) and new.texts_embedded == len(texts)
    assert store.vectors("fake/old", texts) == {}


def test_indexing_again_embeds_nothing_and_loads_no_model(tmp_path: Path) -> None:
    store = _indexed(tmp_path, HashingEmbedder())

    def no_model() -> HashingEmbedder:
        raise AssertionError("the embedder was built for nothing to embed")

    assert index_sentences([("c1", PAGE)], "fake/hashing-64", no_model, store, "fr") == 0


def test_an_unreadable_store_only_makes_the_reader_embed(tmp_path: Path) -> None:
    path = tmp_path / "vectors.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    embedder = HashingEmbedder()
    vectors = PassageVectorCache(
        embedder.embed_documents, store=SentenceVectorStore(path), name=embedder.name
    )

    assert vectors(["Le château ouvre à 9 h."]).shape == (1, 64)
    assert embedder.calls == 1
