"""A passage's sentences as the offline model compares them with a question, embedded at indexing.

The reader (``agents.offline.reader``) scores evidence sentences by their cosine with the question;
embedding them at every turn cost half of an offline turn. Indexing embeds every sentence of a new
chunk once, into the store beside the index (``rag.sentence_store``), incrementally and resumably:
a chunk is marked done only once all its sentences are stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from rag.embeddings import Embedder
from rag.language import detect_language
from rag.sentence_store import SentenceVectorStore, embedded_form
from rag.sentences import labelled_sentences

logger = logging.getLogger(__name__)

GROUP = 64  # sentences embedded per call, and stored together


def sentence_text(label: str, text: str) -> str:
    """A sentence as it is embedded: under its label ("Horaires: ouvert de 9 h à 18 h 30")."""
    return f"{label}: {text}" if label else text


def passage_sentences(text: str, kb_language: str) -> list[str]:
    """The sentences of a passage as the reader embeds them, each once (``agents.answer.sentences``
    reads the evidence with the same language and splitter)."""
    language = detect_language(text, default=kb_language) or kb_language
    pairs = labelled_sentences(text, language)
    return list(dict.fromkeys(embedded_form(sentence_text(label, sentence)) for label, sentence in pairs))


def index_sentences(
    chunks: Sequence[tuple[str, str]],
    name: str,
    embedder: Callable[[], Embedder],
    store: SentenceVectorStore,
    kb_language: str,
) -> int:
    """Embed and store the sentences of ``chunks`` (id, text) not stored yet under the embedder
    ``name`` (built by ``embedder`` only when some are missing).

    Returns how many sentences were embedded. Resumable: what a stopped run stored is kept, and its
    chunks are marked done group by group. Other embedders' vectors are dropped.
    """
    store.keep_only(name)
    done = store.done_chunks(name, [chunk_id for chunk_id, _ in chunks])
    todo = [
        (chunk_id, passage_sentences(text, kb_language)) for chunk_id, text in chunks if chunk_id not in done
    ]
    if not todo:
        return 0
    model = embedder()
    embedded, pending_chunks, pending_texts = 0, [], []
    for position, (chunk_id, texts) in enumerate(todo):
        pending_chunks.append(chunk_id)
        pending_texts.extend(texts)
        if len(pending_texts) >= GROUP or position == len(todo) - 1:
            embedded += _store_group(pending_texts, model, store)
            store.mark_done(name, pending_chunks)
            pending_chunks, pending_texts = [], []
    if embedded:
        logger.info("Embedded %d sentences of %d chunks for the offline reader", embedded, len(todo))
    return embedded


def _store_group(texts: list[str], embedder: Embedder, store: SentenceVectorStore) -> int:
    """Embed and store those of ``texts`` not stored yet; how many were embedded."""
    unique = list(dict.fromkeys(texts))
    stored = store.vectors(embedder.name, unique)
    missing = [t for t in unique if t not in stored]
    for start in range(0, len(missing), GROUP):
        group = missing[start : start + GROUP]
        vectors = np.asarray(embedder.embed_documents(group), dtype=np.float32)
        store.add(embedder.name, dict(zip(group, vectors, strict=True)))
    return len(missing)
