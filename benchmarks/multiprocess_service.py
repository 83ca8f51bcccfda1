"""Several app processes over shared state: a Chroma server, PostgreSQL, 16 concurrent visitors.

Starts a Chroma server and a throwaway PostgreSQL on 127.0.0.1, indexes the bundled corpus into
Chroma once, then for each setup (one process with the SQLite file, one with PostgreSQL, two with
PostgreSQL) starts the app processes (benchmarks/service_process.py, offline model) and drives 16
visitor threads at once, each asking its turns in turn, alternating between the processes. Then it
reads every thread back from the checkpoints: each must hold exactly its own questions, in order.
Everything it started is stopped and deleted at the end.

Usage: python -m benchmarks.multiprocess_service [--visitors 16] [--turns 4]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks._common import ROOT, save_result
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus
from tests.local_server import free_port, running_server
from tests.postgres_server import create_database, running_postgres

QUESTIONS = [
    "Quels sont les horaires d'ouverture du château ?",
    "How much is a ticket for the Palace?",
    "¿Cómo llego a Versalles en tren desde París?",
    "Ist der Eintritt für Kinder kostenlos?",
    "Si possono noleggiare barche sul Grand Canal?",
    "Is the palace open on Mondays?",
    "Où peut-on déjeuner dans le domaine ?",
    "Can I bring a stroller into the palace?",
    "When are the musical fountain shows?",
    "Le jardin est-il gratuit ?",
    "How long does a visit of the palace take?",
    "Y a-t-il un parking près du château ?",
]
HIDDEN = {"MISTRAL_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MISTRAL_BASE_URL", "AGENT_PROVIDER",
          "AGENT_MODEL", "AGENT_CHECKPOINT_URL", "AGENT_CHECKPOINT_PATH", "LANGSMITH_TRACING",
          "LANGCHAIN_TRACING_V2"}  # fmt: skip
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 only, never a proxy


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def visitor_questions(visitor: int, turns: int) -> list[str]:
    """A different sequence per visitor, so a message in the wrong thread shows."""
    return [QUESTIONS[(visitor * 5 + turn * 7) % len(QUESTIONS)] for turn in range(turns)]


def post_turn(port: int, thread: str, question: str) -> tuple[dict[str, Any], float]:
    body = json.dumps({"thread": thread, "question": question}).encode("utf-8")
    request = urllib.request.Request(f"http://127.0.0.1:{port}/turn", data=body, method="POST")
    started = time.perf_counter()
    try:
        with _OPENER.open(request, timeout=600) as response:
            payload = json.loads(response.read())
    except urllib.error.HTTPError as error:  # the process failed the turn: counted, not fatal
        payload = {"error": error.read().decode("utf-8", "replace") or f"HTTP {error.code}"}
    return payload, time.perf_counter() - started


def start_processes(stack: ExitStack, count: int, folder: Path, base_env: dict[str, str]) -> list[int]:
    """``count`` app processes, each with its own lexical-index folder (as on separate machines)."""
    ports = []
    for number in range(count):
        port = free_port()
        env = {**base_env, "RAG_INDEX_DIR": str(folder / f"replica-{number}")}
        command = [sys.executable, "-m", "benchmarks.service_process", str(port)]
        stack.enter_context(running_server(command, f"http://127.0.0.1:{port}/health", timeout=300,
                                           cwd=ROOT, env=env))  # fmt: skip
        ports.append(port)
    for port in ports:  # load the models and the lexical index before timing
        post_turn(port, f"warm-up-{port}", QUESTIONS[0])
    return ports


def drive(ports: list[int], visitors: int, turns: int, label: str) -> tuple[dict[str, Any], dict[str, list]]:
    """Every visitor's turns, visitors concurrent, each turn on the next process in the rotation."""
    sent: dict[str, list[str]] = {}
    latencies: list[float] = []
    failures: list[str] = []

    def visitor(number: int) -> None:
        thread = f"{label.replace(' ', '').replace(',', '-')}-visitor-{number}"
        sent[thread] = visitor_questions(number, turns)
        for turn, question in enumerate(sent[thread]):
            payload, seconds = post_turn(ports[(number + turn) % len(ports)], thread, question)
            latencies.append(seconds)
            if "error" in payload:
                failures.append(f"{thread} turn {turn + 1}: {payload['error']}")

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=visitors) as pool:
        list(pool.map(visitor, range(visitors)))
    wall = time.perf_counter() - started
    figures = {
        "processes": len(ports),
        "turns": len(latencies),
        "failed_turns": len(failures),
        "wall_s": round(wall, 2),
        "turns_per_s": round(len(latencies) / wall, 2),
        "p50_s": round(percentile(latencies, 0.50), 2),
        "p95_s": round(percentile(latencies, 0.95), 2),
        "mean_s": round(statistics.mean(latencies), 2),
        "failures": failures[:5],
    }
    return figures, sent


