"""Who enters free, through the offline agent on the bundled corpus: an age question gets the bold
eligibility line, and a follow-up changing only the visitor keeps the place and what was asked."""

from __future__ import annotations

from typing import Any

import pytest

from agents.events import FinalAnswer
from agents.service import AgentService
from tests.conftest import BundledIndex, offline_service

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, local_embedder: Any, bundled_index: BundledIndex
) -> AgentService:
    return offline_service(bundled_index, local_embedder, tmp_path_factory.mktemp("eligibility_agent"))


def _ask(service: AgentService, question: str, thread: str) -> FinalAnswer:
    result = service.ask(question, thread)
    assert isinstance(result, FinalAnswer), result
    return result


def test_an_age_question_heads_the_answer_with_the_bold_eligibility_line(service: AgentService) -> None:
    result = _ask(service, "How much is the Palace for my daughter? She is 8.", "age")

    assert "get_visit_calendar" in result.tools
    assert result.answer.startswith("**The Palace: free for visitors under 18 (8 years old)")
    assert "21 €" not in result.answer.split("\n")[0]  # the full price is not hers
    assert result.citations


def test_a_follow_up_changing_the_visitor_keeps_the_place_and_the_price_asked(service: AgentService) -> None:
    first = _ask(service, "Quel est le prix du billet du château ?", "follow-up")
    assert first.answer.startswith("**Billet Château : 21 €")

    result = _ask(service, "Et pour ma fille de 8 ans ?", "follow-up")

    assert "get_visit_calendar" in result.tools
    assert result.answer.startswith("**Le Château : gratuit pour les moins de 18 ans (8 ans)")


def test_an_eu_student_is_answered_in_spanish(service: AgentService) -> None:
    result = _ask(service, "Somos tres estudiantes de 22 años de Francia, ¿cuánto cuesta el Palacio?", "eu")

    assert result.answer.startswith(
        "**El Palacio: gratis para los residentes en la UE menores de 26 años (22 años, Francia)"
    )


def test_an_age_asked_of_something_else_gets_no_eligibility_line(service: AgentService) -> None:
    result = _ask(service, "What is the minimum age for the virtual reality headset tour?", "negative")

    assert "get_visit_calendar" not in result.tools
    assert "free for visitors under" not in result.answer
