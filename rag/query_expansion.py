"""Cross-language query expansion from a visitor-vocabulary glossary (data/glossary/).

BM25 over a French corpus cannot match "opening hours" or "Öffnungszeiten". Each glossary concept
lists how visitors say it in several languages; a concept found in the query adds its terms in the
corpus' language to the lexical query. The original words stay (names of places match as is).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rag.config import PROJECT_ROOT
from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import UNSPACED_LANGUAGES

DEFAULT_GLOSSARY = PROJECT_ROOT / "data" / "glossary" / "visitor_terms.json"


@dataclass(frozen=True)
class Concept:
    """One concept: its terms by language (accent-folded, lower-case)."""

    terms: dict[str, tuple[str, ...]]


class Glossary:
    """Finds concepts in a query and returns their terms in a target language."""

    def __init__(self, concepts: Iterable[Concept]) -> None:
        self.concepts = list(concepts)
        self._patterns: dict[str, list[tuple[re.Pattern[str] | str, Concept]]] = {}

    @classmethod
    def load(cls, path: Path = DEFAULT_GLOSSARY) -> Glossary:
        """Read the JSON glossary (``{"concepts": [{"fr": [...], "en": [...], ...}]}``)."""
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            Concept({lang: tuple(fold_accents(t) for t in terms) for lang, terms in item.items()})
            for item in data["concepts"]
        )

    def _matchers(self, language: str) -> list[tuple[re.Pattern[str] | str, Concept]]:
        if language not in self._patterns:
            matchers: list[tuple[re.Pattern[str] | str, Concept]] = []
            for concept in self.concepts:
                for term in concept.terms.get(language, ()):
                    if language in UNSPACED_LANGUAGES:
                        matchers.append((term, concept))
                    else:
                        matchers.append((re.compile(rf"(?<!\w){re.escape(term)}(?!\w)"), concept))
            self._patterns[language] = matchers
        return self._patterns[language]

    def find(self, text: str, languages: Iterable[str]) -> list[tuple[Concept, int, int]]:
        """(concept, start, end) of every concept of ``languages`` named in ``text``, in order, as
        positions in the accent-folded text; a concept named inside a longer one is left out."""
        folded = fold_accents(text)
        found: dict[int, tuple[Concept, int, int]] = {}
        for language in dict.fromkeys(languages):
            for matcher, concept in self._matchers(language):
                if isinstance(matcher, str):
                    start = folded.find(matcher)
                    span = (start, start + len(matcher)) if start >= 0 else None
                else:
                    match = matcher.search(folded)
                    span = match.span() if match else None
                if span and (
                    id(concept) not in found
                    or span[1] - span[0] > found[id(concept)][2] - found[id(concept)][1]
                ):
                    found[id(concept)] = (concept, *span)
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
            for matcher, concept in self._matchers(language):
                hit = matcher in folded if isinstance(matcher, str) else matcher.search(folded)
                if hit:
                    found.extend(t for t in concept.terms.get(target, ()) if t not in found)
        return found


@lru_cache(maxsize=4)
def load_glossary(path: Path = DEFAULT_GLOSSARY) -> Glossary | None:
    """The shipped glossary, or None when the file is absent (expansion is then skipped)."""
    return Glossary.load(path) if path.exists() else None


def expand_query(query: str, language: str, target: str, glossary: Glossary | None) -> str:
    """``query`` plus the ``target``-language terms of the concepts it mentions."""
    if glossary is None or not language or language == target:
        return query
    sources = [language] if language == "en" else [language, "en"]
    terms = glossary.translate(query, sources, target)
    return f"{query} {' '.join(terms)}" if terms else query
