"""Indexing progress for the CLI: a rich bar on a terminal, plain lines in a log (the indexer only
calls the ``IndexProgress`` protocol)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from rag.rate import EmbeddingRate

LINE_EVERY_SECONDS = 10.0
LINE_EVERY_SHARE = 0.10


def start_line(documents: int, chunks: int, to_embed: int) -> str:
    """'12 documents, 40 chunks; 30 to embed, 10 already indexed'."""
    return f"{documents} documents, {chunks} chunks; {to_embed} to embed, {chunks - to_embed} already indexed"


class RichIndexProgress:
    """Documents and chunks counts, embedding rate and time left, on stderr."""

    def __init__(self, console: Console | None = None) -> None:
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[rate]}"),
            console=console or Console(stderr=True),
        )
        self.task: TaskID | None = None
        self.rate = EmbeddingRate()

    def start(self, documents: int, chunks: int, to_embed: int) -> None:
        self.progress.console.print(start_line(documents, chunks, to_embed))
        self.progress.start()
        self.rate.start(to_embed)
        self.task = self.progress.add_task("embedding", total=to_embed, rate="")

    def advance(self, embedded: int) -> None:
        if self.task is None:
            return
        self.rate.advance(embedded)
        self.progress.update(self.task, advance=embedded, rate=self.rate.describe())

    def finish(self) -> None:
        self.progress.stop()


class PlainIndexProgress:
    """The same facts as plain lines, for a log file, a pipe or CI where a bar shows nothing: one
    line at the start, one about every 10 s or 10 % of the passages, one at the end."""

    def __init__(
        self,
        stream: IO[str],
        clock: Callable[[], float] = time.monotonic,
        every_seconds: float = LINE_EVERY_SECONDS,
        every_share: float = LINE_EVERY_SHARE,
    ) -> None:
        self.stream, self.clock = stream, clock
        self.every_seconds, self.every_share = every_seconds, every_share
        self.rate = EmbeddingRate(clock)
        self.last_time, self.last_done = clock(), 0

    def start(self, documents: int, chunks: int, to_embed: int) -> None:
        self.rate.start(to_embed)
        self.last_time, self.last_done = self.clock(), 0
        self._write(start_line(documents, chunks, to_embed))

    def advance(self, embedded: int) -> None:
        self.rate.advance(embedded)
        done, total = self.rate.done, self.rate.total
        due_by_share = done - self.last_done >= self.every_share * total
        if due_by_share or self.clock() - self.last_time >= self.every_seconds:
            self.last_time, self.last_done = self.clock(), done
            speed = self.rate.describe()
            line = f"embedded {done} of {total} ({done / max(total, 1):.0%})"
            self._write(f"{line}; {speed}" if speed else line)

    def finish(self) -> None:
        rate, total = self.rate, self.rate.total
        if not total:
            self._write("nothing to embed: every chunk was already indexed")
            return
        seconds = self.clock() - rate.started
        speed = f", {rate.per_second:.1f} passages/s" if rate.per_second else ""
        self._write(f"embedded {rate.done} of {total} in {seconds:.0f} s{speed}")

    def _write(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()  # a log read while the run goes on shows each line at once


def index_progress(console: Console) -> RichIndexProgress | PlainIndexProgress:
    """A bar when ``console`` is a terminal, plain lines otherwise (a log, ``make run`` piped, CI)."""
    return RichIndexProgress(console) if console.is_terminal else PlainIndexProgress(console.file)
