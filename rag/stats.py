"""What the index holds and how it was built, one row per collection (CLI table, app sidebar)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rag.config import RagSettings
from rag.store import ChunkStore, KnowledgeBaseError, open_client


def knowledge_base_stats(
    settings: RagSettings, collections: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Chunks, documents, embedding model and dimension, languages and completeness per collection.

    Raises :class:`KnowledgeBaseError` (with the command to run) when there is no index.
    """
    client = open_client(settings)
    names = list(collections or [c.name for c in client.list_collections()])
    if not names:
        raise KnowledgeBaseError("The index holds no collection. Build it with: python -m rag index")
    rows = []
    for name in names:
        store = ChunkStore.open(client, name, settings)
        info = store.info
        rows.append(
            {
                "collection": name,
                "chunks": store.count(),
                "documents": info.get("documents"),
                "embedding_model": info.get("embedding_model"),
                "embedding_dimension": info.get("embedding_dimension"),
                "languages": [code for code in str(info.get("languages", "")).split(",") if code],
                "complete": bool(info.get("complete")),
            }
        )
    return rows
