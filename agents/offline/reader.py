"""How the offline model reads a question and its evidence: the file to read to follow it.

1. **Parts.** The question is cut into parts, each with the kinds of value it asks for
   (``agents.offline.reading.question_parts``).
2. **Candidates.** Every passage becomes labelled sentences (``agents.answer.sentences``: Markdown
   read, tables as "column: value", no header rows, navigation or repeats).
3. **Scores.** For each part and sentence: the multilingual embedder's query-sentence cosine, the
   part's needs the sentence meets (IDF-weighted over the evidence; a glossary concept is met by
   its terms in the sentence's language, the passage's headings count half; a word of another
   language by its translation among the best sentences' words, ``word_translation``), whether
   it holds a value of the kind asked for (``rag.answer_types``), whether the months it names (a season
   standing for its months, as the visit calendar defines them) include those the part asks about
   or leave them all out ("en décembre": "fermé en basse saison", not "ouverte d'avril à
   octobre"), and its passage's retrieval score. Only the
   best candidates by the cheap signals are embedded (about 50 ms a sentence on 2 cores).
4. **Verdict.** A part is answered when its calibrated answerability (``answerability.py``) reaches
   ``ANSWERABLE_FROM`` and a sentence scores ``ANSWER_THRESHOLD``; it is searched again below
   ``SEARCH_MORE_BELOW``: all chosen on the "tune" half of the development questions and checked
   on the other half (benchmarks/offline_reader_tuning.py, docs/agent.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from agents.answer.sentences import Candidate, Need, around, met, needs_of
from agents.offline.reading.question_parts import concepts_and_words, part_kinds
from agents.offline.word_translation import translations
from agents.visit_calendar.facts import CALENDAR_SEASONS, season_months
from agents.visit_calendar.rules import load_calendar
from rag.answer_types import AnswerType, type_match
from rag.embeddings import PassageVectorCache
from rag.lexicon.calendar_names import months_covered
from rag.lexicon.concepts import concept_name, found_in
from rag.sentence_vectors import sentence_text

Embed = Callable[[Sequence[str]], np.ndarray]

ANSWER_THRESHOLD, SEARCH_MORE_BELOW, ANSWERABLE_FROM = 0.55, 0.8, 0.375
QUOTED_PER_PART, CLOSE_TO_BEST = 3, 0.7  # quoted: the best sentences scoring within 70 % of the first
WEIGHTS = {"dense": 0.75, "needs": 0.75, "type": 0.25, "months": 0.5, "retrieval": 0.1}
DENSE_FLOOR, DENSE_SPAN = 0.75, 0.15  # e5 cosines: 0.75 says little, 0.90 is a close paraphrase
EMBEDDED_PER_PART, EMBEDDED_MAX = 6, 16
OWN_LANGUAGE = 0.1  # how far ahead a sentence in the visitor's language is ranked
TRANSLATED_FROM_BEST = 4  # the sentences whose words may translate the part's other words


@dataclass
class PartReading:
    """How well the evidence answers one part: the candidates and their scores, best first."""

    part: str
    kinds: list[AnswerType]
    ranked: list[tuple[float, Candidate]] = field(default_factory=list)
    closeness: dict[int, float] = field(default_factory=dict)  # embedder closeness by candidate position
    answerable: float = 1.0  # the calibrated probability that the evidence answers it

    @property
    def score(self) -> float:
        return self.ranked[0][0] if self.ranked else 0.0

    @property
    def answered(self) -> bool:
        return self.answerable >= ANSWERABLE_FROM and self.score >= ANSWER_THRESHOLD

    @property
    def settled(self) -> bool:
        return self.score >= SEARCH_MORE_BELOW

    def best(self) -> list[Candidate]:
        floor = max(ANSWER_THRESHOLD, CLOSE_TO_BEST * self.score)
        return [c for score, c in self.ranked[:QUOTED_PER_PART] if score >= floor]


def part_needs(part: str, language: str, target: str) -> list[Need]:
    """What a ``target``-language sentence must hold to answer ``part``: one of the terms of each
    glossary concept it names, and each of its other topic words."""
    return needs_of(*concepts_and_words(part, language), target)


def need_coverage(
    needs: Sequence[Need], pool: Sequence[Candidate], everything: Sequence[Candidate] | None = None
) -> list[float]:
    """For each candidate, the IDF-weighted share of ``needs`` it meets; its passage's headings and,
    within ``everything`` (the whole evidence), the sentence before it in its section count half."""
    weights = [math.log(1 + len(pool) / (1 + sum(met(n, c.stems) for c in pool))) for n in needs]
    total = sum(weights) or 1.0
    scored = [(n, w) for n, w in zip(needs, weights, strict=True)]
    near = [around(c, everything) if everything is not None else c.context for c in pool]
    return [
        sum(w if met(n, c.stems) else w / 2 if met(n, beside) else 0 for n, w in scored) / total
        if any(met(n, c.stems) for n in needs) else 0.0
        for c, beside in zip(pool, near, strict=True)
    ]  # fmt: skip


def months_fit(asked: set[int], candidate: Candidate) -> float:
    """1 when the sentence's months meet the ``asked`` ones, -1 when it names months and leaves them
    all out, 0 when either names none. A season stands for its months (the visit calendar's)."""
    if not asked:
        return 0.0
    text = f"{candidate.label} {candidate.text}"
    named = months_covered(text)
    for concept, _, _ in found_in(text, [candidate.language]):
        if season := CALENDAR_SEASONS.get(concept_name(concept)):
            named |= _season_months(season)
    return 0.0 if not named else 1.0 if named & asked else -1.0


@lru_cache(maxsize=4)
def _season_months(name: str) -> frozenset[int]:
    """The months a season of the visit calendar spans, whole or in part."""
    return season_months(load_calendar(), name)


def read_parts(
    parts: Sequence[str], language: str, pool: Sequence[Candidate], embed_queries: Embed | None = None,
    vectors: PassageVectorCache | None = None,
) -> list[PartReading]:  # fmt: skip
    """Score every candidate for every part and rank them."""
    readings, cheap = [], []
    for part, kinds in zip(parts, part_kinds(parts, language), strict=True):
        scores = [0.0] * len(pool)
        asked = months_covered(part)
        for target in {c.language for c in pool}:
            group = [i for i, c in enumerate(pool) if c.language == target]
            members = [pool[i] for i in group]
            needs = part_needs(part, language, target)
            if target != language and embed_queries is not None:
                needs = _translated_needs(part, language, target, needs, members, embed_queries)
            coverage = need_coverage(needs, members, pool)
            for i, covered in zip(group, coverage, strict=True):
                scores[i] = (
                    WEIGHTS["needs"] * covered
                    + WEIGHTS["type"] * type_match(kinds, pool[i].text)
                    + WEIGHTS["months"] * months_fit(asked, pool[i])
                    + WEIGHTS["retrieval"] * pool[i].retrieval
                )
        readings.append(PartReading(part, kinds))
        cheap.append(scores)
    dense = _closeness(parts, pool, cheap, embed_queries, vectors)
    for reading, scores, close in zip(readings, cheap, dense, strict=True):
        total = [s + WEIGHTS["dense"] * d for s, d in zip(scores, close, strict=True)]
        # Order only: a sentence in the visitor's own language goes before a close one in another
        # (the bundled guides have English versions); its score, which the verdicts read, is kept.
        reading.ranked = sorted(
            zip(total, pool, strict=True),
            key=lambda item: -(item[0] + OWN_LANGUAGE * (item[1].language == language)),
        )
        if embed_queries is not None and vectors is not None:  # left empty when nothing is embedded
            reading.closeness = {c.position: d for c, d in zip(pool, close, strict=True)}
    return readings


def _translated_needs(
    part: str,
    language: str,
    target: str,
    needs: list[Need],
    members: Sequence[Candidate],
    embed_queries: Embed,
) -> list[Need]:
    """``needs`` with each of the part's words that no ``target``-language sentence holds also met by
    its translation among the best sentences' words (``word_translation``): "veículos", "véhicules"."""
    words = concepts_and_words(part, language)[1]
    own = {word: needed[0] for word in words if (needed := needs_of([], [word], target))}
    unmet = [word for word, need in own.items() if not any(met(need, c.stems) for c in members)]
    if not unmet:
        return needs
    coverage = need_coverage(needs, members)
    order = sorted(
        range(len(members)), key=lambda i: -(coverage[i] + WEIGHTS["retrieval"] * members[i].retrieval)
    )
    translated = translations(unmet, [members[i] for i in order[:TRANSLATED_FROM_BEST]], embed_queries)
    wider = {
        own[word]: own[word] | t[0]
        for word, into in translated.items()
        if (t := needs_of([], [into], target))
    }
    return [wider.get(need, need) for need in needs]


def _closeness(
    parts: Sequence[str], pool: Sequence[Candidate], cheap: list[list[float]], embed_queries: Embed | None,
    vectors: PassageVectorCache | None,
) -> list[list[float]]:  # fmt: skip
    """Query-sentence closeness (0-1) of each part's best candidates and of each passage's best
    candidate by the cheap signals; 0 for the others, which are not embedded. The parts take turns:
    each one's first, then each one's second..., so a part is never crowded out by the others."""
    closeness = [[0.0] * len(pool) for _ in parts]
    if embed_queries is None or vectors is None or not pool:
        return closeness
    orders = [sorted(range(len(pool)), key=scores.__getitem__, reverse=True) for scores in cheap]
    tops = [order[rank] for rank in range(EMBEDDED_PER_PART) for order in orders if rank < len(order)]
    passage_bests = sorted(
        {pool[i].number: i for order in orders for i in reversed(order)}.values(),
        key=lambda i: -max(scores[i] for scores in cheap),
    )
    chosen = list(dict.fromkeys([*tops, *passage_bests]))[:EMBEDDED_MAX]
    texts = [sentence_text(pool[i].label, pool[i].text) for i in chosen]
    similarity = embed_queries(list(parts)) @ vectors(texts).T
    for row in range(len(parts)):
        for column, i in enumerate(chosen):
            closeness[row][i] = float(np.clip((similarity[row, column] - DENSE_FLOOR) / DENSE_SPAN, 0, 1))
    return closeness
