"""Rich progress bar for indexing runs (used by the CLI; the indexer only calls the protocol)."""

from __future__ import annotations

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
        self.progress.console.print(
            f"{documents} documents, {chunks} chunks; {to_embed} to embed, "
            f"{chunks - to_embed} already indexed"
        )
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
