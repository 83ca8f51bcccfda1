"""The per-language word stores under data/: TOML files with one table per visitor language.

The offline model's phrases, the calendar's, the weather's and the travel tool's templates, the
app's labels and the follow-up suggestions are all read here, once per file.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from rag.lexicon.languages import DEFAULT_LANGUAGE


@lru_cache(maxsize=32)
def read_store(path: Path) -> dict[str, Any]:
    """The whole store at ``path`` (read once; a store is data shipped with the code)."""
    with path.open("rb") as file:
        return tomllib.load(file)


def language_table(store: dict[str, Any], language: str, fallback: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """``language``'s table of ``store``, or the ``fallback`` language's when it has none."""
    table: dict[str, Any] = store.get(language) or store[fallback]
    return table
