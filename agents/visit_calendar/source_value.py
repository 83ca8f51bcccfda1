"""One value of a visit-facts rule and the ways a source document may write it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Value:
    """One value of a rule and the ways a document may write it."""

    label: str  # as the report shows it ("18:30", "21 €", "Monday")
    spellings: tuple[str, ...]
    folded: bool = False  # spellings written without accents (the glossary's terms): the text is folded too
