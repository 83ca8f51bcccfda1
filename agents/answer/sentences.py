"""The evidence as quotable sentences, and matching them with a question's needs by their stems.

Every passage becomes labelled sentences (``rag.sentences``: a heading or a list item's bold name
labels its sentences, tables become "column: value" pairs), each once, titles standing alone left
out. A *need* is met by any of its terms, a term being a set of stems (cut to ``STEM`` letters, so
that "ouverture" and "ouvert" meet): one need per glossary concept (its terms in the sentence's
language) and per other topic word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag.bm25 import tokenizer_for
from rag.language import detect_language
from rag.lexicon.folding import fold
from rag.lexicon.glossary import Concept
from rag.passage import Passage
from rag.sentences import labelled_sentences

Need = frozenset[tuple[str, ...]]  # met by any of its terms, a term being a tuple of stems
STEM = 6


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


def leader(candidate: Candidate, pool: Sequence[Candidate]) -> Candidate | None:
    """The sentence before ``candidate`` in its passage and section (it often names the subject)."""
    before = pool[candidate.position - 1] if candidate.position > 0 else None
    same = before and (before.number, before.label) == (candidate.number, candidate.label)
    return before if same else None


def around(candidate: Candidate, pool: Sequence[Candidate]) -> frozenset[str]:
    """The stems of a sentence with its label, its passage's headings and the sentence before it."""
    before = leader(candidate, pool)
    return candidate.stems | candidate.context | (before.stems if before else frozenset())


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
