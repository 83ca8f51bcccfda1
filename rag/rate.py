"""Embedding rate and time left of an indexing run, shared by the CLI bar and the app's bar."""

from __future__ import annotations

import time
from collections.abc import Callable


class EmbeddingRate:
    """Passages per second since the run started, and the seconds the rest should take."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.total = 0
        self.done = 0
        self.started = clock()

    def start(self, total: int) -> None:
        self.total, self.done, self.started = total, 0, self.clock()

    def advance(self, embedded: int) -> None:
        self.done += embedded

    @property
    def per_second(self) -> float | None:
        """None until something was embedded."""
        elapsed = self.clock() - self.started
        return self.done / elapsed if self.done and elapsed > 0 else None

    @property
    def seconds_left(self) -> float | None:
        rate = self.per_second
        return max(self.total - self.done, 0) / rate if rate else None

    def describe(self) -> str:
        """'8.4 passages/s, about 2 min 5 s left' (empty before the first group is embedded)."""
        rate, left = self.per_second, self.seconds_left
        if rate is None or left is None:
            return ""
        minutes, seconds = divmod(round(left), 60)
        remaining = f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
        return f"{rate:.1f} passages/s, about {remaining} left"
