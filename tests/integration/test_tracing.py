"""LangSmith tracing is LangChain's own, switched on by its standard variables and off without them.

Each case runs one agent turn in a fresh process (LangSmith reads its variables once per process)
with ``LANGSMITH_ENDPOINT`` pointing at a local recorder, and with every socket connection to
anything but 127.0.0.1 refused and reported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from rag.indexer import index_corpus
from tests.conftest import REPO_ROOT, HashingEmbedder, make_settings

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


class Recorder(BaseHTTPRequestHandler):
    """A stand-in LangSmith API: records every request, answers 200 with an empty JSON object."""

    received: ClassVar[list[tuple[str, str, bytes]]] = []

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


@pytest.fixture
def langsmith_endpoint() -> Iterator[tuple[str, list[tuple[str, str, bytes]]]]:
    received: ClassVar[list[tuple[str, str, bytes]]] = []
    handler = type("Handler", (Recorder,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", received
    server.shutdown()
    server.server_close()


def one_turn(tmp_path: Path, corpus: Path, tracing: dict[str, str]) -> dict[str, object]:
    index_dir = tmp_path / "index"
    if not index_dir.exists():
        index_corpus([corpus], make_settings(index_dir), embedder=HashingEmbedder())
    spec = {"index_dir": str(index_dir), "agent": {"checkpoint_path": str(tmp_path / "t.sqlite")}, "delay": 0}
    env = {name: value for name, value in os.environ.items() if name not in TRACING_VARIABLES}
    env.update(PYTHONPATH=str(REPO_ROOT), NO_PROXY="*", **tracing)
    done = subprocess.run(
        [sys.executable, "-c", ONE_TURN, json.dumps(spec)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_without_the_variables_nothing_is_sent_anywhere(
    tmp_path: Path, corpus: Path, langsmith_endpoint: tuple[str, list[tuple[str, str, bytes]]]
) -> None:
    url, received = langsmith_endpoint

    outcome = one_turn(tmp_path, corpus, {"LANGSMITH_ENDPOINT": url})  # an endpoint alone enables nothing

    assert str(outcome["answer"]).startswith("Reply to Opening hours?")
    assert received == []
    assert outcome["refused"] == []


def test_the_standard_variables_send_the_turn_to_langsmith(
    tmp_path: Path, corpus: Path, langsmith_endpoint: tuple[str, list[tuple[str, str, bytes]]]
) -> None:
    url, received = langsmith_endpoint
    tracing = {"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "lsv2-test-key",
               "LANGSMITH_PROJECT": "versailles-assistant-test", "LANGSMITH_ENDPOINT": url}  # fmt: skip

    outcome = one_turn(tmp_path, corpus, tracing)

    assert outcome["refused"] == []
    posted = b"".join(body for method, _, body in received if method in {"POST", "PATCH"})
    assert b"versailles-assistant-test" in posted  # the runs of this turn, filed under the project
    assert b"Opening hours?" in posted
    assert b"traced-visitor" in posted  # the thread id rides in the runs' metadata
