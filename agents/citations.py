"""Check ``[n]`` citations in an answer against the numbered evidence (pure functions).

After generation, every citation is verified: numbers that match no evidence item are removed,
and the sources actually cited are listed in the order they are first cited.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

_CITATION_GROUP = re.compile(r"\[(\s*\d{1,3}\s*(?:[,;]\s*\d{1,3}\s*)*)\]")
_EMPTIED = "\x00"
_EMPTIED_WITH_SPACE = re.compile(r"[ \t]*\x00")


@dataclass(frozen=True)
class CitedSource:
    """A source the answer cites, under the number the answer uses."""

    number: int
    title: str
    url: str


@dataclass
class CitationCheck:
    """The answer with invalid citations removed, what was cited and what was dropped."""

    text: str
    cited: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)

    def sources(self, evidence: Mapping[int, CitedSource]) -> list[CitedSource]:
        """The cited sources, in the order of first citation."""
        return [evidence[number] for number in self.cited]


def check_citations(answer: str, valid: Mapping[int, object] | set[int]) -> CitationCheck:
    """Keep citations whose number is in ``valid``; drop the others (and emptied brackets)."""
    known = set(valid)
    cited: list[int] = []
    removed: list[int] = []

    def rewrite(match: re.Match[str]) -> str:
        numbers = [int(part) for part in re.split(r"[,;]", match.group(1))]
        kept = []
        for number in numbers:
            if number in known:
                kept.append(number)
                if number not in cited:
                    cited.append(number)
            elif number not in removed:
                removed.append(number)
        return "".join(f"[{number}]" for number in dict.fromkeys(kept)) or _EMPTIED

    text = _EMPTIED_WITH_SPACE.sub("", _CITATION_GROUP.sub(rewrite, answer))
    return CitationCheck(text=text, cited=cited, removed=removed)
