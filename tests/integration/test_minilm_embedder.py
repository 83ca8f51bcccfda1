"""all-MiniLM-L6-v2 stays available under RAG_EMBEDDING_PROVIDER=minilm (optional install, in CI)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.store import ChunkStore, open_client

pytestmark = pytest.mark.slow


def test_minilm_embeds_unit_vectors_under_its_own_name(minilm_embedder: Any) -> None:
    vectors = minilm_embedder.embed_documents(["The palace opens at nine.", "Gardens close at dusk."])

    assert minilm_embedder.name == "minilm/all-MiniLM-L6-v2"
    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_an_index_built_with_minilm_is_searched_with_minilm(
    minilm_embedder: Any, corpus: Path, settings: RagSettings
) -> None:
    settings = settings.model_copy(update={"embedding_provider": "minilm"})
    index_corpus([corpus], settings, embedder=minilm_embedder)

    hits = HybridRetriever(settings, embedder=minilm_embedder).search("When does the palace open?", k=1)

    assert ChunkStore.open(open_client(settings), settings.collection).info["embedding_model"] == (
        "minilm/all-MiniLM-L6-v2"
    )
    assert hits[0].source.startswith("plan-your-visit/opening-hours")
