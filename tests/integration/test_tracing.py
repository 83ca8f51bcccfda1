"""LangSmith tracing is LangChain's own, switched on by its standard variables and off without them.

Each case runs one agent turn in a fresh process (LangSmith reads its variables once per process)
with ``LANGSMITH_ENDPOINT`` pointing at a local recorder of its own, and with every socket connection
to anything but 127.0.0.1 refused and reported. The two processes run at once: each spends most of
its time importing and warming up the agent, and together they keep both cores busy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar, NamedTuple

import pytest

from rag.indexer import index_corpus
from tests.conftest import REPO_ROOT, HashingEmbedder, developer_variable, make_settings, write_corpus

TRACING_VARIABLES = [
    *(f"LANGSMITH_{name}" for name in ("TRACING", "API_KEY", "PROJECT", "ENDPOINT")),
    *(f"LANGCHAIN_{name}" for name in ("TRACING_V2", "API_KEY", "PROJECT", "ENDPOINT")),
]
ONE_TURN = """
import json, socket, sys
from langchain_core.tracers.langchain import wait_for_all_tracers
from tests.reliability.turn_worker import build_service

refused = []
connect = socket.socket.connect
def local_only(self, address):
    if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "localhost", "::1"):
        refused.append(str(address[0]))
        raise OSError("tests reach 127.0.0.1 only")
    return connect(self, address)
socket.socket.connect = local_only

service = build_service(json.loads(sys.argv[1]))
answer = service.ask("Opening hours?", "traced-visitor")
wait_for_all_tracers()
print(json.dumps({"answer": answer.answer, "refused": refused}))
"""
Received = list[tuple[str, str, bytes]]


class Recorder(BaseHTTPRequestHandler):
    """A stand-in LangSmith API: records every request, answers 200 with an empty JSON object."""

    received: ClassVar[Received] = []

    def log_message(self, format: str, *args: object) -> None:
        return None

    def _answer(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.received.append((self.command, self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    do_GET = do_POST = do_PATCH = _answer


@contextmanager
def langsmith_endpoint() -> Iterator[tuple[str, Received]]:
    """A recorder on a free port: its URL and the requests it received."""
    received: Received = []
    handler = type("Handler", (Recorder,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()


def start_turn(folder: Path, index_dir: Path, tracing: dict[str, str]) -> subprocess.Popen[str]:
    """One turn in a fresh process whose environment holds no tracing variable but ``tracing``."""
    folder.mkdir()
    spec = {"index_dir": str(index_dir), "agent": {"checkpoint_path": str(folder / "t.sqlite")}, "delay": 0}
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in TRACING_VARIABLES and not developer_variable(name)
    }
    env.update(PYTHONPATH=str(REPO_ROOT), NO_PROXY="*", TOOLS_OFFLINE="1", **tracing)
    command = [sys.executable, "-c", ONE_TURN, json.dumps(spec)]
    return subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish_turn(process: subprocess.Popen[str]) -> dict[str, object]:
    """What the turn's process printed last, once it exited cleanly."""
    stdout, stderr = process.communicate(timeout=180)
    assert process.returncode == 0, stderr[-2000:]
    return dict(json.loads(stdout.strip().splitlines()[-1]))


class Turn(NamedTuple):
    """What one case's process printed, and what its recorder received."""

    outcome: dict[str, object]
    received: Received


@pytest.fixture(scope="module")
def turns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Turn]:
    """The turn of each case: ``silent`` has an endpoint alone, ``traced`` the standard variables."""
    folder = tmp_path_factory.mktemp("tracing")
    index_dir = folder / "index"
    index_corpus([write_corpus(folder / "corpus")], make_settings(index_dir), embedder=HashingEmbedder())
    with langsmith_endpoint() as (silent_url, silent), langsmith_endpoint() as (traced_url, traced):
        tracing = {"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "lsv2-test-key",
                   "LANGSMITH_PROJECT": "versailles-assistant-test",
                   "LANGSMITH_ENDPOINT": traced_url}  # fmt: skip
        running = {
            "silent": (start_turn(folder / "silent", index_dir, {"LANGSMITH_ENDPOINT": silent_url}), silent),
            "traced": (start_turn(folder / "traced", index_dir, tracing), traced),
        }
        try:
            return {
                name: Turn(finish_turn(process), received) for name, (process, received) in running.items()
            }
        finally:
            for process, _ in running.values():
                process.kill()  # a no-op once it has exited


def test_without_the_variables_nothing_is_sent_anywhere(turns: dict[str, Turn]) -> None:
    outcome, received = turns["silent"]  # an endpoint alone enables nothing

    assert str(outcome["answer"]).startswith("Reply to Opening hours?")
    assert received == []
    assert outcome["refused"] == []


def test_the_standard_variables_send_the_turn_to_langsmith(turns: dict[str, Turn]) -> None:
    outcome, received = turns["traced"]

    assert outcome["refused"] == []
    posted = b"".join(body for method, _, body in received if method in {"POST", "PATCH"})
    assert b"versailles-assistant-test" in posted  # the runs of this turn, filed under the project
    assert b"Opening hours?" in posted
    assert b"traced-visitor" in posted  # the thread id rides in the runs' metadata
