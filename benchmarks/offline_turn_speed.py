"""Warm offline answers: seconds a turn, and the embedder's calls and texts a turn, idle and beside
busy processes (issue 50).

Usage: python -m benchmarks.offline_turn_speed [--index DIR] [--questions FILE] [--loads 0,2]
(index built by retrieval_quality). One process, the real service and the offline model: a few
warm-up turns on other questions first, then each question once, in a new conversation. ``--loads``:
the numbers of busy processes (``while True: pass``) running beside the turns, one run per number.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import BENCH_INDEX, QUESTIONS, SHARED, offline_service, save_result
from benchmarks.search_latency import percentile
from rag.evaluate import read_jsonl

WARM_UP = SHARED / "eval" / "visitors2.jsonl"  # other questions: the measured ones are new to the process
WARM_UP_TURNS = 3
METHODS = ("embed_documents", "embed_query", "embed_queries")


@dataclass
class Counts:
    """Calls into the embedding engine and the texts they embedded."""

    calls: int = 0
    texts: int = 0
    by_method: dict[str, list[int]] = field(default_factory=dict)


def count_calls(embedder: Any) -> Counts:
    """Count the engine's calls: the innermost embedder's methods wrapped on the instance (bound,
    so the intents' disk cache still knows the embedder by name)."""
    engine = getattr(embedder, "inner", embedder)  # under the query memo, where there is one
    counts = Counts()
    for name in METHODS:
        original = getattr(engine, name)

        def counted(self: Any, texts: Any, _original: Any = original, _name: str = name) -> Any:
            size = 1 if isinstance(texts, str) else len(texts)
            counts.calls += 1
            counts.texts += size
            tally = counts.by_method.setdefault(_name, [0, 0])
            tally[0], tally[1] = tally[0] + 1, tally[1] + size
            return _original(texts)

        counted.__name__ = name
        setattr(engine, name, types.MethodType(counted, engine))
    return counts


@contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """``count`` processes spinning beside the benchmark; stopped, by their own ids, on leaving."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in spinning:
            process.terminate()
            process.wait()


def run(service: Any, counts: Counts, questions: list[str], load: int) -> dict[str, Any]:
    """Each question once, in its own conversation, beside ``load`` busy processes."""
    seconds = []
    with busy_processes(load):
        time.sleep(0.5 if load else 0)
        calls, texts, methods = counts.calls, counts.texts, {k: list(v) for k, v in counts.by_method.items()}
        for number, question in enumerate(questions):
            start = time.perf_counter()
            service.ask(question, f"speed-{load}-{number}")
            seconds.append(time.perf_counter() - start)
    turns = len(questions)
    return {
        "load": load,
        "turns": turns,
        "p50_s": round(statistics.median(seconds), 3),
        "p95_s": round(percentile(seconds, 0.95), 3),
        "mean_s": round(statistics.fmean(seconds), 3),
        "max_s": round(max(seconds), 3),
        "embedder_calls_per_turn": round((counts.calls - calls) / turns, 2),
        "embedder_texts_per_turn": round((counts.texts - texts) / turns, 2),
        "per_method": {
            name: _since(tally, methods.get(name, [0, 0]), turns) for name, tally in counts.by_method.items()
        },
    }


def _since(now: list[int], before: list[int], turns: int) -> list[float]:
    """Calls and texts a turn since ``before``."""
    return [round((now[0] - before[0]) / turns, 2), round((now[1] - before[1]) / turns, 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--loads", default="0,2", help="busy processes beside the turns, one run each")
    parser.add_argument("--label", default="", help="a name for this run in the saved JSON")
    args = parser.parse_args()
    loads = [int(value) for value in args.loads.split(",")]
    questions = [row["question"] for row in read_jsonl(args.questions)]
    warm_up = [row["question"] for row in read_jsonl(WARM_UP)][:WARM_UP_TURNS]
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(args.index, Path(folder))
        counts = count_calls(service.retriever.embedder)
        for number, question in enumerate(warm_up):
            service.ask(question, f"warm-up-{number}")
        results = [run(service, counts, questions, load) for load in loads]
    header = ("busy processes", "turns", "p50 s", "p95 s", "mean s", "calls/turn", "texts/turn")
    print(
        " ".join(f"{column:>{width}}" for column, width in zip(header, (15, 6, 7, 7, 7, 11, 11), strict=True))
    )
    for row in results:
        print(
            f"{row['load']:>15} {row['turns']:>6} {row['p50_s']:>7} {row['p95_s']:>7} {row['mean_s']:>7} "
            f"{row['embedder_calls_per_turn']:>11} {row['embedder_texts_per_turn']:>11}  {row['per_method']}"
        )
    name = f"offline_turn_speed{'_' + args.label if args.label else ''}"
    save_result(name, {"index": str(args.index), "cores": os.cpu_count(), "runs": results})


if __name__ == "__main__":
    main()
