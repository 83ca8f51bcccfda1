"""Whether the evidence answers a question part: a calibrated score, not word lists.

Four signals of the part's best sentences, each from 0 to 1:
- ``closeness``: the embedder's query-sentence closeness of the best embedded sentence (cross-lingual);
- ``topics``: the share of the topics the part names (glossary concepts, cross-lingual: a place,
  an offer, "photo"...) that one of its three best sentences names, with its label, headings and
  the sentence before it (1 when it names none);
- ``words``: the share of the part's other topic words (``topic_words``: not "coûte", which only
  asks for a price) found anywhere in the evidence (a word the
  knowledge base never uses, "pharmacie", "drone", "Caserta", is what it does not cover);
- ``score``: the reader's own score of the best sentence (needs met, kind of value, retrieval).
A logistic model turns them into the probability that the part is answerable. Its weights were
fitted on the "tune" half of the development questions and the scope set (in-scope parts against
out-of-scope ones), and the threshold is the highest that declines at most one in ten in-scope
fact questions of the tune half (``reader.ANSWERABLE_FROM``; ``python -m
benchmarks.offline_reader_tuning --fit``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from agents.answer import sentences
from agents.offline import reader
from agents.offline.reading.question_parts import topic_words
from rag.lexicon.concepts import topics, unambiguous_in

WEIGHTS = {"closeness": 3.222, "topics": 2.279, "words": 0.743, "score": 1.563}
BIAS = -5.601
TOP = 3
UNKNOWN_CLOSENESS = 0.65  # with no embedder: an in-scope part's typical closeness (tune half)


@dataclass(frozen=True)
class Signals:
    """What the answerability score is computed from (each 0-1 but ``score``)."""

    closeness: float
    topics: float
    words: float
    score: float

    def probability(self) -> float:
        """The calibrated probability that the part is answerable."""
        logit = BIAS + sum(WEIGHTS[name] * value for name, value in asdict(self).items())
        return 1 / (1 + math.exp(-logit))


def signals(part: reader.PartReading, pool: Sequence[sentences.Candidate], language: str) -> Signals | None:
    """The signals of ``part`` over ``pool``; None when no sentence is left to answer it."""
    if not part.ranked:
        return None
    best = [candidate for _, candidate in part.ranked[:TOP]]
    named = topics(unambiguous_in(part.part, [language, "en"]))
    words = topic_words(part.part, language, part.kinds)
    target = best[0].language
    met = max(_share(sentences.needs_of(named, [], target), [sentences.around(c, pool)]) for c in best)
    everywhere = [c.stems | c.context for c in pool if c.language == target]
    return Signals(
        closeness=max(part.closeness.values(), default=0.0) if part.closeness else UNKNOWN_CLOSENESS,
        topics=met,
        words=_share(sentences.needs_of([], words, target), everywhere),
        score=part.score,
    )


def answerability(part: reader.PartReading, pool: Sequence[sentences.Candidate], language: str) -> float:
    """The probability that the evidence answers ``part`` (0 when nothing is left to answer it)."""
    found = signals(part, pool, language)
    return found.probability() if found else 0.0


def _share(needs: Sequence[sentences.Need], stems: Sequence[frozenset[str]]) -> float:
    """The share of ``needs`` met by one of ``stems`` (1 when there is none to meet)."""
    if not needs:
        return 1.0
    return sum(any(sentences.met(need, s) for s in stems) for need in needs) / len(needs)
