"""A question's words found in the evidence's language by the multilingual embedder.

A visitor asks in nine languages; most of the knowledge base is in one. The glossary translates the
visit's known topics; any other word of a question ("veículos", "Fenster", "habitaciones") meets no
sentence by its spelling. Its closest word among the best sentences' words, by the embedder, is
taken as its translation when their cosine reaches ``TRANSLATION_FROM`` ("veículos" and
"véhicules" 0.96, "habitaciones" and "chambres" 0.93; "Fenster" and "arcades", 0.81, are not;
"jardineiros" and "jardins", 0.94, are, when no "jardiniers" is there to come closer). The reader
then ranks the sentences holding the translation as if they held the word; the answerability
score still reads the question's own words. 0.91 was chosen on the "tune" half of the development
and scope questions (0.89 to 0.95 tried), and the four best sentences (4, 6, 8 and 16 tried).
Embedding a word costs about 3.6 ms on 2 cores (20 to 60 evidence words a turn: a third of a second);
word vectors are kept between turns, where the same few hundred words come back, and the evidence's
words also in the index's sentence store (:func:`keep_evidence_words`), so that a process meets them
already embedded. A visitor's own words are never written there.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence

import numpy as np

from agents.answer.sentences import Candidate
from agents.offline.reading.question_parts import content_words
from rag.embeddings import PassageVectorCache
from rag.sentence_store import SentenceVectorStore, kind_of

TRANSLATION_FROM = 0.91
MIN_LETTERS = 4  # shorter words are grammar, numbers or initials: nothing to translate
WORDS_KEPT = 8192  # about 12 MB of vectors with multilingual-e5-small

EVIDENCE_WORDS = "evidence-words"  # their kind of vector in the sentence store
Embed = Callable[[Sequence[str]], np.ndarray]
_caches: weakref.WeakKeyDictionary[object, PassageVectorCache] = weakref.WeakKeyDictionary()
_evidence: weakref.WeakKeyDictionary[object, PassageVectorCache] = weakref.WeakKeyDictionary()


def _owner(embed_queries: Embed) -> object:
    """The embedder whose method ``embed_queries`` is (a bound method is a new object at each look-up)."""
    return getattr(embed_queries, "__self__", embed_queries)


def word_vectors(embed_queries: Embed) -> PassageVectorCache:
    """The word vectors of this embedder, kept across turns while the embedder lives."""
    if (kept := _caches.get(owner := _owner(embed_queries))) is None:
        kept = _caches[owner] = PassageVectorCache(embed_queries, limit=WORDS_KEPT)
    return kept


def keep_evidence_words(embed_queries: Embed, store: SentenceVectorStore, name: str) -> None:
    """Read and write the evidence's word vectors of this embedder (called ``name``) in ``store``."""
    _evidence[_owner(embed_queries)] = PassageVectorCache(
        embed_queries, limit=WORDS_KEPT, store=store, name=kind_of(name, EVIDENCE_WORDS)
    )


def evidence_word_vectors(embed_queries: Embed) -> PassageVectorCache:
    """The evidence's word vectors: kept in the index's store when one was given, else in memory."""
    return _evidence.get(_owner(embed_queries)) or word_vectors(embed_queries)


def translations(
    words: Sequence[str], best: Sequence[Candidate], embed_queries: Callable[[Sequence[str]], np.ndarray]
) -> dict[str, str]:
    """For each of ``words``, its likely translation among the words of ``best`` (labels included),
    when one is close enough; words without one are left out."""
    asked = [w for w in dict.fromkeys(words) if _translatable(w)]
    held = sorted(
        {w for c in best for w in content_words(f"{c.label} {c.text}", c.language) if _translatable(w)}
    )
    if not asked or not held:
        return {}
    closeness = word_vectors(embed_queries)(asked) @ evidence_word_vectors(embed_queries)(held).T
    return {
        word: held[int(row.argmax())]
        for word, row in zip(asked, closeness, strict=True)
        if row.max() >= TRANSLATION_FROM
    }


def _translatable(word: str) -> bool:
    """A word of at least ``MIN_LETTERS`` letters (not a number, a time or an initial)."""
    return len(word) >= MIN_LETTERS and word.replace("-", "").replace("'", "").isalpha()
