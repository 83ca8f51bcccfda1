"""The offline model's words, read from ``data/offline/phrases.toml``, and matching them in text."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from rag.config import PROJECT_ROOT
from rag.lexicon.dates import weekday_names
from rag.lexicon.folding import fold, folded_positions
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.lexicon.transport import kind_words

PHRASES_FILE = PROJECT_ROOT / "data" / "offline" / "phrases.toml"


class Cues:
    """Finds any of ``terms`` in a text, ignoring case and accents, at word boundaries (CJK terms
    anywhere: those scripts have no spaces)."""

    def __init__(self, terms: Iterable[str]) -> None:
        parts = []
        for term in sorted({fold(t) for t in terms}, key=len, reverse=True):
            before = r"(?<!\w)" if re.match(r"\w", term) and not UNSPACED_CHARACTER.match(term) else ""
            after = r"(?!\w)" if re.search(r"\w$", term) and not UNSPACED_CHARACTER.search(term[-1]) else ""
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
    """A cue list of ``[cues]``, a kind of transport (``mode:train``) or every kind (``mode``)."""
    data = phrases()
    if name == "mode":
        return Cues(word for words in kind_words().values() for word in words)
    if name.startswith("mode:"):
        return Cues(kind_words()[name[5:]])
    if name == "dates":  # the weekday names come from Babel
        return Cues(
            [*data["cues"]["dates"], *(day for code in SUPPORTED_LANGUAGES for day in weekday_names(code))]
        )
    if name == "small_talk":
        return Cues(t for table in data["small_talk"].values() for terms in table.values() for t in terms)
    return Cues(data["cues"][name])


@lru_cache(maxsize=16)
def word_set(name: str) -> frozenset[str]:
    """A ``[cues]`` list as a set of folded words, looked up one word at a time."""
    return frozenset(fold(word) for word in phrases()["cues"][name])
