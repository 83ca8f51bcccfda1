"""The visitor-vocabulary glossary (data/glossary/): concepts and how visitors say them in nine
languages, found in a text by the lexicon's one term rule.

German and Dutch join words into one ("Kutschenmuseum", "koetsenmuseum"): a word made of two
one-word terms of the glossary, with a linking "s", "n", "en" or "e" between them, names both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rag.config import PROJECT_ROOT
from rag.lexicon.folding import fold_accents
from rag.lexicon.stores import read_store
from rag.lexicon.terms import term_span

DEFAULT_GLOSSARY = PROJECT_ROOT / "data" / "glossary" / "visitor_terms.toml"
COMPOUNDING = frozenset({"de", "nl"})
COMPOUND_LINKS = ("s", "n", "en", "e")  # between the two parts: "Führungs|zeiten", "Kutschen|museum"
MIN_COMPOUND_PART = 4
INFLECTED_FROM = 7  # the shortest term read with an inflection ending (German, Dutch)


@dataclass(frozen=True)
class Concept:
    """One concept: its terms by language (accent-folded, lower-case)."""

    terms: dict[str, tuple[str, ...]]


class Glossary:
    """Finds concepts in a query and returns their terms in a target language."""

    def __init__(self, concepts: Iterable[Concept]) -> None:
        self.concepts = list(concepts)
        self._words: dict[str, dict[str, list[Concept]]] = {}

    @classmethod
    def load(cls, path: Path = DEFAULT_GLOSSARY) -> Glossary:
        """Read the glossary (TOML: ``[[concepts]]`` tables of ``language = [terms]``)."""
        data = read_store(path)
        return cls(
            Concept({lang: tuple(fold_accents(t) for t in terms) for lang, terms in item.items()})
            for item in data["concepts"]
        )

    def _terms_of(self, language: str) -> Iterator[tuple[str, Concept]]:
        return ((term, concept) for concept in self.concepts for term in concept.terms.get(language, ()))

    def find(self, text: str, languages: Iterable[str]) -> list[tuple[Concept, int, int]]:
        """(concept, start, end) of every concept of ``languages`` named in ``text``, in order, as
        positions in the accent-folded text; a concept named inside a longer one is left out."""
        folded = fold_accents(text)
        found: dict[int, tuple[Concept, int, int]] = {}
        for language in dict.fromkeys(languages):
            for term, concept in self._terms_of(language):
                span = term_span(folded, term)
                if span and (
                    id(concept) not in found
                    or span[1] - span[0] > found[id(concept)][2] - found[id(concept)][1]
                ):
                    found[id(concept)] = (concept, *span)
            for concept, start, end in self._in_compounds(folded, language):
                if id(concept) not in found:
                    found[id(concept)] = (concept, start, end)
        hits = sorted(found.values(), key=lambda hit: hit[1])
        return [
            hit for hit in hits
            if not any(o[1] <= hit[1] and hit[2] <= o[2] and o[2] - o[1] > hit[2] - hit[1] for o in hits)
        ]  # fmt: skip

    def translate(self, query: str, languages: Iterable[str], target: str) -> list[str]:
        """Terms in ``target`` for every concept of ``languages`` found in ``query``."""
        folded = fold_accents(query)
        found: list[str] = []
        for language in languages:
            if language == target:
                continue
            compounds = {id(concept) for concept, _, _ in self._in_compounds(folded, language)}
            for term, concept in self._terms_of(language):
                if id(concept) in compounds or term_span(folded, term) is not None:
                    found.extend(t for t in concept.terms.get(target, ()) if t not in found)
        return found

    def _in_compounds(self, folded: str, language: str) -> list[tuple[Concept, int, int]]:
        """(concept, start, end) of the one-word terms a German or Dutch word is with an inflection
        ending ("schliessfachern": "schliessfacher") or that a compound joins ("kutschenmuseum":
        "kutschen" and "museum"), for words that are no term themselves."""
        if language not in COMPOUNDING:
            return []
        words = self._one_word_terms(language)
        found = []
        for match in re.finditer(r"\w+", folded):
            word, start = match.group(), match.start()
            if word in words:
                continue
            if inflected := _inflected_term(word, words):
                found += [(c, start, match.end()) for c in words[inflected]]
                continue
            if len(word) < 2 * MIN_COMPOUND_PART:
                continue
            for cut in range(MIN_COMPOUND_PART, len(word) - MIN_COMPOUND_PART + 1):
                tail = word[cut:]
                term = tail if tail in words else _inflected_term(tail, words)
                if term and (first := _term_before_link(word[:cut], words)):
                    found += [(c, start, start + len(first)) for c in words[first]]
                    found += [(c, start + cut, match.end()) for c in words[term]]
                    break
        return found

    def _one_word_terms(self, language: str) -> dict[str, list[Concept]]:
        if language not in self._words:
            words: dict[str, list[Concept]] = {}
            for concept in self.concepts:
                for term in concept.terms.get(language, ()):
                    if re.fullmatch(r"\w+", term) and len(term) >= MIN_COMPOUND_PART:
                        words.setdefault(term, []).append(concept)
            self._words[language] = words
        return self._words[language]


def _inflected_term(word: str, words: dict[str, list[Concept]]) -> str | None:
    """The one-word term of at least ``INFLECTED_FROM`` letters that ``word`` is with one of the
    endings that also link compounds ("schliessfachern", "openingstijden"); shorter terms are left
    alone, their inflections too often another word ("grosse": "großen")."""
    stems = (word[: len(word) - len(end)] for end in COMPOUND_LINKS if word.endswith(end))
    return next((stem for stem in stems if len(stem) >= INFLECTED_FROM and stem in words), None)


def _term_before_link(head: str, words: dict[str, list[Concept]]) -> str | None:
    """The term ``head`` is, or is with a linking element after it ("kutschen", "führungs")."""
    stems = (head[: len(head) - len(link)] for link in ("", *COMPOUND_LINKS) if head.endswith(link))
    return next((stem for stem in stems if stem in words), None)


@lru_cache(maxsize=4)
def load_glossary(path: Path = DEFAULT_GLOSSARY) -> Glossary | None:
    """The shipped glossary, or None when the file is absent (expansion is then skipped)."""
    return Glossary.load(path) if path.exists() else None
