"""How the offline model reads a question and its evidence: the file to read to follow it.

1. **Parts.** The question is cut on question marks and "and"-words (never inside a name such as
   "galerie des Sculptures et des Moulages"). A part naming less than two topic words ("And how
   much?") is read with the first part; a part asking nothing of its own takes the kinds of value
   the previous part asks for ("when were the Temple and the Theatre finished?").
2. **Candidates.** Every passage becomes labelled sentences (``rag.sentences``: Markdown read,
   tables as "column: value", no header rows, navigation or repeats).
3. **Scores.** For each part and sentence: the multilingual embedder's query-sentence cosine, the
   part's needs the sentence meets (IDF-weighted over the evidence; a glossary concept is met by
   its terms in the sentence's language, the passage's headings count half), whether it holds a
   value of the kind asked for (``rag.answer_types``), and its passage's retrieval score. Only the
   best candidates by the cheap signals are embedded (about 50 ms a sentence on 2 cores).
4. **Verdict.** A part is answered when its calibrated answerability (``answerability.py``) reaches
   ``ANSWERABLE_FROM`` and a sentence scores ``ANSWER_THRESHOLD``; it is searched again below
   ``SEARCH_MORE_BELOW``: all chosen on the "tune" half of the development questions and checked
   on the other half (benchmarks/offline_reader_tuning.py, docs/agent.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from agents.answer.visitor_terms import found_in, roles
from agents.offline.phrases import phrases, word_set
from rag.answer_types import AnswerType, expected_types, type_match
from rag.bm25 import tokenizer_for
from rag.embeddings import PassageVectorCache
from rag.language import detect_language
from rag.lexicon.folding import fold
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.passage import Passage
from rag.query_expansion import Concept, load_glossary
from rag.sentences import labelled_sentences

Embed = Callable[[Sequence[str]], np.ndarray]
Need = frozenset[tuple[str, ...]]  # met by any of its terms, a term being a tuple of stems

ANSWER_THRESHOLD, SEARCH_MORE_BELOW, ANSWERABLE_FROM = 0.55, 0.8, 0.35
QUOTED_PER_PART, CLOSE_TO_BEST = 3, 0.7  # quoted: the best sentences scoring within 70 % of the first
WEIGHTS = {"dense": 0.75, "needs": 0.75, "type": 0.25, "retrieval": 0.1}
DENSE_FLOOR, DENSE_SPAN = 0.75, 0.15  # e5 cosines: 0.75 says little, 0.90 is a close paraphrase
EMBEDDED_PER_PART, EMBEDDED_MAX = 6, 16
MAX_PARTS, STEM = 6, 6  # stems cut to 6 letters: "ouverture" and "ouvert" meet

_WORD = re.compile(r"\w+(?:['-]\w+)*")
_BREAK = re.compile(r"[?!;？！；。\n]+")
_NAME_WORDS = frozenset({"de", "des", "du", "la", "le", "les", "the", "of"})


@dataclass(frozen=True)
class Candidate:
    """One quotable sentence of an evidence passage."""

    number: int  # the passage's evidence number, cited as [n]
    text: str
    label: str  # the heading, list item or table row it belongs to
    language: str
    stems: frozenset[str]
    context: frozenset[str]  # stems of the passage's title and headings
    heading: str  # the passage's title and headings
    retrieval: float  # the passage's retrieval score, 0-1 within the evidence
    position: int  # in the candidate list: the next sentence of a passage follows it


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


# --- 1. parts ---------------------------------------------------------------------------------


def content_words(text: str, language: str) -> list[str]:
    """Folded words of ``text`` naming a topic (no stop words, question words or common verbs)."""
    ignored = tokenizer_for(language).stopwords | word_set("question_words")
    return [w for w in _WORD.findall(fold(text)) if w not in ignored and not UNSPACED_CHARACTER.search(w)]


def _has_topic(text: str, language: str) -> bool:
    return len(UNSPACED_CHARACTER.findall(text)) >= 2 or bool(content_words(text, language))


def _asks(text: str) -> bool:
    return bool(set(_WORD.findall(fold(text))) & word_set("question_words"))


def question_parts(question: str, language: str) -> list[str]:
    """The parts of ``question`` (at most ``MAX_PARTS``), each readable on its own."""
    words = [*phrases()["connectors"].get(language, ()), *phrases()["connectors"]["en"]]
    latin = "|".join(re.escape(w) for w in words if not UNSPACED_CHARACTER.search(w))
    cjk = "|".join(re.escape(w) for w in words if UNSPACED_CHARACTER.search(w))
    connector = re.compile("|".join(filter(None, [latin and rf"(?<!\w)(?:{latin})(?!\w)", cjk])), re.I)
    pieces: list[str] = []
    for sentence in _BREAK.split(question):
        start = 0
        for match in connector.finditer(sentence):
            before, after = sentence[start : match.start()], sentence[match.end() :]
            name_after = [w for w in after.split() if w.lower() not in _NAME_WORDS][:1]
            in_name = language != "de" and _capitalised(before.split()[-1:]) and _capitalised(name_after)
            if _has_topic(before, language) and _has_topic(after, language) and not in_name:
                pieces.append(before)
                start = match.end()
        pieces.append(sentence[start:])
    parts: list[str] = []
    for piece in (p.strip(" ,.:¿¡、，\t") for p in pieces):
        if _has_topic(piece, language) or (parts and _asks(piece)):
            parts.append(piece)
    lean = [
        i > 0 and not UNSPACED_CHARACTER.search(p) and len(content_words(p, language)) < 2
        for i, p in enumerate(parts)
    ]
    return [f"{p} ({parts[0]})" if lean[i] else p for i, p in enumerate(parts[:MAX_PARTS])] or (
        [question.strip()] if question.strip() else []
    )


def _capitalised(words: list[str]) -> bool:
    return bool(words) and words[0].strip("'\"«(")[:1].isupper()


def part_kinds(parts: Sequence[str], language: str) -> list[list[AnswerType]]:
    """The kinds of value each part asks for (a part asking nothing takes the previous part's)."""
    glossary = load_glossary()
    kinds: list[list[AnswerType]] = []
    for part in parts:
        own = expected_types(
            " ".join([part, *(glossary.translate(part, [language, "en"], "fr") if glossary else [])])
        )
        kinds.append(own or ([] if _asks(part) or not kinds else kinds[-1]))
    return kinds


# --- 2. candidates ----------------------------------------------------------------------------


def candidates(evidence: Sequence[Passage], kb_language: str) -> list[Candidate]:
    """The quotable sentences of the evidence, in evidence order, each once, titles left out."""
    top = max((e.score for e in evidence), default=0.0) or 1.0
    found: list[Candidate] = []
    seen: set[str] = set()
    for entry in evidence:
        language = detect_language(entry.text, default=kb_language) or kb_language
        stem = _stemmer(language)
        heading = f"{entry.title} {entry.headings}".strip()
        context = stem(heading)
        titles = {_key(entry.title), _key(entry.headings)}
        for label, text in labelled_sentences(entry.text, language):
            key = _key(text)
            if key in titles or key == _key(label) or any(key in other for other in seen):
                continue  # a title standing alone, or a repeat (maybe inside a longer quote)
            seen.add(key)
            retrieval = max(entry.score, 0.0) / top
            stems = stem(f"{label} {text}")
            found.append(
                Candidate(
                    entry.number or 0, text, label, language, stems, context, heading, retrieval, len(found)
                )
            )
    return found


def _key(text: str) -> str:
    return re.sub(r"\W+", "", fold(text))


def stems(text: str, language: str) -> frozenset[str]:
    """The stems of ``text`` as candidates and needs are compared."""
    return _stemmer(language)(text)


def _stemmer(language: str) -> Callable[[str], frozenset[str]]:
    tokenize = tokenizer_for(language)
    return lambda text: frozenset(stem[:STEM] for stem in tokenize(text))


def follower(candidate: Candidate, pool: Sequence[Candidate]) -> Candidate | None:
    """The next sentence of the candidate's passage and section: answers often follow the sentence
    naming their subject ("The Temple of Love... It was finished in 1778.")."""
    after = pool[candidate.position + 1] if candidate.position + 1 < len(pool) else None
    return after if after and (after.number, after.label) == (candidate.number, candidate.label) else None


# --- 3. scores --------------------------------------------------------------------------------


def concepts_and_words(part: str, language: str) -> tuple[list[Concept], list[str]]:
    """The glossary concepts ``part`` names (those that only ask "when", "how many"... left out) and
    its other topic words."""
    found = found_in(part, [language, "en"])
    outside = "".join(" " if any(a <= i < b for _, a, b in found) else c for i, c in enumerate(fold(part)))
    asking = roles()["question"]
    concepts = [concept for concept, _, _ in found if concept.terms.get("en", ("",))[0] not in asking]
    return concepts, content_words(outside, language)


def part_needs(part: str, language: str, target: str) -> list[Need]:
    """What a ``target``-language sentence must hold to answer ``part``: one of the terms of each
    glossary concept it names, and each of its other topic words."""
    return needs_of(*concepts_and_words(part, language), target)


def needs_of(concepts: Sequence[Concept], words: Sequence[str], target: str) -> list[Need]:
    """The needs of these concepts and words for a ``target``-language sentence."""
    stem = _stemmer(target)
    needs = [
        frozenset(tuple(sorted(stem(t))) for t in concept.terms.get(target, ())) - {()}
        for concept in concepts
    ]
    needs += [frozenset({tuple(sorted(stem(word)))}) for word in words if stem(word)]
    return list(dict.fromkeys(need for need in needs if need))


def met(need: Need, stems: frozenset[str]) -> bool:
    """Whether a sentence with these stems meets ``need``."""
    return any(set(term) <= stems for term in need)


def need_coverage(needs: Sequence[Need], pool: Sequence[Candidate]) -> list[float]:
    """For each candidate, the IDF-weighted share of ``needs`` it meets (headings count half)."""
    weights = [math.log(1 + len(pool) / (1 + sum(met(n, c.stems) for c in pool))) for n in needs]
    total = sum(weights) or 1.0
    scored = [(n, w) for n, w in zip(needs, weights, strict=True)]
    return [
        sum(w if met(n, c.stems) else w / 2 if met(n, c.context) else 0 for n, w in scored) / total
        if any(met(n, c.stems) for n in needs) else 0.0
        for c in pool
    ]  # fmt: skip


def read_parts(
    parts: Sequence[str], language: str, pool: Sequence[Candidate], embed_queries: Embed | None = None,
    vectors: PassageVectorCache | None = None,
) -> list[PartReading]:  # fmt: skip
    """Score every candidate for every part and rank them."""
    readings, cheap = [], []
    for part, kinds in zip(parts, part_kinds(parts, language), strict=True):
        scores = [0.0] * len(pool)
        for target in {c.language for c in pool}:
            group = [i for i, c in enumerate(pool) if c.language == target]
            coverage = need_coverage(part_needs(part, language, target), [pool[i] for i in group])
            for i, covered in zip(group, coverage, strict=True):
                scores[i] = (
                    WEIGHTS["needs"] * covered
                    + WEIGHTS["type"] * type_match(kinds, pool[i].text)
                    + WEIGHTS["retrieval"] * pool[i].retrieval
                )
        readings.append(PartReading(part, kinds))
        cheap.append(scores)
    dense = _closeness(parts, pool, cheap, embed_queries, vectors)
    for reading, scores, close in zip(readings, cheap, dense, strict=True):
        total = [s + WEIGHTS["dense"] * d for s, d in zip(scores, close, strict=True)]
        reading.ranked = sorted(zip(total, pool, strict=True), key=lambda item: -item[0])
        if embed_queries is not None and vectors is not None:  # left empty when nothing is embedded
            reading.closeness = {c.position: d for c, d in zip(pool, close, strict=True)}
    return readings


def _closeness(
    parts: Sequence[str], pool: Sequence[Candidate], cheap: list[list[float]], embed_queries: Embed | None,
    vectors: PassageVectorCache | None,
) -> list[list[float]]:  # fmt: skip
    """Query-sentence closeness (0-1) of each part's best candidates and of each passage's best
    candidate by the cheap signals; 0 for the others, which are not embedded."""
    closeness = [[0.0] * len(pool) for _ in parts]
    if embed_queries is None or vectors is None or not pool:
        return closeness
    chosen: list[int] = []
    for scores in cheap:
        order = sorted(range(len(pool)), key=lambda i: -scores[i])
        by_passage = {pool[i].number: i for i in reversed(order)}
        chosen += [i for i in [*order[:EMBEDDED_PER_PART], *by_passage.values()] if i not in chosen]
    chosen = sorted(chosen, key=lambda i: -max(scores[i] for scores in cheap))[:EMBEDDED_MAX]
    texts = [f"{pool[i].label}: {pool[i].text}" if pool[i].label else pool[i].text for i in chosen]
    similarity = embed_queries(list(parts)) @ vectors(texts).T
    for row in range(len(parts)):
        for column, i in enumerate(chosen):
            closeness[row][i] = float(np.clip((similarity[row, column] - DENSE_FLOOR) / DENSE_SPAN, 0, 1))
    return closeness
