"""The weather tool's words in the nine visitor languages, read from ``data/weather/phrases.toml``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agents.tool_settings import DATA_DIR
from rag.lexicon.languages import supported_language
from rag.lexicon.numbers import with_decimal_mark
from rag.lexicon.stores import read_store

PHRASES_FILE = DATA_DIR / "weather" / "phrases.toml"


def load_phrases(path: Path = PHRASES_FILE) -> dict[str, dict[str, Any]]:
    """Every language's block of phrases (read once per file)."""
    return read_store(path)


class Phrases:
    """Fills one language's templates; numbers come out with that language's decimal mark."""

    def __init__(self, language: str | None, path: Path = PHRASES_FILE) -> None:
        self.language = supported_language(language)
        self.block = load_phrases(path)[self.language]

    def say(self, key: str, **values: object) -> str:
        return str(self.block[key]).format(**values)

    def number(self, value: float, decimals: int = 1) -> str:
        """``value`` rounded, without a trailing ``.0``: "12", "2.5" (or "2,5" in French)."""
        text = f"{value:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        if text == "-0":
            text = "0"
        return with_decimal_mark(text, self.language)

    def month(self, month: int) -> str:
        return str(self.block["months"][month - 1])

    def conditions(self, kind: str) -> str:
        return str(self.block["conditions"][kind])

    def advice(self, kind: str) -> str:
        return str(self.block["advice"][kind])

    def listing(self, parts: Iterable[str]) -> str:
        return str(self.block["list_separator"]).join(parts)

    def sentences(self, parts: Iterable[str]) -> str:
        return str(self.block["sentence_separator"]).join(part for part in parts if part)
