"""A warm offline turn reads the evidence's sentence vectors that indexing stored: the embedder
embeds no evidence sentence at turn time, and the question once."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.service import AgentService
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings


def test_an_offline_turn_embeds_no_sentence_of_the_indexed_evidence(corpus: Path, tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "index")
    embedder = HashingEmbedder()
    report = index_corpus([corpus], settings, embedder=embedder)
    service = AgentService(
        settings=AgentSettings(_env_file=None, provider="offline", checkpoint_path=tmp_path / "t.sqlite"),
        retriever=HybridRetriever(settings, embedder=embedder),
    )
    indexed = embedder.texts_embedded

    result = service.ask("When does the palace open?", "t")

    assert isinstance(result, FinalAnswer) and result.citations
    assert embedder.texts_embedded == indexed  # no evidence sentence embedded during the turn
    assert report.sentences_embedded > report.chunks