def stored_questions(saver: Any, thread: str) -> list[str]:
    """The visitor questions a thread's latest checkpoint holds, in order."""
    saved = saver.get_tuple({"configurable": {"thread_id": thread}})
    messages = saved.checkpoint["channel_values"].get("messages", []) if saved else []
    return [str(message.content) for message in messages if message.type == "human"]


def check_threads(saver: Any, sent: dict[str, list[str]]) -> dict[str, int]:
    """Threads holding exactly their questions in order; threads that lost or gained a message."""
    wrong = [thread for thread, questions in sent.items() if stored_questions(saver, thread) != questions]
    return {"threads": len(sent), "threads_intact": len(sent) - len(wrong), "threads_wrong": len(wrong)}


def run_setup(name: str, processes: int, store: dict[str, str], context: dict[str, Any]) -> dict[str, Any]:
    """Start the processes for one setup, drive them, check the threads, stop them."""
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.checkpoint.sqlite import SqliteSaver

    env = {**context["env"], **store}
    folder = Path(tempfile.mkdtemp(dir=context["root"]))
    with ExitStack() as stack:
        ports = start_processes(stack, processes, folder, env)
        figures, sent = drive(ports, context["visitors"], context["turns"], name)
    if "AGENT_CHECKPOINT_URL" in store:
        with PostgresSaver.from_conn_string(store["AGENT_CHECKPOINT_URL"]) as saver:
            figures |= check_threads(saver, sent)
    else:
        figures |= check_threads(SqliteSaver(sqlite3.connect(store["AGENT_CHECKPOINT_PATH"])), sent)
    return {"setup": name, **figures}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--visitors", type=int, default=16)
    parser.add_argument("--turns", type=int, default=4, help="turns per visitor")
    args = parser.parse_args()
    chroma = Path(sys.executable).parent / "chroma"
    with tempfile.TemporaryDirectory(prefix="multiprocess-") as tmp, running_postgres(durable=True) as pg_url:
        root, chroma_port = Path(tmp), free_port()
        command = [str(chroma), "run", "--path", str(root / "chroma"), "--host", "127.0.0.1",
                   "--port", str(chroma_port)]  # fmt: skip
        with running_server(command, f"http://127.0.0.1:{chroma_port}/api/v2/heartbeat"):
            settings = RagSettings(_env_file=None, index_dir=root / "indexer", chroma_host="127.0.0.1",
                                   chroma_port=chroma_port)  # fmt: skip
            started = time.perf_counter()
            report = index_corpus([DEFAULT_CORPUS], settings)
            seconds = time.perf_counter() - started
            print(f"indexed {report.chunks} chunks into the Chroma server in {seconds:.0f} s")
            env = {name: value for name, value in os.environ.items() if name not in HIDDEN}
            env.update(PYTHONPATH=str(ROOT), RAG_CHROMA_HOST="127.0.0.1", RAG_CHROMA_PORT=str(chroma_port),
                       AGENT_PROVIDER="offline", TOOLS_OFFLINE="1", HF_HUB_OFFLINE="1",
                       ANONYMIZED_TELEMETRY="False", NO_PROXY="127.0.0.1,localhost")  # fmt: skip
            context = {"env": env, "root": root, "visitors": args.visitors, "turns": args.turns}
            setups = [
                ("1 process, SQLite", 1, {"AGENT_CHECKPOINT_PATH": str(root / "threads.sqlite")}),
                ("1 process, PostgreSQL", 1, {"AGENT_CHECKPOINT_URL": create_database(pg_url)}),
                ("2 processes, PostgreSQL", 2, {"AGENT_CHECKPOINT_URL": create_database(pg_url)}),
            ]
            rows = []
            for name, processes, store in setups:
                rows.append(run_setup(name, processes, store, context))
                print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    print(f"\n{args.visitors} concurrent visitors x {args.turns} turns, offline model, each visitor's turns "
          "alternating between the processes\n")  # fmt: skip
    print("| setup | turns | failed | turns/s | p50 turn (s) | p95 turn (s) | threads intact |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['setup']} | {row['turns']} | {row['failed_turns']} | {row['turns_per_s']} | "
              f"{row['p50_s']} | {row['p95_s']} | {row['threads_intact']}/{row['threads']} |")  # fmt: skip
    save_result("multiprocess_service", {"visitors": args.visitors, "turns": args.turns, "setups": rows})


if __name__ == "__main__":
    main()
