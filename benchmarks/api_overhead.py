"""What a turn through the served API costs beyond the same turn through ``AgentService``.

Offline model over the project's index (``make index``), answers not slowed down. Each round plays
one turn, on a new thread, through the service in this process, through ``langgraph dev`` and through
Aegra on a throwaway PostgreSQL (fsync on), interleaved so that the machine's load falls on all three
alike. An API turn is what a client does: create the thread, stream the run, read the state. Target
(issue 41): the API's p50 at most 100 ms above the service's.

Usage: python -m benchmarks.api_overhead [--turns 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from langgraph_sdk import get_client

from benchmarks._common import save_result
from benchmarks._served import (
    QUESTIONS,
    api_turn,
    offline_service,
    percentile,
    project_index,
    service_turn,
    token_headers,
)
from tests.postgres_server import create_database, running_postgres
from tests.serving_servers import UNLIMITED, aegra, langgraph_dev, offline_agent_env

TARGET_MS = 100.0


async def timed_api_turn(url: str, question: str) -> float:
    client = get_client(url=url, headers=token_headers())
    started = time.perf_counter()
    thread = await client.threads.create()
    await api_turn(client, thread["thread_id"], question)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=50)
    args = parser.parse_args()
    index = project_index()
    folder = Path(tempfile.mkdtemp(prefix="api-overhead-"))
    env = offline_agent_env(index, folder, **UNLIMITED)
    with ExitStack() as stack, (folder / "servers.log").open("wb") as log:
        database = create_database(stack.enter_context(running_postgres(durable=True)))
        servers = {
            "langgraph dev": stack.enter_context(langgraph_dev(env, log)),
            "aegra": stack.enter_context(aegra({**env, "AGENT_CHECKPOINT_URL": database}, database, log)),
        }
        service = offline_service(index, folder)
        seconds: dict[str, list[float]] = {"AgentService": [], **{name: [] for name in servers}}
        for warm in QUESTIONS[:2]:  # the graph is built on a server's first run
            service_turn(service, warm)
            for url in servers.values():
                asyncio.run(timed_api_turn(url, warm))
        for turn in range(args.turns):
            question = QUESTIONS[turn % len(QUESTIONS)]
            seconds["AgentService"].append(service_turn(service, question))
            for name, url in servers.items():
                seconds[name].append(asyncio.run(timed_api_turn(url, question)))
        service.close()
    base = statistics.median(seconds["AgentService"]) * 1000
    print(f"{args.turns} turns each, offline model, index {index.index_dir}")
    print(f"{'path':<14} {'p50 ms':>8} {'p95 ms':>8} {'p50 - service':>14}")
    results = {}
    for name, values in seconds.items():
        p50, p95 = statistics.median(values) * 1000, percentile(values, 0.95) * 1000
        results[name] = {
            "p50_ms": round(p50, 1),
            "p95_ms": round(p95, 1),
            "overhead_ms": round(p50 - base, 1),
        }
        print(f"{name:<14} {p50:>8.1f} {p95:>8.1f} {p50 - base:>+13.1f}")
    worst = max(result["overhead_ms"] for name, result in results.items() if name != "AgentService")
    verdict = "met" if worst <= TARGET_MS else "NOT met"
    print(f"target: at most {TARGET_MS:.0f} ms more than AgentService: {verdict}")
    save_result("api_overhead", {"turns": args.turns, "results": results})


if __name__ == "__main__":
    main()
