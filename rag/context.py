"""Widen retrieved chunks with their neighbours in the same document, within a character budget.

Chunks are small so that ranking is precise; a visitor's answer often sits in the sentence right
after the best-matching one. Each passage therefore grows with the following chunk (then the
preceding one) of its document while it fits the budget, and a chunk already shown inside an
earlier passage is never shown twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag.passage import Passage


@dataclass(frozen=True)
class Neighbour:
    """A chunk adjacent to a hit: its id and text."""

    chunk_id: str
    text: str


Neighbours = Callable[[Passage], tuple[Neighbour | None, Neighbour | None]]


def join_overlapping(first: str, second: str, max_overlap: int = 400) -> str:
    """Concatenate two consecutive chunks, dropping the text they share at the seam."""
    for size in range(min(max_overlap, len(first), len(second)), 0, -1):
        if not first.endswith(second[:size]):
            continue
        starts_word = size == len(first) or not (first[-size - 1].isalnum() and first[-size].isalnum())
        ends_word = size == len(second) or not (second[size - 1].isalnum() and second[size].isalnum())
        if starts_word and ends_word:
            return first + second[size:]
    return f"{first}\n{second}"


def widen(ranked: Sequence[Passage], k: int, budget: int, neighbours: Neighbours) -> list[Passage]:
    """The first ``k`` passages from ``ranked``, each widened up to ``budget`` characters."""
    shown: set[str] = set()
    passages: list[Passage] = []
    for hit in ranked:
        if len(passages) == k:
            break
        if hit.chunk_id in shown:
            continue
        shown.add(hit.chunk_id)
        before, after = neighbours(hit)
        text, members = hit.text, [hit.chunk_id]
        for side, neighbour in (("after", after), ("before", before)):
            if neighbour is None or neighbour.chunk_id in shown:
                continue
            candidate = (
                join_overlapping(text, neighbour.text)
                if side == "after"
                else join_overlapping(neighbour.text, text)
            )
            if len(candidate) <= budget:
                text = candidate
                members.append(neighbour.chunk_id)
                shown.add(neighbour.chunk_id)
        hit.text = text
        hit.scores["passage_chunks"] = float(len(members))
        passages.append(hit)
    return passages
