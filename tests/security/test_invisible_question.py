"""A question made only of invisible characters is an empty question: a sentence, nothing searched.

Before, zero-width spaces, joiners, byte-order marks and bidi marks passed ``str.strip()`` and the
turn ran: a search, a model call and a checkpoint for a question nobody could see.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.config import AgentSettings
from agents.events import ErrorOccurred
from agents.runtime.admission import is_blank
from agents.service import AgentService
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings
from tests.fakes import ScriptedChatModel

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200b\u200c\u200d\u200e\u200f",  # zero-width (non-)joiners, left-to-right and right-to-left marks
    "\u2060\ufeff",  # word joiner, byte-order mark
    " \u200b\t\u3000\u00a0 ",  # with ordinary, ideographic and no-break spaces
    "\x00\x07\x1b",  # control characters
    "\u202e\u2066\u2069",  # bidi overrides and isolates
    "\u3164\u2800\u115f",  # Hangul filler, blank Braille pattern
    "\u2028\u2029",  # line and paragraph separators
]


@pytest.fixture
def service(corpus: Path, tmp_path: Path) -> AgentService:
    settings = make_settings(tmp_path / "index")
    embedder = HashingEmbedder()
    index_corpus([corpus], settings, embedder=embedder)
    retriever = HybridRetriever(settings, embedder=embedder)
    agent_settings = AgentSettings(_env_file=None, checkpoint_path=tmp_path / "state" / "threads.sqlite")
    return AgentService(settings=agent_settings, retriever=retriever, llm=ScriptedChatModel(script=[]))


@pytest.mark.parametrize("question", INVISIBLE)
def test_an_invisible_question_gets_the_empty_question_sentence_and_nothing_runs(
    service: AgentService, question: str
) -> None:
    events = list(service.stream(question, "thread-1"))

    assert len(events) == 1 and isinstance(events[0], ErrorOccurred)
    assert events[0].kind == "empty_question"
    config = {"configurable": {"thread_id": "thread-1"}}
    assert service.graph.get_state(config).values == {}  # nothing stored, nothing searched


@pytest.mark.parametrize("question", ["\u200bHours?", "?", "ヴェルサイユ", "\u0301a", "١"])
def test_a_question_with_anything_visible_is_not_blank(question: str) -> None:
    assert not is_blank(question)
