"""Expected answer types: a question asking "when" is answered by a passage holding a date.

Visitor questions mostly ask for hours, prices, dates, counts, distances and areas. When the
(expanded) query asks for one of these, passages that contain a value of that type are preferred
over passages that only repeat the question's words. Cues are French and English because the
lexical query already carries the corpus-language glossary terms; they live in
``data/answer_types.toml``, and what a value looks like in a passage is written here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rag.config import PROJECT_ROOT
from rag.lexicon.dates import month_names
from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import PASSAGE_LANGUAGES
from rag.lexicon.stores import read_store

WORDS_FILE = PROJECT_ROOT / "data" / "answer_types.toml"


@dataclass(frozen=True)
class AnswerType:
    """A kind of value: the query words that ask for it, and what it looks like in a passage."""

    name: str
    cues: re.Pattern[str]
    value: re.Pattern[str]
    shown: re.Pattern[str] | None = None  # how a value is quoted when that is longer ("3 mai 1802")


def _words(*stems: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(stems) + r")", re.IGNORECASE)


@functools.cache
def answer_types() -> tuple[AnswerType, ...]:
    """Every answer type; built on first use, the month names being read from Babel."""
    months = "|".join(fold_accents(name) for language in PASSAGE_LANGUAGES for name in month_names(language))
    store = read_store(WORDS_FILE)
    number_words = "(?:" + "|".join(store["number_words"]) + ")"
    cues = {name: _words(*stems) for name, stems in store["cues"].items()}
    types = (
        AnswerType(
            "date",
            cues["date"],
            re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b|\b[xvi]{1,5}e? siecle"),
            re.compile(
                rf"\b\d{{1,2}}(?:er)? (?:{months})(?: \d{{4}})?\b|\b(?:{months}) \d{{4}}\b"
                r"|\b(?:1[0-9]{3}|20[0-9]{2})\b|\b[xvi]{1,5}e? siecle"
            ),
        ),
        AnswerType(
            "count",
            cues["count"],
            re.compile(rf"\b\d[\d  .]*\b|\b{number_words}\b"),
        ),
        AnswerType(
            "price",
            cues["price"],
            re.compile(r"\d+(?:[.,]\d+)? ?(?:€|euros?)|\bgratuit"),
        ),
        AnswerType(
            "hours",
            cues["hours"],
            re.compile(r"\b\d{1,2} ?h(?:eures?)? ?\d{0,2}\b|\b\d{1,2}:\d{2}\b"),
        ),
        AnswerType(
            "distance",
            cues["distance"],
            re.compile(r"\d+(?:[.,]\d+)? ?(?:km|kilometres?|metres?|m)\b"),
        ),
        AnswerType(
            "duration",
            cues["duration"],
            re.compile(r"\b\d+(?:[.,]\d+)? ?(?:minutes?|min|heures?|hours?|h ?\d{2}|jours?|days?)\b"),
        ),
        AnswerType(
            "phone",
            cues["phone"],
            re.compile(r"(?:\+33 ?|\b0)[1-9](?:[ .-]?\d{2}){4}\b"),
        ),
        AnswerType(
            "age",
            cues["age"],
            re.compile(r"\b(?:moins de |plus de )?\d{1,2} ?ans\b|\b\d{1,2} years?\b"),
        ),
        AnswerType(
            "percent",
            cues["percent"],
            re.compile(r"\d+(?:[.,]\d+)? ?(?:%|pour ?cent|per ?cent)"),
        ),
        AnswerType(
            "area",
            cues["area"],
            # "m 2": the corpus's m² with its superscript flattened
            re.compile(r"\d+(?:[.,]\d+)? ?(?:hectares?|ha|k?m ?2\b|k?m²|metres carres)"),
        ),
    )
    if set(cues) != (names := {kind.name for kind in types}):
        raise ValueError(
            f"{WORDS_FILE} has cues for {sorted(cues)}; it should have them for {sorted(names)}."
        )
    return types


RERANKED = ("date", "count", "price", "hours", "distance", "area")  # the kinds retrieval was tuned with


def expected_types(query: str, names: tuple[str, ...] | None = None) -> list[AnswerType]:
    """The answer types ``query`` asks for (possibly none), among ``names`` if given."""
    folded = fold_accents(query)
    return [
        kind for kind in answer_types() if kind.cues.search(folded) and (names is None or kind.name in names)
    ]


def type_match(kinds: list[AnswerType], text: str) -> float:
    """Share of the expected types for which ``text`` holds a value (0 when none expected)."""
    if not kinds:
        return 0.0
    folded = fold_accents(text)
    return sum(1 for kind in kinds if kind.value.search(folded)) / len(kinds)


KEY_FACT_KINDS = ("price", "hours", "date", "duration", "phone", "distance", "age", "area")


def values_of(kinds: list[AnswerType], text: str, limit: int = 3) -> tuple[str, list[str]]:
    """(kind, values) of the most specific kind in ``kinds`` with a value in ``text``, values as
    written there; counts are left out (any number would pass for one). ("", []) when none."""
    folded = fold_accents(text)
    for kind in sorted(
        (k for k in kinds if k.name in KEY_FACT_KINDS), key=lambda k: KEY_FACT_KINDS.index(k.name)
    ):
        spans = [match.span() for match in (kind.shown or kind.value).finditer(folded)]
        values = [(text[a:b] if len(folded) == len(text) else folded[a:b]).strip() for a, b in spans]
        if values := list(dict.fromkeys(value for value in values if value))[:limit]:
            return kind.name, values
    return "", []
