"""A streamed answer drawn in time linear in its length.

Redrawing the whole answer at every token costs the square of its length (a 100 KB answer took
43 s to appear, a 300 KB one never did). Here finished blocks (paragraphs, or a long paragraph cut
at a space) are drawn once into their own element and only the last block is redrawn, at most
every ``redraw_chars`` characters or ``redraw_seconds``: each redraw costs at most one block.
The cut is for the live view only; the finished answer is drawn whole once the turn ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app_ui.presenters import safe_markdown

CURSOR = " ▌"


class Placeholder(Protocol):
    """What the drawing writes into: ``st.empty()`` (each call replaces what it shows)."""

    def markdown(self, body: str) -> Any: ...


class Box(Protocol):
    """Where placeholders are added one below the other: ``st.container()``."""

    def empty(self) -> Any: ...


@dataclass
class StreamDrawing:
    """The live view of one streamed answer: feed it tokens with :meth:`add`."""

    box: Box
    redraw_chars: int = 200
    redraw_seconds: float = 0.25
    block_chars: int = 2000
    clock: Callable[[], float] = time.monotonic
    redraws: int = 0  # markdown calls made, finished blocks included
    _pieces: list[str] = field(default_factory=list)  # the last block's text, not yet joined
    _pending: int = 0  # characters added since the last draw
    _tail: Placeholder | None = None
    _last_draw: float = 0.0

    def add(self, token: str) -> None:
        self._pieces.append(token)
        self._pending += len(token)
        if self._pending >= self.redraw_chars or self.clock() - self._last_draw >= self.redraw_seconds:
            self.draw()

    def draw(self) -> None:
        """Draw what has come: finished blocks once, then the last block with a cursor."""
        tail = "".join(self._pieces)
        while (cut := self._block_end(tail)) > 0:
            self._placeholder().markdown(safe_markdown(tail[:cut]))
            self.redraws += 1
            self._tail = None  # the block stays as drawn; the next one goes below it
            tail = tail[cut:].lstrip("\n")
        self._pieces = [tail]
        if tail.strip():
            self._placeholder().markdown(safe_markdown(tail) + CURSOR)
            self.redraws += 1
        self._pending, self._last_draw = 0, self.clock()

    def _block_end(self, tail: str) -> int:
        """Where the first finished block of ``tail`` ends: after its last paragraph break, or at a
        space (else anywhere) once it is longer than a block; 0 while the block is still open."""
        if len(tail) > self.block_chars:
            breaks = tail.rfind("\n\n", 0, self.block_chars)
            space = tail.rfind(" ", self.block_chars // 2, self.block_chars)
            return breaks if breaks > 0 else space if space > 0 else self.block_chars
        return max(tail.rfind("\n\n"), 0)

    def _placeholder(self) -> Placeholder:
        if self._tail is None:
            self._tail = self.box.empty()
        return self._tail
