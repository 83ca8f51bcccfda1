"""Citation numbers as a visitor reads them: one per source, 1..n in the order first cited.

The agent cites passages by their evidence number ([4], [9]…) and several passages may come from
one page. The same numbering is applied to the streamed tokens (number on first appearance) and
to the final answer, so a number the visitor has seen never changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.answer.citations import rewrite_citations, unfinished_citation
from rag.passage import Passage


def source_key(passage: Passage) -> str:
    """What makes two passages one source: their URL or path, else their title."""
    return passage.source.strip() or passage.title.strip()


class SourceNumbering:
    """Evidence number -> the visitor's number, given on first citation, one per source."""

    def __init__(self, evidence: Sequence[Passage]) -> None:
        self.passages = {p.number: p for p in evidence if p.number is not None}
        self.numbers: dict[int, int] = {}
        self._sources: dict[str, int] = {}

    def cite(self, evidence_number: int) -> int | None:
        """The visitor's number for ``evidence_number``; None for a number the evidence lacks."""
        if evidence_number in self.numbers:
            return self.numbers[evidence_number]
        passage = self.passages.get(evidence_number)
        if passage is None:
            return None
        shown = self._sources.setdefault(source_key(passage), len(self._sources) + 1)
        self.numbers[evidence_number] = shown
        return shown

    def rewrite(self, text: str) -> str:
        """``text`` with every citation renumbered (unknown numbers dropped)."""
        return rewrite_citations(text, self.cite)


class CitationStream:
    """Renumbers an answer streamed in pieces; a citation split between two pieces is held back."""

    def __init__(self, numbering: SourceNumbering) -> None:
        self.numbering = numbering
        self._pending = ""

    def feed(self, piece: str) -> str:
        """The renumbered text that can be shown now."""
        text = self._pending + piece
        cut = unfinished_citation(text)
        self._pending, ready = ("", text) if cut is None else (text[cut:], text[:cut])
        return self.numbering.rewrite(ready) if ready else ""

    def flush(self) -> str:
        """Whatever was held back, at the end of the answer."""
        ready, self._pending = self._pending, ""
        return self.numbering.rewrite(ready) if ready else ""
