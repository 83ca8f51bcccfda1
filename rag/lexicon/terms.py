"""The one term matcher: terms found in a text, ignoring case and accents.

One rule for every script: where a term ends in a letter or digit of a script written with spaces,
the text must not go on with another such letter there ("rer" is not found in "rerun"). Japanese
and Chinese are written without spaces, so their characters never hide a term: a term ending in
one matches anywhere, and "wifi" is found in "wifiはありますか".

Terms are found as plain text and their neighbours checked with one compiled class: compiling the
class costs milliseconds (its Han ranges), far too much to repeat in a pattern per term.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rag.lexicon.folding import fold, folded_positions
from rag.lexicon.scripts import UNSPACED

SPACED_WORD_CHARACTER = rf"[^\W{UNSPACED}]"  # a letter, digit or "_" of a script with spaces
_SPACED_WORD = re.compile(SPACED_WORD_CHARACTER)


def term_pattern(term: str) -> str:
    """The regular expression of one term, as written (fold it first), with the rule's boundaries."""
    before = f"(?<!{SPACED_WORD_CHARACTER})" if _SPACED_WORD.match(term) else ""
    after = f"(?!{SPACED_WORD_CHARACTER})" if term and _SPACED_WORD.match(term[-1]) else ""
    return before + re.escape(term) + after


def _guards(term: str) -> tuple[bool, bool]:
    """Whether the rule guards the term's start, and its end."""
    return _SPACED_WORD.match(term) is not None, _SPACED_WORD.match(term[-1:]) is not None


def _clear(text: str, start: int, end: int, guards: tuple[bool, bool]) -> bool:
    """Whether ``text[start:end]`` touches no letter or digit of a spaced script where it is guarded."""
    return not (guards[0] and start and _SPACED_WORD.match(text, start - 1)) and not (
        guards[1] and _SPACED_WORD.match(text, end)
    )


def term_span(text: str, term: str) -> tuple[int, int] | None:
    """The first (start, end) of ``term`` in ``text`` under the rule, as ``re.search(term_pattern(term),
    text)`` finds it; None when absent (both already folded as the caller folds)."""
    start = text.find(term)
    if start < 0:
        return None
    guards = _guards(term)
    while start >= 0:
        if _clear(text, start, start + len(term), guards):
            return start, start + len(term)
        start = text.find(term, start + 1)
    return None


def holds_term(text: str, term: str) -> bool:
    """Whether ``text`` holds ``term`` under the rule (both already folded as the caller folds)."""
    return term_span(text, term) is not None


class TermMatcher:
    """Finds any of ``terms`` in a text (folded: case, accents and apostrophes), longest first."""

    def __init__(self, terms: Iterable[str]) -> None:
        longest_first = sorted({fold(t) for t in terms} - {""}, key=len, reverse=True)
        self._by_first: dict[str, list[tuple[str, tuple[bool, bool]]]] = {}
        for term in longest_first:
            self._by_first.setdefault(term[0], []).append((term, _guards(term)))
        self._any = re.compile("|".join(map(re.escape, longest_first)) or r"(?!)")

    def find(self, text: str) -> list[tuple[int, int]]:
        """Spans of the matches in ``text`` itself (not in its folded copy)."""
        folded, starts = folded_positions(text)
        return [(starts[start], starts[end - 1] + 1) for start, end in self._spans(folded)]

    def _spans(self, folded: str) -> Iterator[tuple[int, int]]:
        """Matches left to right, none overlapping; at each place the longest term the rule lets through."""
        at = 0
        while candidate := self._any.search(folded, at):
            at = candidate.start()
            for term, guards in self._by_first[folded[at]]:
                if folded.startswith(term, at) and _clear(folded, at, at + len(term), guards):
                    yield at, at + len(term)
                    at += len(term)
                    break
            else:
                at += 1
