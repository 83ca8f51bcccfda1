"""Metadata filters shared by the lexical and dense searches (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SearchFilters:
    """Keep chunks in one of ``categories`` (or below it), under a source prefix, in a language."""

    categories: Sequence[str] = ()
    source_prefix: str | None = None
    languages: Sequence[str] = ()

    @property
    def active(self) -> bool:
        return bool(self.categories or self.source_prefix or self.languages)

    def matches(self, metadata: dict[str, Any]) -> bool:
        """True when a chunk's metadata passes every filter that is set."""
        if self.languages and metadata.get("language") not in self.languages:
            return False
        if self.categories:
            category = str(metadata.get("category", ""))
            if not any(category == c or category.startswith(c.rstrip("/") + "/") for c in self.categories):
                return False
        if self.source_prefix:
            sources = metadata.get("sources") or [metadata.get("source", "")]
            if not any(str(source).startswith(self.source_prefix) for source in sources):
                return False
        return True
