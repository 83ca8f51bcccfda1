"""The offline model's words, read from ``data/offline/phrases.toml``, and matching them in text."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from rag.cleaning import fold_accents
from rag.config import PROJECT_ROOT

PHRASES_FILE = PROJECT_ROOT / "data" / "offline" / "phrases.toml"
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'"})


def fold(text: str) -> str:
    """Lower case, no accents, straight apostrophes: how cues and texts are compared."""
    return fold_accents(text.translate(_QUOTES))


def folded_positions(text: str) -> tuple[str, list[int]]:
    """The folded text and, for each of its characters, the position in ``text`` it comes from."""
    pieces, starts = [], []
    for position, char in enumerate(text.translate(_QUOTES)):
        folded = fold_accents(char)
        pieces.append(folded)
        starts.extend([position] * len(folded))
    return "".join(pieces), starts


class Cues:
    """Finds any of ``terms`` in a text, ignoring case and accents, at word boundaries (CJK terms
    anywhere: those scripts have no spaces)."""

    def __init__(self, terms: Iterable[str]) -> None:
        parts = []
        for term in sorted({fold(t) for t in terms}, key=len, reverse=True):
            before = r"(?<!\w)" if re.match(r"\w", term) and not CJK.match(term) else ""
            after = r"(?!\w)" if re.search(r"\w$", term) and not CJK.search(term[-1]) else ""
            parts.append(before + re.escape(term) + after)
        self.pattern = re.compile("|".join(parts) or r"(?!)")

    def find(self, text: str) -> list[tuple[int, int]]:
        """Spans of the matches in ``text`` itself (not in its folded copy)."""
        folded, starts = folded_positions(text)
        return [(starts[m.start()], starts[m.end() - 1] + 1) for m in self.pattern.finditer(folded)]


@lru_cache(maxsize=1)
def phrases() -> dict[str, Any]:
    """The whole phrases file."""
    with PHRASES_FILE.open("rb") as file:
        return tomllib.load(file)


def replies(language: str) -> dict[str, str]:
    """What the model writes, in ``language`` (English when the language has no table)."""
    tables = phrases()["replies"]
    return dict(tables.get(language, tables["en"]))


@lru_cache(maxsize=64)
def cues(name: str) -> Cues:
    """A word list of ``[cues]``, or every small-talk phrase (``small_talk``)."""
    data = phrases()
    if name == "small_talk":
        return Cues(t for table in data["small_talk"].values() for terms in table.values() for t in terms)
    return Cues(data["cues"][name])


@lru_cache(maxsize=16)
def word_set(name: str) -> frozenset[str]:
    """A ``[cues]`` list as a set of folded words, looked up one word at a time."""
    return frozenset(fold(word) for word in phrases()["cues"][name])
