"""The warm-up over a real graph and index: what a first answer loads is loaded once, before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.offline.reading import intent
from agents.service import AgentService
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings


class CountingEmbedder(HashingEmbedder):
    """The fake embedder, counting the times it is built into a search."""

    built = 0

    def __init__(self) -> None:
        super().__init__()
        CountingEmbedder.built += 1


@pytest.fixture
def service(index_dir: Path, tmp_path: Path) -> AgentService:
    settings = AgentSettings(_env_file=None, provider="offline", checkpoint_path=tmp_path / "threads.sqlite")
    return AgentService(
        settings=settings, retriever=HybridRetriever(make_settings(index_dir), embedder=CountingEmbedder())
    )


def test_the_warm_up_loads_the_embedder_and_intents_once(
    service: AgentService, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[Any] = []
    build = intent.IntentIndex.build.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        intent.IntentIndex, "build", classmethod(lambda cls, *a, **k: builds.append(1) or build(cls, *a, **k))
    )
    intent.intent_index.cache_clear()
    embedders = CountingEmbedder.built

    service.warm_up()
    service.warm_up()  # a second door asking changes nothing
    assert len(builds) == 1 and service.ready
    for number, question in enumerate(["When is the palace open?", "Wann ist das Schloss geöffnet?"]):
        assert isinstance(service.ask(question, f"after-{number}"), FinalAnswer)

    assert len(builds) == 1 and CountingEmbedder.built == embedders  # nothing built again


def test_a_question_asked_during_the_warm_up_waits_for_it(service: AgentService) -> None:
    warming = service.warm_up(background=True)
    result = service.ask("Quels sont les horaires du château ?", "during")

    assert warming.ready and isinstance(result, FinalAnswer) and result.answer
