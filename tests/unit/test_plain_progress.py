"""Indexing progress as plain lines when stderr is not a terminal (a log file, a pipe, CI)."""

from __future__ import annotations

import io

from rich.console import Console

from rag.progress import PlainIndexProgress, RichIndexProgress, index_progress
from tests.unit.test_rate import Clock


def run(steps: list[tuple[float, int]], total: int = 1000) -> list[str]:
    """The lines written for ``total`` passages embedded in ``(seconds later, passages)`` steps."""
    clock, stream = Clock(), io.StringIO()
    progress = PlainIndexProgress(stream, clock)
    progress.start(120, total + 200, total)
    for seconds, passages in steps:
        clock.now += seconds
        progress.advance(passages)
    clock.now += 1.0
    progress.finish()
    return stream.getvalue().splitlines()


def test_a_line_at_the_start_and_at_the_end() -> None:
    lines = run([(5.0, 64)], total=64)

    assert lines[0] == "120 documents, 264 chunks; 64 to embed, 200 already indexed"
    assert lines[-1] == "embedded 64 of 64 in 6 s, 10.7 passages/s"


def test_a_line_about_every_ten_seconds_with_rate_and_time_left() -> None:
    lines = run([(4.0, 32)] * 6)  # 8 passages/s: 10 % of 1000 takes 12.5 s, so time decides

    progress = lines[1:-1]
    assert progress == [
        "embedded 96 of 1000 (10%); 8.0 passages/s, about 1 min 53 s left",
        "embedded 192 of 1000 (19%); 8.0 passages/s, about 1 min 41 s left",
    ]


def test_a_line_every_ten_percent_when_embedding_is_fast() -> None:
    lines = run([(1.0, 50)] * 6)  # 50 passages/s: 10 % every 2 s

    assert [line.split(";")[0] for line in lines[1:-1]] == [
        "embedded 100 of 1000 (10%)",
        "embedded 200 of 1000 (20%)",
        "embedded 300 of 1000 (30%)",
    ]


def test_nothing_to_embed_is_said_once() -> None:
    assert run([], total=0)[1:] == ["nothing to embed: every chunk was already indexed"]


def test_a_bar_only_on_a_terminal() -> None:
    stream = io.StringIO()
    plain = index_progress(Console(file=stream))
    bar = index_progress(Console(file=io.StringIO(), force_terminal=True))

    assert isinstance(plain, PlainIndexProgress) and plain.stream is stream
    assert isinstance(bar, RichIndexProgress)
