"""Turns of one conversation answered at once, by two threads or two processes, are all kept.

LangGraph checkpoints are last-write-wins, so without the turn locks two writers on one thread lose
about half the turns. Each scenario runs 2 writers x 6 turns on one thread id, for the SQLite file
and for PostgreSQL, then reads the thread back: 12 questions, each answered after exactly the
questions before it. The two processes are started once and answer the scenario of each store in
turn, each on a service it builds afresh.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from agents.events import ErrorOccurred, FinalAnswer
from agents.service import AgentService
from tests.conftest import REPO_ROOT
from tests.reliability.turn_worker import build_service

TURNS = 6
THREAD = "visitor-shared"


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Agent settings for one conversation store, shared by every writer of a test."""
    if request.param == "sqlite":
        return {"checkpoint_path": str(tmp_path / "state" / "threads.sqlite")}
    return {"checkpoint_url": request.getfixturevalue("postgres_url")}


class Worker:
    """One app process (``tests.reliability.turn_worker``) and the lines it printed, read as they come."""

    def __init__(self) -> None:
        command = [sys.executable, "-m", "tests.reliability.turn_worker"]
        self.process = subprocess.Popen(
            command, cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # the process closed its output: it has ended

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, timeout: float = 180) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, f"the worker ended with code {self.process.wait()}"
        return line


@pytest.fixture(scope="module", autouse=True)
def workers() -> Iterator[list[Worker]]:
    """Two app processes for the two-process scenarios, started with the module's first test so
    that their imports (seconds of a core each) overlap the tests run in this process; each must
    end cleanly once its input is closed."""
    started = [Worker(), Worker()]
    try:
        yield started
        for worker in started:
            assert worker.process.stdin is not None
            worker.process.stdin.close()
        assert [worker.process.wait(timeout=60) for worker in started] == [0, 0]
    finally:
        for worker in started:
            worker.process.kill()  # a no-op once it has exited


def spec(index_dir: Path, store: dict[str, Any], label: str, **agent: Any) -> dict[str, Any]:
    return {"index_dir": str(index_dir), "agent": {**store, **agent}, "label": label, "thread": THREAD,
            "turns": TURNS, "delay": 0.15}  # fmt: skip


def kept_turns(service: AgentService) -> list[tuple[str, str]]:
    """(question, reply) pairs of the shared thread, in order."""
    messages = service.graph.get_state({"configurable": {"thread_id": THREAD}}).values["messages"]
    questions = [str(m.content) for m in messages if isinstance(m, HumanMessage)]
    replies = [str(m.content) for m in messages if isinstance(m, AIMessage)]
    return list(zip(questions, replies, strict=True))


def assert_all_twelve_kept(service: AgentService) -> None:
    turns = kept_turns(service)
    assert sorted(question for question, _ in turns) == sorted(
        f"{label}{number}" for label in "AB" for number in range(1, TURNS + 1)
    )
    # Each turn continued the whole thread before it, whichever writer answered it.
    assert [reply for _, reply in turns] == [
        f"Reply to {question} (earlier questions: {earlier})" for earlier, (question, _) in enumerate(turns)
    ]


def test_two_threads_of_one_process_keep_all_twelve_turns(index_dir: Path, store: dict[str, Any]) -> None:
    service = build_service(spec(index_dir, store, "A"))
    results: dict[str, list[Any]] = {"A": [], "B": []}
    start = threading.Barrier(2)

    def visitor(label: str) -> None:
        start.wait()
        for number in range(1, TURNS + 1):
            results[label].append(service.ask(f"{label}{number}", THREAD))

    writers = [threading.Thread(target=visitor, args=(label,)) for label in "AB"]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)

    assert all(isinstance(result, FinalAnswer) for label in "AB" for result in results[label])
    assert_all_twelve_kept(service)
    assert len(service.turn_locks.local) == 0  # no lock left behind for the thread
    service.close()


def test_two_processes_keep_all_twelve_turns(
    workers: list[Worker], index_dir: Path, store: dict[str, Any]
) -> None:
    for worker, label in zip(workers, "AB", strict=True):
        worker.send(json.dumps(spec(index_dir, store, label)))
    assert [worker.read() for worker in workers] == ["ready", "ready"]
    for worker in workers:  # both start their six turns together
        worker.send("go")
    outputs = [[worker.read() for _ in range(TURNS + 1)] for worker in workers]

    assert [output[-1] for output in outputs] == ["done", "done"]  # each closed its service cleanly
    outcomes = [json.loads(line) for output in outputs for line in output[:-1]]
    assert len(outcomes) == 2 * TURNS and all("answer" in outcome for outcome in outcomes)
    reader = build_service(spec(index_dir, store, "reader"))
    assert_all_twelve_kept(reader)
    reader.close()


def test_a_turn_kept_waiting_too_long_is_refused_and_loses_nothing(index_dir: Path, tmp_path: Path) -> None:
    store = {"checkpoint_path": str(tmp_path / "threads.sqlite")}
    service = build_service({**spec(index_dir, store, "A", turn_wait_seconds=0.2), "delay": 1.0})
    first: list[Any] = []
    slow = threading.Thread(target=lambda: first.append(service.ask("A1", THREAD)))
    slow.start()
    while not service.turn_locks.local:  # the first turn holds the thread's lock
        threading.Event().wait(0.01)

    refused = service.ask("B1", THREAD)
    slow.join(timeout=30)

    assert isinstance(refused, ErrorOccurred)
    assert "still being written" in refused.message and "ask again" in refused.message
    assert isinstance(first[0], FinalAnswer)
    assert kept_turns(service) == [("A1", "Reply to A1 (earlier questions: 0)")]
    assert isinstance(service.ask("B1", THREAD), FinalAnswer)
    assert [question for question, _ in kept_turns(service)] == ["A1", "B1"]


def test_turns_beyond_the_pool_are_refused_in_a_sentence_not_starved(
    index_dir: Path, postgres_url: str
) -> None:
    """Each PostgreSQL turn holds a lock connection; past the pool, a turn is refused, others finish."""
    store = {"checkpoint_url": postgres_url, "checkpoint_pool_size": 2}
    service = build_service({**spec(index_dir, store, "A", turn_wait_seconds=0.3), "delay": 1.5})
    answers: list[Any] = []
    holders = [
        threading.Thread(target=lambda n=n: answers.append(service.ask("Q", f"visitor-{n}"))) for n in (1, 2)
    ]
    for holder in holders:
        holder.start()
    pool = service.turn_locks.shared.pool  # type: ignore[union-attr]

    def lent() -> int:
        stats = pool.get_stats()
        return int(stats.get("pool_size", 0) - stats.get("pool_available", 0))

    while lent() < 2:
        threading.Event().wait(0.01)  # both turns hold their lock connection: the pool is all lent

    refused = service.ask("Q", "visitor-3")
    for holder in holders:
        holder.join(timeout=30)

    assert isinstance(refused, ErrorOccurred)
    assert "already answering 2 conversations" in refused.message
    assert len(answers) == 2 and all(isinstance(answer, FinalAnswer) for answer in answers)
