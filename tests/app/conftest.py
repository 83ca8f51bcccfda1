"""The Streamlit app over a small index built with the fake embedder, the offline model and tmp state."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import rag.indexer
import rag.retriever
from rag.indexer import index_corpus
from tests.conftest import REPO_ROOT, HashingEmbedder, make_settings

APP = str(REPO_ROOT / "streamlit_app.py")


def _fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every embedder the app builds (service or indexing) is the fast deterministic fake."""
    for module in (rag.retriever, rag.indexer):
        monkeypatch.setattr(module, "build_embedder", lambda settings: HashingEmbedder())
        monkeypatch.setattr(module, "embedder_name", lambda settings: "fake/hashing-64")


@pytest.fixture
def app_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network_leaks: None) -> Iterator[Path]:
    """Environment for the app: index, collection and checkpoints in ``tmp_path``, offline model."""
    _fake_embedder(monkeypatch)
    settings = make_settings(tmp_path / "index")
    monkeypatch.setenv("RAG_INDEX_DIR", str(settings.index_dir))
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    monkeypatch.setenv("RAG_CHUNK_SIZE", str(settings.chunk_size))
    monkeypatch.setenv("RAG_CHUNK_OVERLAP", str(settings.chunk_overlap))
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "state" / "threads.sqlite"))
    st.cache_resource.clear()
    yield settings.index_dir
    st.cache_resource.clear()


@pytest.fixture
def indexed(app_env: Path, corpus: Path) -> Path:
    """``app_env`` with the small test corpus indexed."""
    index_corpus([corpus], make_settings(app_env), embedder=HashingEmbedder())
    return app_env


def start_app() -> AppTest:
    """The app after its first run (the service built, the page drawn)."""
    return AppTest.from_file(APP, default_timeout=60).run()  # a first turn reads its examples (reading)


@pytest.fixture
def server_address() -> Iterator[Callable[[str], None]]:
    """Set Streamlit's ``server.address`` for a test (the console opens without a password only on
    a loopback address), restored afterwards."""
    from streamlit import config

    before = config.get_option("server.address")
    yield lambda value: config.set_option("server.address", value)
    config.set_option("server.address", before)


@pytest.fixture
def local_console(server_address: Callable[[str], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """The app bound to 127.0.0.1, the operator's opt-in, and a browser on the same machine
    (Streamlit reports no IP for a loopback connection, AppTest's mocked runtime reports one; the
    browser's websocket carries a loopback Host and Origin): the console opens with no password."""
    server_address("127.0.0.1")
    monkeypatch.setenv("APP_LOCAL_CONSOLE", "true")
    monkeypatch.setattr(type(st.context), "ip_address", property(lambda self: None))
    local = {"Host": "localhost:8501", "Origin": "http://localhost:8501"}
    monkeypatch.setattr(type(st.context), "headers", property(lambda self: local))


def open_console(at: AppTest | None = None) -> AppTest:
    """The operator console page after a run."""
    return (at or start_app()).switch_page("app_pages/console.py").run()
