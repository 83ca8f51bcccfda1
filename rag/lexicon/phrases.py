"""The visitor-facing words and cue lists of ``data/offline/phrases.toml``: replies by language and
the word lists that the turn reading and the answer policy look for."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rag.config import PROJECT_ROOT
from rag.lexicon.folding import fold
from rag.lexicon.stores import language_table, read_store
from rag.lexicon.terms import TermMatcher

PHRASES_FILE = PROJECT_ROOT / "data" / "offline" / "phrases.toml"


def phrases() -> dict[str, Any]:
    """The whole phrases file."""
    return read_store(PHRASES_FILE)


def replies(language: str) -> dict[str, str]:
    """What is written to the visitor, in ``language`` (English when the language has no table)."""
    return dict(language_table(phrases()["replies"], language))


@lru_cache(maxsize=64)
def cues(name: str) -> TermMatcher:
    """A word list of ``[cues]``, or every small-talk phrase (``small_talk``)."""
    data = phrases()
    if name == "small_talk":
        return TermMatcher(
            t for table in data["small_talk"].values() for terms in table.values() for t in terms
        )
    return TermMatcher(data["cues"][name])


@lru_cache(maxsize=16)
def word_set(name: str) -> frozenset[str]:
    """A ``[cues]`` list as a set of folded words, looked up one word at a time."""
    return frozenset(fold(word) for word in phrases()["cues"][name])
