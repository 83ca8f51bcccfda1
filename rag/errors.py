"""Errors a user can meet and fix; the CLI prints them as one line."""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_settings import SettingsError

from rag.crawl.crawler import CrawlError
from rag.crawl.scope import CrawlInputError
from rag.crawl.state import CrawlStateError
from rag.embeddings import EmbeddingConfigError, EmbeddingServiceError
from rag.indexer import IndexInputError
from rag.redact import redact_url
from rag.retriever import QueryError
from rag.store import KnowledgeBaseError

USER_ERRORS: tuple[type[Exception], ...] = (
    KnowledgeBaseError,
    EmbeddingConfigError,
    EmbeddingServiceError,
    QueryError,
    IndexInputError,
    CrawlInputError,
    CrawlError,
    CrawlStateError,
    FileNotFoundError,
    SettingsError,  # a setting pydantic-settings could not decode (its message names no value)
)

SETTINGS_PREFIXES = {"RagSettings": "RAG_", "AgentSettings": "AGENT_", "ToolSettings": "TOOLS_"}


def _shown(value: object) -> object:
    """A value given to a setting, a URL without its credentials."""
    return redact_url(value) if isinstance(value, str) and "://" in value else value


def error_sentence(error: Exception) -> str:
    """One sentence for the user. An invalid setting names its variable, the rule it breaks and
    (unless it may hold a secret) the value given; other errors are their own message."""
    if isinstance(error, SettingsError):
        return f"A setting could not be read ({error}): fix it in .env or the environment."
    if not isinstance(error, ValidationError):
        return str(error)
    prefix = SETTINGS_PREFIXES.get(error.title)
    if prefix is None:
        return (
            f"{error.title} could not be read ({error.error_count()} problems): {error.errors()[0]['msg']}."
        )
    parts = []
    for item in error.errors():
        if not item.get("loc"):  # a rule across settings: its message names them; the input holds secrets
            parts.append(item["msg"].removeprefix("Value error, ").rstrip("."))
            continue
        field = str(item["loc"][0])
        name = field if field.isupper() else f"{prefix}{field.upper()}"
        secret = any(word in name for word in ("KEY", "TOKEN", "SECRET", "PASSWORD", "CHECKPOINT_URL"))
        given = "" if secret or "input" not in item else f"={_shown(item['input'])!r}"
        parts.append(f"{name}{given} is invalid ({item['msg'][:1].lower()}{item['msg'][1:]})")
    return f"{'; '.join(parts)}: fix it in .env or the environment."
