"""The same index and search through a Chroma server instead of the embedded client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.store import ChunkStore, open_client
from tests.conftest import HashingEmbedder, make_settings
from tests.local_server import free_port, running_server

CHROMA = Path(sys.executable).parent / "chroma"


@pytest.fixture
def chroma_port(tmp_path: Path) -> Iterator[int]:
    """A Chroma server on a free local port, stopped after the test."""
    if not CHROMA.exists():
        pytest.skip(f"no chroma executable next to {sys.executable}")
    port = free_port()
    command = [
        str(CHROMA),
        "run",
        "--path",
        str(tmp_path / "server"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    with running_server(command, f"http://127.0.0.1:{port}/api/v2/heartbeat"):
        yield port


def test_index_and_search_through_a_chroma_server(corpus: Path, tmp_path: Path, chroma_port: int) -> None:
    settings = make_settings(tmp_path / "lexical", chroma_host="127.0.0.1", chroma_port=chroma_port)
    embedder = HashingEmbedder()

    report = index_corpus([corpus], settings, embedder=embedder)

    assert ChunkStore.open(open_client(settings), settings.collection).count() == report.chunks
    assert not (tmp_path / "lexical" / "chroma.sqlite3").exists()
    hits = HybridRetriever(settings, embedder=embedder).search("RER C train station", k=3)
    assert hits[0].source == "getting-there/transport.en.md"
    again = index_corpus([corpus], settings, embedder=embedder)
    assert again.embedded == 0
