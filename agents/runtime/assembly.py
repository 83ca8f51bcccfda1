"""The model, tools and retriever built from the settings: one place for the in-process service
(:mod:`agents.service`) and the served graph (:mod:`agents.serving`), so both answer alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel

from agents.config import AgentSettings
from agents.graph.deps import AgentDeps
from agents.models.llm import build_chat_model
from agents.official.search import OfficialFirstSearcher
from agents.offline import OfflineChatModel, first_examples
from agents.runtime.tool_catalog import VisitorTools
from agents.tools.knowledge_base import build_knowledge_base_tool, search_knowledge_base
from agents.visit_calendar.check import indexed_texts
from rag.config import RagSettings
from rag.embeddings import same_query_threshold
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.retriever import HybridRetriever
from rag.sentence_store import SentenceVectorStore

OFFLINE_MODEL_NAME = "offline-extractive"


@dataclass
class AgentParts:
    """What a graph is compiled from, and what its callers show or log about it."""

    deps: AgentDeps
    retriever: HybridRetriever
    llm: BaseChatModel
    visitor_tools: VisitorTools
    offline: bool  # the offline model answers (no provider configured)
    model_name: str  # as the questions log records it


def build_parts(
    settings: AgentSettings,
    rag_settings: RagSettings | None = None,
    llm: BaseChatModel | None = None,
    retriever: HybridRetriever | None = None,
) -> AgentParts:
    """The chat model, tools and retriever the settings ask for (``llm``/``retriever`` given: tests)."""
    retriever_ = retriever or HybridRetriever(rag_settings)
    kb_language = (retriever_.languages or ["fr"])[0]

    def offline_model(settings: AgentSettings) -> BaseChatModel:
        """The offline model, reading evidence sentences with the knowledge base's own embedder."""
        return OfflineChatModel(
            embedder=retriever_.embedder,
            sentence_store=SentenceVectorStore.beside(retriever_.settings.index_dir),
            kb_language=kb_language,
            word_seconds=settings.offline_word_seconds,
        )

    model = llm or build_chat_model(settings, offline_factory=offline_model)
    offline = llm is None and settings.resolved_provider == "offline"
    visitor_tools = VisitorTools(source_texts=lambda: indexed_texts(retriever_))
    searcher = OfficialFirstSearcher(retriever_)  # operators' official answers before the pages
    deps = AgentDeps(
        llm=model,
        tools=[build_knowledge_base_tool(searcher), *visitor_tools.tools],
        search=lambda query: search_knowledge_base(searcher, query),
        embed=retriever_.embedder.embed_queries,
        kb_language=kb_language,
        max_rounds=settings.max_rounds,
        max_tool_calls=settings.max_tool_calls,
        max_searches=settings.max_searches,
        history_full_turns=settings.history_full_turns,
        history_max_tokens=settings.history_max_tokens,
        duplicate_query_threshold=settings.duplicate_query_threshold
        or same_query_threshold(retriever_.embedder.name),
        rewrite_unverified=not offline,  # the offline model quotes: a rewrite would say the same
    )
    return AgentParts(
        deps=deps,
        retriever=retriever_,
        llm=model,
        visitor_tools=visitor_tools,
        offline=offline,
        model_name=OFFLINE_MODEL_NAME if offline else settings.resolved_model,
    )


def offline_stand_in(parts: AgentParts) -> BaseChatModel:
    """The offline model over the parts' knowledge base: the model itself when it is the offline one,
    else one that reads alike, for work that must never call a provider (:mod:`agents.runtime.warmup`)."""
    if isinstance(parts.llm, OfflineChatModel):
        return parts.llm
    return OfflineChatModel(embedder=parts.retriever.embedder, kb_language=parts.deps.kb_language)


def warm_up_questions(languages: Sequence[str] = SUPPORTED_LANGUAGES) -> list[str]:
    """One short visitor question per language, for :mod:`agents.runtime.warmup`: the offline
    model's first example of a knowledge-base question in each."""
    return first_examples("knowledge_base", languages)
