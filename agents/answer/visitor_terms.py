"""Glossary concepts by name, and their terms as the glossary file writes them (accents kept).

The loaded glossary (``rag.query_expansion``) folds accents to match text; words shown to a visitor
("ermäßigt", "tarif réduit") come from the file as written. A concept is named by its first
English term, which is how the offline model's data files refer to concepts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache

from rag.query_expansion import DEFAULT_GLOSSARY, Concept, load_glossary


def concept_name(concept: Concept) -> str:
    """The concept's first English term (folded): "reduced rate", "opening hours"."""
    return concept.terms.get("en", ("",))[0]


@lru_cache(maxsize=1)
def _written_terms() -> list[dict[str, list[str]]]:
    return list(json.loads(DEFAULT_GLOSSARY.read_text(encoding="utf-8"))["concepts"])


def visitor_term(concept: Concept, language: str) -> str:
    """The concept's first term in ``language`` (English when it has none), accents kept."""
    glossary = load_glossary()
    index = next(i for i, c in enumerate(glossary.concepts if glossary else []) if c is concept)
    terms = _written_terms()[index]
    return (terms.get(language) or terms["en"])[0]


def concepts_named(names: Iterable[str]) -> list[Concept]:
    """The loaded glossary's concepts with these names (unknown names are left out)."""
    wanted = set(names)
    glossary = load_glossary()
    return [c for c in (glossary.concepts if glossary else []) if concept_name(c) in wanted]
