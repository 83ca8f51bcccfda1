"""The weather tool's words in the nine visitor languages, read from ``data/weather/phrases.json``."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agents.tools.settings import DATA_DIR
from rag.lexicon.languages import supported_language

PHRASES_FILE = DATA_DIR / "weather" / "phrases.json"
_DECIMAL_COMMA = {"fr", "es", "de", "it", "pt", "nl"}


@functools.lru_cache(maxsize=4)
def load_phrases(path: Path = PHRASES_FILE) -> dict[str, dict[str, Any]]:
    """Every language's block of phrases (read once per file)."""
    data: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return {code: block for code, block in data.items() if not code.startswith("_")}


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
        return text.replace(".", ",") if self.language in _DECIMAL_COMMA else text

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
