"""20 visitors at once through the served API for 2 minutes, on one Aegra process over PostgreSQL.

Each visitor holds their own token and plays turns back to back, as the widget does (stream the
run, read the state), four per conversation before starting a new one; the questions rotate through
generic visitor questions. Afterwards every conversation is read back through the API (it must
hold exactly the questions sent to it, in order) and from the questions log (one row per answered
turn): no question may be lost, no turn may fail. For comparison the same number of visitors then
play turns through ``AgentService`` in one process for the same time (what the Streamlit app runs).

The per-visitor rate limit is raised for the run: it is a guard against one abusive client, and
here each visitor asks as fast as the server answers.

Usage: python -m benchmarks.api_concurrency [--visitors 20] [--seconds 120]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from langgraph_sdk import get_client

from agents.config import AgentSettings
from agents.insights.store import QuestionLog
from benchmarks._common import save_result
from benchmarks._served import QUESTIONS, api_turn, offline_service, percentile, project_index, service_turn
from tests.postgres_server import create_database, running_postgres
from tests.serving_servers import UNLIMITED, aegra, offline_agent_env

TURNS_PER_CONVERSATION = 4


@dataclass
class Tally:
    """What the visitors did: turns answered, their latencies, failures, and each thread's questions."""

    seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: dict[str, list[str]] = field(default_factory=dict)  # thread -> questions, in order
    clients: dict[str, dict[str, str]] = field(default_factory=dict)  # thread -> its visitor's headers


async def visitor(url: str, number: int, deadline: float, tally: Tally) -> None:
    headers = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
    client = get_client(url=url, headers=headers, timeout=300)
    turn = 0
    while time.monotonic() < deadline:
        try:
            thread = await client.threads.create()
            thread_id = thread["thread_id"]
            tally.sent[thread_id], tally.clients[thread_id] = [], headers
            for _ in range(TURNS_PER_CONVERSATION):
                if time.monotonic() >= deadline:
                    break
                question = QUESTIONS[(number + turn) % len(QUESTIONS)]
                turn += 1
                tally.sent[thread_id].append(question)
                started = time.perf_counter()
                await api_turn(client, thread_id, question)
                tally.seconds.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - every failure is counted and shown
            tally.errors.append(f"visitor {number}: {type(error).__name__}: {str(error)[:200]}")


async def check_threads(url: str, tally: Tally, questions: QuestionLog) -> list[str]:
    """Every conversation holds exactly its questions in order, each logged once."""
    problems = []
    for thread_id, sent in tally.sent.items():
        client = get_client(url=url, headers=tally.clients[thread_id])
        state = await client.threads.get_state(thread_id)
        asked = [m["content"] for m in state["values"].get("messages", []) if m["type"] == "human"]
        if asked != sent:
            problems.append(f"thread {thread_id}: holds {len(asked)} questions, {len(sent)} sent")
        logged = len(questions.thread_turns(thread_id))
        if logged != len(sent):
            problems.append(f"thread {thread_id}: {logged} logged turns, {len(sent)} sent")
    return problems


def api_run(
    url: str, visitors: int, seconds: float, questions: QuestionLog
) -> tuple[Tally, list[str], float]:
    async def run() -> tuple[Tally, list[str], float]:
        tally = Tally()
        started = time.monotonic()
        await asyncio.gather(*(visitor(url, v, started + seconds, tally) for v in range(visitors)))
        elapsed = time.monotonic() - started
        return tally, await check_threads(url, tally, questions), elapsed

    return asyncio.run(run())


def service_run(index: object, folder: Path, visitors: int, seconds: float) -> tuple[list[float], int, float]:
    """The same visitors through ``AgentService`` in threads of this process."""
    service = offline_service(index, folder)  # type: ignore[arg-type]
    service_turn(service, QUESTIONS[0])  # warm
    deadline = time.monotonic() + seconds
    lock, durations, failures = threading.Lock(), [], [0]

    def play(number: int) -> None:
        turn = 0
        while time.monotonic() < deadline:
            try:
                took = service_turn(service, QUESTIONS[(number + turn) % len(QUESTIONS)])
                with lock:
                    durations.append(took)
            except Exception:  # noqa: BLE001
                with lock:
                    failures[0] += 1
            turn += 1

    started = time.monotonic()
    with ThreadPoolExecutor(visitors) as pool:
        list(pool.map(play, range(visitors)))
    elapsed = time.monotonic() - started
    service.close()
    return durations, failures[0], elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--no-service", action="store_true", help="skip the AgentService comparison")
    args = parser.parse_args()
    index = project_index()
    folder = Path(tempfile.mkdtemp(prefix="api-concurrency-"))
    env = offline_agent_env(index, folder, **UNLIMITED)
    with ExitStack() as stack, (folder / "aegra.log").open("wb") as log:
        database = create_database(stack.enter_context(running_postgres(durable=True)))
        url = stack.enter_context(aegra({**env, "AGENT_CHECKPOINT_URL": database}, database, log))
        questions = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_url=database))
        warm = Tally()
        asyncio.run(visitor(url, 0, time.monotonic() + 1, warm))  # builds the graph: one conversation
        tally, problems, elapsed = api_run(url, args.visitors, args.seconds, questions)
    figures = {
        "visitors": args.visitors,
        "seconds": round(elapsed, 1),
        "turns": len(tally.seconds),
        "errors": len(tally.errors),
        "lost_or_misplaced": len(problems),
        "conversations": len(tally.sent),
        "turns_per_second": round(len(tally.seconds) / elapsed, 2),
        "p50_s": round(percentile(tally.seconds, 0.5), 2) if tally.seconds else None,
        "p95_s": round(percentile(tally.seconds, 0.95), 2) if tally.seconds else None,
    }
    print(f"Aegra, 1 process, PostgreSQL: {figures}")
    for line in (tally.errors + problems)[:10]:
        print("  " + line)
    if not args.no_service:
        durations, failures, took = service_run(index, folder, args.visitors, args.seconds)
        figures["service"] = {
            "turns": len(durations),
            "errors": failures,
            "turns_per_second": round(len(durations) / took, 2),
            "p50_s": round(percentile(durations, 0.5), 2) if durations else None,
            "p95_s": round(percentile(durations, 0.95), 2) if durations else None,
        }
        print(f"AgentService, same visitors in one process: {figures['service']}")
    save_result("api_concurrency", figures)


if __name__ == "__main__":
    main()
