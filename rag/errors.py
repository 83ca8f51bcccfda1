"""Errors a user can meet and fix; the CLI prints them as one line."""

from __future__ import annotations

from rag.embeddings import EmbeddingConfigError
from rag.indexer import IndexInputError
from rag.retriever import QueryError
from rag.store import KnowledgeBaseError

USER_ERRORS: tuple[type[Exception], ...] = (
    KnowledgeBaseError,
    EmbeddingConfigError,
    QueryError,
    IndexInputError,
    FileNotFoundError,
)
