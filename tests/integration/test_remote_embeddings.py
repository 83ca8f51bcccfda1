"""Remote embedding providers (OpenAI, Mistral) against a local fake of their HTTP API.

The fake speaks the ``POST {base}/embeddings`` wire format of both providers on 127.0.0.1, so the
factory in :mod:`rag.embeddings` is exercised end to end through the real LangChain clients
without any network access.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rag.config import RagSettings
from rag.embeddings import EmbeddingConfigError, EmbeddingServiceError, build_embedder, embedder_name
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever

pytestmark = [
    pytest.mark.filterwarnings("ignore:Could not download mistral tokenizer:UserWarning"),
    pytest.mark.usefixtures("no_network_leaks"),
]

API_KEY = "test"
DIMENSION = 8
# An error must surface well before this; a client stuck in long retries or timeouts fails the test.
DEADLINE_S = 10.0
PROVIDERS = ["openai", "mistral"]
# Variables the provider SDKs read on their own, which would bypass the settings under test.


def fake_vector(text: str) -> list[float]:
    """Deterministic, never-zero and deliberately not normalised vector for ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [byte - 127.5 for byte in digest[:DIMENSION]]


def expected_row(text: str) -> np.ndarray:
    vector = np.asarray(fake_vector(text), dtype=np.float32)
    return vector / np.linalg.norm(vector)


@dataclass
class FakeEmbeddingServer:
    """State of the fake server: how it answers and every embeddings request it received."""

    base_url: str = ""
    mode: str = "ok"  # "ok", "error" (HTTP 500) or "garbage" (200 with a body that is not JSON)
    requests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        """Every text the server was asked to embed, in order."""
        return [text for request in self.requests for text in request["input"]]


def _handler_for(state: FakeEmbeddingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def _reply(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _error(self, status: int, message: str) -> None:
            self._reply(status, json.dumps({"error": {"message": message, "type": "fake"}}).encode())

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path != "/v1/embeddings":
                self._error(404, f"no route {self.path}")
                return
            if self.headers.get("Authorization") != f"Bearer {API_KEY}":
                self._error(401, "bad or missing bearer token")
                return
            payload = json.loads(raw)
            texts = payload["input"] if isinstance(payload["input"], list) else [payload["input"]]
            state.requests.append({"input": texts, "model": payload.get("model"), "body": payload})
            if state.mode == "error":
                self._error(500, "the fake server is broken on purpose")
                return
            if state.mode == "garbage":
                self._reply(200, b"<html>this is not json{")
                return
            data = []
            for index, text in enumerate(texts):
                vector: Any = fake_vector(text)
                if payload.get("encoding_format") == "base64":  # the openai SDK asks for this
                    vector = base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode()
                data.append({"object": "embedding", "index": index, "embedding": vector})
            body = {
                "object": "list",
                "data": data,
                "model": payload.get("model"),
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            }
            self._reply(200, json.dumps(body).encode())

    return Handler


@pytest.fixture
def server() -> Iterator[FakeEmbeddingServer]:
    state = FakeEmbeddingServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(state))
    httpd.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-embeddings", daemon=True
    )
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def remote_settings(provider: str, base_url: str | None, tmp_path: Path, **overrides: Any) -> RagSettings:
    values: dict[str, Any] = {
        "embedding_provider": provider,
        f"{provider}_api_key": API_KEY,
        f"{provider}_base_url": base_url,
        "index_dir": tmp_path / "idx",
        "collection": "remote_kb",
        **overrides,
    }
    return RagSettings(_env_file=None, **values)


