"""Case and accent folding: how texts, queries and word lists are compared.

Two folds exist because their users were tuned with them: ``fold_accents`` (retrieval, the glossary,
the offline model's cues) drops every combining mark, kana voicing marks included; place names
(``fold_latin_accents``) keep those marks and spell ligatures out. Making one fold of them changes
BM25 tokens, so it waits for a change that re-runs the retrieval benchmark.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})
_LATIN_LIMIT = 0x0530  # accents are dropped on Latin, Greek and Cyrillic letters, never on kana


def fold_accents(text: str) -> str:
    """Lower-case and drop diacritics so that "château" and "chateau" compare equal."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def fold(text: str) -> str:
    """Lower case, no accents, straight apostrophes: how cue words and visitor messages compare."""
    return fold_accents(text.translate(_APOSTROPHES))


def folded_positions(text: str) -> tuple[str, list[int]]:
    """``fold(text)`` and, for each of its characters, the position in ``text`` it comes from."""
    pieces, starts = [], []
    for position, char in enumerate(text.translate(_APOSTROPHES)):
        folded = fold_accents(char)
        pieces.append(folded)
        starts.extend([position] * len(folded))
    return "".join(pieces), starts


def fold_latin_accents(text: str) -> str:
    """Lower case, "œ" spelt "oe", accents dropped on Latin, Greek and Cyrillic letters only ("ド" stays)."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES)):
        if unicodedata.combining(char) and kept and ord(kept[-1]) < _LATIN_LIMIT:
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def blanked(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the characters inside ``spans`` (start, end) replaced by spaces, positions kept."""
    kept = list(spans)
    return "".join(" " if any(a <= i < b for a, b in kept) else c for i, c in enumerate(text))


class _FoldTable(dict[int, str]):
    """Per character fold for ``str.translate``: one character stays one character."""

    def __missing__(self, code: int) -> str:
        folded = fold_accents(chr(code))
        self[code] = value = folded if len(folded) == 1 else chr(code)
        return value


_IN_PLACE = _FoldTable()


def fold_in_place(text: str) -> str:
    """``text`` lower-case without accents, each character in its place (offsets are kept)."""
    return text.translate(_IN_PLACE)
