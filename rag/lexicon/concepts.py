"""Glossary concepts by name and by role, and their terms as the glossary file writes them.

A concept is named by its first English term. Its role (``data/glossary/concept_roles.toml``) says
what it does in a question or a sentence: a *subject* a value may be about (a place, an offer, a
group of visitors), a *neutral* word that only says which kind of value is wanted ("price",
"when"), a *qualifier* of a value ("reduced rate", "high season"); any other concept is a topic
of its own ("photo", "inauguration"). Words shown to a visitor ("ermäßigt", "tarif réduit") come
from the glossary file as written: the loaded glossary folds accents to match text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from rag.config import PROJECT_ROOT
from rag.lexicon.glossary import Concept, load_glossary
from rag.lexicon.stores import read_store

ROLES_FILE = PROJECT_ROOT / "data" / "glossary" / "concept_roles.toml"


def concept_name(concept: Concept) -> str:
    """The concept's first English term (folded): "reduced rate", "opening hours"."""
    return concept.terms.get("en", ("",))[0]


def roles() -> dict[str, Any]:
    """The roles file: ``places``, ``offers``, ``visitors`` (the subjects), ``place_stand_ins``,
    ``question``, ``neutral``, ``qualifiers`` (lists of names) and ``asked_by``."""
    return read_store(ROLES_FILE)


def found_in(text: str, languages: Sequence[str]) -> list[tuple[Concept, int, int]]:
    """(concept, start, end) of the glossary concepts ``text`` names in ``languages``; remembered,
    since a turn reads the same sentences two to four times (a look-up tries every term)."""
    return list(_found(text, tuple(languages)))


@lru_cache(maxsize=8192)
def _found(text: str, languages: tuple[str, ...]) -> tuple[tuple[Concept, int, int], ...]:
    glossary = load_glossary()
    return tuple(glossary.find(text, languages)) if glossary else ()


def named_in(text: str, languages: Sequence[str]) -> list[Concept]:
    """Every glossary concept ``text`` names in ``languages``."""
    return [concept for concept, _, _ in found_in(text, languages)]


def unambiguous_in(text: str, languages: Sequence[str]) -> list[Concept]:
    """The concepts ``text`` names, a term two concepts share ("restauration", "パスポート") left out."""
    found = found_in(text, languages)
    spans = [(start, end) for _, start, end in found]
    return [concept for concept, start, end in found if spans.count((start, end)) == 1]


def topics(concepts: Iterable[Concept]) -> list[Concept]:
    """The concepts a sentence must name to answer a question naming them: subjects and topics,
    not the neutral, qualifying or question ones."""
    ignored = {*roles()["neutral"], *roles()["qualifiers"], *roles()["question"]}
    return [c for c in concepts if concept_name(c) not in ignored]


SUBJECT_KINDS = ("places", "offers", "visitors")


def subject_kind(concept: Concept) -> str | None:
    """``places``, ``offers`` or ``visitors``: the kind of subject the concept is, if one."""
    name = concept_name(concept)
    return next((kind for kind in SUBJECT_KINDS if name in roles()[kind]), None)


def is_subject(concept: Concept) -> bool:
    """Whether the concept is a place, an offer or a group of visitors."""
    return subject_kind(concept) is not None


def is_qualifier(concept: Concept) -> bool:
    """Whether the concept qualifies a value: a rate, a season, a time of day."""
    return concept_name(concept) in set(roles()["qualifiers"])


def is_estate_place(name: str, language: str) -> bool:
    """Whether all of ``name`` is a term of one of the glossary's places of the estate ("Opéra",
    "domaine de Marly"), whatever else it may name (a Paris district, a town)."""
    return any(
        start == 0 and end == len(name) and subject_kind(concept) == "places"
        for concept, start, end in found_in(name, [language, "en"])
    )
