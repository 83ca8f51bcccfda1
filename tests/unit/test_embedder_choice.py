"""Choosing the embedder: provider names, CPU support of the bundled engine, clear errors."""

from __future__ import annotations

import pytest

from rag.config import RagSettings
from rag.embeddings import EmbeddingConfigError, build_embedder, check_e5_engine_supported, embedder_name
from rag.store import canonical_embedder_name

AVX2_FLAGS = {"sse4_2", "avx", "avx2", "fma"}


def test_the_default_embedder_is_multilingual_e5() -> None:
    assert embedder_name(RagSettings(_env_file=None)) == "local/multilingual-e5-small"


def test_minilm_keeps_its_own_provider_name() -> None:
    assert (
        embedder_name(RagSettings(_env_file=None, embedding_provider="minilm")) == "minilm/all-MiniLM-L6-v2"
    )


def test_indexes_built_by_the_previous_default_are_recognised_as_minilm() -> None:
    assert canonical_embedder_name("local/all-MiniLM-L6-v2") == "minilm/all-MiniLM-L6-v2"
    assert canonical_embedder_name("local/multilingual-e5-small") == "local/multilingual-e5-small"


def test_a_cpu_with_avx2_and_fma_can_run_the_engine() -> None:
    check_e5_engine_supported(AVX2_FLAGS, "x86_64")


def test_a_cpu_without_avx2_is_told_so_and_given_the_alternatives() -> None:
    with pytest.raises(EmbeddingConfigError) as raised:
        check_e5_engine_supported({"sse4_2", "avx"}, "x86_64")

    message = str(raised.value)
    assert "AVX2" in message and "avx2, fma" in message
    assert "RAG_EMBEDDING_PROVIDER=minilm" in message
    assert "--rebuild" in message


def test_another_architecture_is_told_so_and_given_the_alternatives() -> None:
    with pytest.raises(EmbeddingConfigError, match=r"x86-64 only .*RAG_EMBEDDING_PROVIDER=minilm"):
        check_e5_engine_supported(AVX2_FLAGS, "aarch64")


def test_unreadable_cpu_flags_do_not_block_the_engine() -> None:
    check_e5_engine_supported(set(), "x86_64")


def test_another_model_name_under_local_is_refused_with_the_way_out() -> None:
    settings = RagSettings(_env_file=None, embedding_model="all-MiniLM-L6-v2")

    with pytest.raises(EmbeddingConfigError, match="RAG_EMBEDDING_PROVIDER=minilm"):
        build_embedder(settings)
