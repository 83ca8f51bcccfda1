"""``[n]`` citations in an answer (pure functions): the one citation pattern of the code base.

After generation, every citation is verified: numbers that match no evidence item are removed,
and the sources actually cited are listed in the order they are first cited.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

# A run of bracketed numbers: "[3]", "[3, 4; 7]", "[3][9]" (adjacent brackets are one group).
CITATION_GROUP = re.compile(r"(?:\[\s*\d{1,3}\s*(?:[,;]\s*\d{1,3}\s*)*\])+")
_DIGITS = re.compile(r"\d+")
_EMPTIED = "\x00"
_EMPTIED_WITH_SPACE = re.compile(r"[ \t]*\x00")
_LONGEST_GROUP = 24  # characters an unfinished "[12, 13" may hold before it is plainly not a citation


def group_numbers(match: re.Match[str]) -> list[int]:
    """The numbers of one citation group: "[3]" -> [3], "[3, 4][7]" -> [3, 4, 7]."""
    return [int(digits) for digits in _DIGITS.findall(match.group(0))]


def cited_numbers(text: str) -> list[int]:
    """Every number cited in ``text``, once, in reading order."""
    return list(dict.fromkeys(n for match in CITATION_GROUP.finditer(text) for n in group_numbers(match)))


def iter_groups(text: str) -> Iterator[re.Match[str]]:
    """The citation groups of ``text``, in reading order."""
    return CITATION_GROUP.finditer(text)


def rewrite_citations(text: str, number: Callable[[int], int | None]) -> str:
    """Each citation group rewritten as ``[m]`` marks, ``m = number(n)``; a group left empty goes,
    with the spaces before it."""

    def rewrite(match: re.Match[str]) -> str:
        kept = dict.fromkeys(m for n in group_numbers(match) if (m := number(n)) is not None)
        return "".join(f"[{m}]" for m in kept) or _EMPTIED

    return _EMPTIED_WITH_SPACE.sub("", CITATION_GROUP.sub(rewrite, text))


def unfinished_citation(text: str) -> int | None:
    """Where a citation group that ``text`` ends in the middle of starts ("… 9 h [1" -> its "["),
    so that a streamed answer holds it back until the group is complete; None otherwise."""
    start = text.rfind("[")
    tail = text[start + 1 :]
    if start < 0 or len(tail) > _LONGEST_GROUP or any(not (c.isdigit() or c in " ,;") for c in tail):
        return None
    return start


@dataclass
class CitationCheck:
    """The answer with invalid citations removed, what was cited and what was dropped."""

    text: str
    cited: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)


def check_citations(answer: str, valid: Mapping[int, object] | set[int]) -> CitationCheck:
    """Keep citations whose number is in ``valid``; drop the others (and emptied brackets)."""
    known = set(valid)
    cited = [n for n in cited_numbers(answer) if n in known]
    removed = [n for n in cited_numbers(answer) if n not in known]
    text = rewrite_citations(answer, lambda n: n if n in known else None)
    return CitationCheck(text=text, cited=cited, removed=removed)