def outcome_within(seconds: float, call: Callable[[], object]) -> dict[str, Any]:
    """Run ``call`` in a daemon thread; fail the test if it neither returns nor raises in time."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except Exception as error:  # noqa: BLE001 - the test inspects whatever the client raised
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    started = time.perf_counter()
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"no answer after {time.perf_counter() - started:.0f}s: the client keeps retrying")
    return outcome


@pytest.mark.parametrize("provider", PROVIDERS)
def test_embeds_documents_and_query_through_the_server(
    provider: str, server: FakeEmbeddingServer, tmp_path: Path
) -> None:
    embedder = build_embedder(remote_settings(provider, server.base_url, tmp_path))
    documents = ["Le château ouvre à 9 h.", "The gardens close at dusk.", "Tickets cost 32 euros."]

    rows = embedder.embed_documents(documents)
    query = embedder.embed_query("When does the palace open?")

    assert server.texts == [*documents, "When does the palace open?"]
    assert rows.shape == (3, DIMENSION)
    assert rows.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(rows, np.stack([expected_row(text) for text in documents]), rtol=1e-5)
    assert query.shape == (DIMENSION,)
    assert query.dtype == np.float32
    np.testing.assert_allclose(query, expected_row("When does the palace open?"), rtol=1e-5)


@pytest.mark.parametrize(
    ("provider", "model"), [("openai", "text-embedding-3-small"), ("mistral", "mistral-embed")]
)
def test_requests_name_the_default_model(
    provider: str, model: str, server: FakeEmbeddingServer, tmp_path: Path
) -> None:
    build_embedder(remote_settings(provider, server.base_url, tmp_path)).embed_query("palace")

    assert [request["model"] for request in server.requests] == [model]


def test_openai_requests_are_batched_by_embedding_batch_size(
    server: FakeEmbeddingServer, tmp_path: Path
) -> None:
    settings = remote_settings("openai", server.base_url, tmp_path, embedding_batch_size=2)

    build_embedder(settings).embed_documents(["one", "two", "three", "four", "five"])

    assert [request["input"] for request in server.requests] == [["one", "two"], ["three", "four"], ["five"]]


@pytest.mark.parametrize(
    ("provider", "name"), [("openai", "openai/text-embedding-3-small"), ("mistral", "mistral/mistral-embed")]
)
def test_embedder_name_records_provider_and_default_model(
    provider: str, name: str, server: FakeEmbeddingServer, tmp_path: Path
) -> None:
    settings = remote_settings(provider, server.base_url, tmp_path)

    assert build_embedder(settings).name == name
    assert embedder_name(settings) == name


@pytest.mark.parametrize(
    ("provider", "variable"), [("openai", "OPENAI_API_KEY"), ("mistral", "MISTRAL_API_KEY")]
)
def test_missing_api_key_names_the_variable(provider: str, variable: str, tmp_path: Path) -> None:
    settings = RagSettings(_env_file=None, embedding_provider=provider, index_dir=tmp_path / "idx")

    with pytest.raises(EmbeddingConfigError, match=variable):
        build_embedder(settings)


@pytest.mark.parametrize(
    "provider",
    [
        "openai",
        "mistral",
    ],
)
def test_server_error_raises_promptly(provider: str, server: FakeEmbeddingServer, tmp_path: Path) -> None:
    server.mode = "error"
    embedder = build_embedder(remote_settings(provider, server.base_url, tmp_path))

    outcome = outcome_within(DEADLINE_S, lambda: embedder.embed_documents(["palace"]))

    assert "error" in outcome, f"an HTTP 500 gave a result: {outcome.get('value')!r}"
    assert server.requests


@pytest.mark.parametrize("provider", PROVIDERS)
def test_garbage_json_raises_promptly(provider: str, server: FakeEmbeddingServer, tmp_path: Path) -> None:
    server.mode = "garbage"
    embedder = build_embedder(remote_settings(provider, server.base_url, tmp_path))

    outcome = outcome_within(DEADLINE_S, lambda: embedder.embed_documents(["palace"]))

    assert "error" in outcome, f"a body that is not JSON gave a result: {outcome.get('value')!r}"
    assert server.requests


def test_index_and_search_through_openai_server(server: FakeEmbeddingServer, tmp_path: Path) -> None:
    corpus = tmp_path / "kb"
    corpus.mkdir()
    (corpus / "opening-hours.en.md").write_text(
        "# Opening hours\n\nThe palace opens at nine in the morning and closes at half past six.\n"
        "It is closed every Monday.\n",
        encoding="utf-8",
    )
    (corpus / "tickets.en.md").write_text(
        "# Tickets and prices\n\nThe passport ticket costs thirty two euros.\n"
        "Visitors under eighteen enter for free.\n",
        encoding="utf-8",
    )
    settings = remote_settings("openai", server.base_url, tmp_path)

    report = index_corpus([corpus], settings)
    hits = HybridRetriever(settings).search("How much does the passport ticket cost?", k=2)

    assert report.issues == []
    assert report.embedded == report.chunks >= 2
    assert len(server.texts) >= report.chunks
    assert "How much does the passport ticket cost?" in server.texts
    assert hits
    assert hits[0].source == "tickets.en.md"
    assert "thirty two euros" in hits[0].text


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_failing_service_is_one_sentence_without_the_key(
    provider: str, server: FakeEmbeddingServer, tmp_path: Path
) -> None:
    server.mode = "error"
    embedder = build_embedder(remote_settings(provider, server.base_url, tmp_path, remote_max_retries=0))

    with pytest.raises(EmbeddingServiceError) as caught:
        embedder.embed_query("palace")

    message = str(caught.value)
    assert message.startswith(f"The embedding service for {embedder.name} failed (")
    assert "\n" not in message and API_KEY not in message and "RAG_EMBEDDING_PROVIDER=local" in message
