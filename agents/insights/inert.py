"""Visitors' text made inert for an operator's terminal or screen: no control sequence survives.

A question may carry escape sequences (a window title, a cleared screen), other control characters,
or bidirectional overrides that make a line read backwards; each is replaced by a visible mark.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
# Bidirectional embeddings, overrides, isolates and marks: they reorder what the operator reads.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_BREAKS = frozenset("\t\n\r\u2028\u2029\x0b\x0c\x85")


def _inert_char(char: str) -> str:
    if char in _LINE_BREAKS:
        return " "
    if char in _BIDI_CONTROLS or unicodedata.category(char) == "Cc":
        return REPLACEMENT
    return char


@lru_cache(maxsize=65_536)
def inert_text(text: str) -> str:
    """``text`` with control characters and bidirectional controls shown as ``�``, line breaks as spaces."""
    if text.isprintable():
        return text
    return "".join(map(_inert_char, text))
