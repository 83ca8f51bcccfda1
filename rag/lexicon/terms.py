"""The one term matcher: terms found in a text, ignoring case and accents.

One rule for every script: where a term ends in a letter or digit of a script written with spaces,
the text must not go on with another such letter there ("rer" is not found in "rerun"). Japanese
and Chinese are written without spaces, so their characters never hide a term: a term ending in
one matches anywhere, and "wifi" is found in "wifiはありますか".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from rag.lexicon.folding import fold, folded_positions
from rag.lexicon.scripts import UNSPACED

SPACED_WORD_CHARACTER = rf"[^\W{UNSPACED}]"  # a letter, digit or "_" of a script with spaces
_SPACED_WORD = re.compile(SPACED_WORD_CHARACTER)


def term_pattern(term: str) -> str:
    """The regular expression of one term, as written (fold it first), with the rule's boundaries."""
    before = f"(?<!{SPACED_WORD_CHARACTER})" if _SPACED_WORD.match(term) else ""
    after = f"(?!{SPACED_WORD_CHARACTER})" if term and _SPACED_WORD.match(term[-1]) else ""
    return before + re.escape(term) + after


@lru_cache(maxsize=8192)
def compiled_term(term: str) -> re.Pattern[str]:
    """``term_pattern(term)`` compiled, kept for the next look-up."""
    return re.compile(term_pattern(term))


def holds_term(text: str, term: str) -> bool:
    """Whether ``text`` holds ``term`` under the rule (both already folded as the caller folds)."""
    return compiled_term(term).search(text) is not None


class TermMatcher:
    """Finds any of ``terms`` in a text (folded: case, accents and apostrophes), longest first."""

    def __init__(self, terms: Iterable[str]) -> None:
        parts = [term_pattern(t) for t in sorted({fold(t) for t in terms}, key=len, reverse=True)]
        self.pattern = re.compile("|".join(parts) or r"(?!)")

    def find(self, text: str) -> list[tuple[int, int]]:
        """Spans of the matches in ``text`` itself (not in its folded copy)."""
        folded, starts = folded_positions(text)
        return [(starts[m.start()], starts[m.end() - 1] + 1) for m in self.pattern.finditer(folded)]
