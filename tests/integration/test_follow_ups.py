"""Every suggested follow-up question is one the knowledge base answers (offline agent, bundled corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from agents.answer.follow_ups import answered_topics, load_topics
from agents.events import FinalAnswer
from agents.service import AgentService
from app_ui.labels import Labels
from tests.conftest import BundledIndex, offline_service

pytestmark = pytest.mark.slow

QUESTIONS = [
    (topic.id, language, question)
    for topic in load_topics().values()
    for language, question in topic.question.items()
]


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, local_embedder: Any, bundled_index: BundledIndex
) -> AgentService:
    return offline_service(bundled_index, local_embedder, tmp_path_factory.mktemp("follow_ups"))


@pytest.mark.parametrize(
    ("topic", "language", "question"), QUESTIONS, ids=[f"{t}-{lang}" for t, lang, _ in QUESTIONS]
)
def test_a_suggested_question_is_answered_on_its_topic(
    service: AgentService, topic: str, language: str, question: str
) -> None:
    final = service.ask(question, f"follow-up-{topic}-{language}")

    assert isinstance(final, FinalAnswer), final
    assert final.kind != "not_found" and final.language == language, final.answer
    assert topic in answered_topics(final.reply, load_topics(), final.tools), (final.tools, final.citations)
    assert final.follow_ups and load_topics()[topic].question[language] not in final.follow_ups
    assert all(
        suggestion in {q for t, lang, q in QUESTIONS if lang == language} for suggestion in final.follow_ups
    )


@pytest.mark.parametrize("question", Labels("pt", "pt-BR")["examples"])
def test_the_brazilian_example_questions_are_answered_in_portuguese(
    service: AgentService, question: str
) -> None:
    final = service.ask(question, f"pt-br-{hash(question)}")

    assert isinstance(final, FinalAnswer) and final.kind != "not_found" and final.language == "pt", final
