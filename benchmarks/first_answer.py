"""Issue 50: how soon a first answer comes, in a fresh process and in each language, idle and busy.

For each source tree given (this one by default; ``--before DIR`` adds an older checkout, run in
alternation with this one), on the bundled corpus's index, offline model, tools offline:

- **fresh ask**: ``python -m agents ask QUESTION --json`` in a new process, seconds to its answer
  (bytecode as the runs before left it: the first run compiles, the next ones read it);
- **one process, four languages**: twelve short questions asked in turn (the door's warm-up first,
  where the tree has one, timed as *ready*): the first answer and each language's first answer over
  the median answer, and when the first words of each answer were streamed, as a fraction of its turn.

``--load 2`` runs two busy processes beside the measurement. Run:
``python -m benchmarks.first_answer --before /tmp/before --runs 3 [--load 2]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks._common import ROOT, save_result

QUESTION = "Quels sont les horaires d'ouverture du château ?"
QUESTIONS = [
    ("fr", "Quels sont les horaires du château ?"), ("en", "How much is a ticket?"),
    ("es", "¿Cómo llego en tren?"), ("de", "Ist der Eintritt für Kinder kostenlos?"),
    ("fr", "Peut-on venir avec un chien ?"), ("en", "When does the palace open?"),
    ("es", "¿Cuánto cuesta la entrada?"), ("de", "Wann ist das Schloss geöffnet?"),
    ("fr", "Où peut-on manger ?"), ("en", "Can I bring my dog?"),
    ("es", "¿Se puede hacer un pícnic?"), ("de", "Gibt es eine Garderobe?"),
]  # fmt: skip
ONE_PROCESS = """
import json, sys, time
from agents.events import AnswerToken, FinalAnswer
from agents.service import AgentService
service = AgentService()
started = time.perf_counter()
if hasattr(service, "warm_up"):
    service.warm_up()
ready = time.perf_counter() - started
turns = []
for number, (language, question) in enumerate(json.loads(sys.argv[1])):
    began, first = time.perf_counter(), None
    for event in service.stream(question, f"bench-{number}"):
        if isinstance(event, AnswerToken) and first is None:
            first = time.perf_counter() - began
    seconds = time.perf_counter() - began
    turns.append({"language": language, "seconds": seconds, "first_words": (first or seconds) / seconds})
print(json.dumps({"ready": ready, "turns": turns}))
"""


def _busy() -> None:
    while True:
        pass


def _env() -> dict[str, str]:
    return {**os.environ, "TOOLS_OFFLINE": "true", "AGENT_QUESTIONS_LOG": "false", "PYTHONPATH": "."}


def fresh_ask(tree: Path) -> float:
    """Seconds for ``python -m agents ask`` in a new process, to its answer."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "agents", "ask", QUESTION, "--json"]
    subprocess.run(command, cwd=tree, env=_env(), check=True, capture_output=True)
    return time.perf_counter() - started


def one_process(tree: Path) -> dict[str, Any]:
    """The twelve questions in one process: ready, first answer and each language's first over the median."""
    command = [sys.executable, "-c", ONE_PROCESS, json.dumps(QUESTIONS)]
    done = subprocess.run(command, cwd=tree, env=_env(), check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    seconds = [turn["seconds"] for turn in result["turns"]]
    median = statistics.median(seconds)
    firsts: dict[str, float] = {}
    for turn in result["turns"]:
        firsts.setdefault(turn["language"], turn["seconds"])
    return {
        "ready_s": round(result["ready"], 2),
        "first_s": round(seconds[0], 2),
        "median_s": round(median, 2),
        "first_over_median": round(seconds[0] / median, 2),
        "worst_language_first_over_median": round(max(firsts.values()) / median, 2),
        "first_words_fraction_median": round(statistics.median(t["first_words"] for t in result["turns"]), 2),
        "first_words_fraction_max": round(max(t["first_words"] for t in result["turns"]), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, help="an older checkout, measured in alternation")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load", type=int, default=0, help="busy processes beside the measurement")
    args = parser.parse_args()
    trees = {"after": ROOT, **({"before": args.before} if args.before else {})}
    busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for process in busy:
        process.start()
    results: dict[str, dict[str, list[Any]]] = {name: {"ask": [], "process": []} for name in trees}
    try:
        for _ in range(args.runs):
            for name, tree in trees.items():
                results[name]["ask"].append(round(fresh_ask(tree), 2))
                results[name]["process"].append(one_process(tree))
    finally:
        for process in busy:
            process.terminate()
    for name, figures in results.items():
        print(f"{name} (load {args.load}): fresh ask {figures['ask']} s")
        for run in figures["process"]:
            print(f"  {run}")
    save_result(f"first_answer_load{args.load}", {"load": args.load, **results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
