"""The settings in use, as the operator console shows them: provider, model, retrieval, the graph."""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import ValidationError
from pydantic_settings import SettingsError

from agents.config import AgentSettings
from agents.service import AgentService
from agents.tools.knowledge_base import build_knowledge_base_tool
from rag.config import RagSettings


def passages_per_search() -> int:
    """How many passages a knowledge-base search returns (the tool's default ``k``)."""
    return int(inspect.signature(build_knowledge_base_tool).parameters["k"].default)


def current_settings(service: AgentService | None) -> tuple[AgentSettings, RagSettings]:
    """The service's settings, else the environment's (defaults when those are invalid)."""
    if service is not None:
        return service.settings, service.retriever.settings
    try:
        return AgentSettings(), RagSettings()
    except (ValidationError, SettingsError):  # the page says why; the sidebar still shows something
        return AgentSettings.model_construct(), RagSettings.model_construct()


def settings_summary(service: AgentService | None) -> dict[str, dict[str, Any]]:
    """The provider, model and retrieval settings in use, for the sidebar."""
    agent, rag = current_settings(service)
    offline = service.offline if service else agent.resolved_provider == "offline"
    return {
        "Assistant": {
            "provider": agent.resolved_provider,
            "model": service.model_name if service else agent.resolved_model,
            "offline": offline,
        },
        "Retrieval": {
            "passages per search (k)": passages_per_search(),
            "rounds at most": agent.max_rounds,
            "candidates per retriever": rag.candidates,
            "fusion": f"RRF k={rag.rrf_k}, BM25 x{rag.bm25_weight}, dense x{rag.dense_weight}",
            "reranking": f"top {rag.rerank_depth}" if rag.rerank else "off",
            "embedding": f"{rag.embedding_provider}: {rag.resolved_embedding_model}",
        },
    }


def graph_mermaid(service: AgentService) -> str:
    """The graph's structure as LangGraph itself draws it."""
    return str(service.graph.get_graph().draw_mermaid())
