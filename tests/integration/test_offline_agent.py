"""The offline model end to end: the real graph, tools and retriever over the bundled corpus."""

from __future__ import annotations

from typing import Any

import pytest

from agents.events import AnswerToken, FinalAnswer
from agents.service import AgentService
from tests.conftest import BundledIndex, offline_service

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, local_embedder: Any, bundled_index: BundledIndex
) -> AgentService:
    return offline_service(bundled_index, local_embedder, tmp_path_factory.mktemp("offline_agent"))


def _ask(service: AgentService, question: str, thread: str) -> FinalAnswer:
    result = service.ask(question, thread)
    assert isinstance(result, FinalAnswer), result
    return result


def test_a_french_fact_question_is_answered_with_a_citation(service: AgentService) -> None:
    result = _ask(service, "Combien coûte le billet Passeport ?", "fr-fact")

    assert service.offline and result.offline_model
    assert set(result.tools) == {"get_visit_calendar", "search_knowledge_base"}  # the facts first
    assert result.language == "fr"
    assert result.citations and result.reply.citations
    assert "32 €" in result.answer


def test_a_rule_question_quotes_the_rule(service: AgentService) -> None:
    result = _ask(service, "Peut-on promener son chien dans les jardins ?", "fr-rule")

    assert "chiens" in result.answer.lower()
    assert result.citations


def test_an_english_question_is_answered_in_english_from_the_english_page(service: AgentService) -> None:
    result = _ask(service, "How much does the Passport ticket cost?", "en-fact")

    assert result.language == "en"
    assert result.citations
    assert any(citation.source.endswith(".en.md") for citation in result.reply.citations)
    # the visitor's link is the official page the English guide names (its front matter)
    assert any(citation.page.startswith("https://") for citation in result.reply.citations)


def test_a_weather_question_goes_to_the_weather_tool(service: AgentService) -> None:
    result = _ask(service, "Va-t-il pleuvoir demain à Versailles ?", "weather")

    assert result.tools == ["get_weather"]
    assert not result.abstained


def test_an_unrelated_question_is_not_answered_from_the_knowledge_base(service: AgentService) -> None:
    result = _ask(service, "Who won the football world cup in 1998?", "out-of-scope")

    assert result.abstained and result.kind == "not_found"
    assert "chateauversailles.fr" in result.answer
    assert "**" not in result.answer  # any passage shown is offered as related, with no headline
    shown = [citation.number for citation in result.reply.citations]
    assert result.reply.related == shown  # each quoted passage is marked related, not a source


def test_a_greeting_costs_one_model_call_and_no_search(service: AgentService) -> None:
    result = _ask(service, "Bonjour !", "greeting")

    assert result.tools == [] and result.model_calls == 1


def test_the_offline_answer_streams_word_by_word(service: AgentService) -> None:
    events = list(service.stream("Les chiens sont-ils admis dans les jardins ?", "streamed"))
    tokens = [event.text for event in events if isinstance(event, AnswerToken)]
    final = events[-1]

    assert isinstance(final, FinalAnswer)
    assert len(tokens) > 5  # the UI shows the answer growing, as with a streaming provider
    assert "".join(tokens).split() == final.answer.split()


def test_a_day_question_is_answered_by_the_visit_calendar_with_its_source(service: AgentService) -> None:
    result = _ask(service, "Le château est-il ouvert le lundi 30 novembre 2026 ?", "calendar")

    assert "get_visit_calendar" in result.tools
    assert result.answer.startswith(
        "**lundi 30 novembre 2026 — le Château : fermé (fermé tous les lundis).**"
    )
    assert result.reply.citations[0].title == "Horaires d'ouverture du domaine de Versailles"  # in French


NEWCOMER = {  # a ticket's price, the opening time, Mondays: what a first visitor asks, nine ways
    "fr": (
        "Quel est le prix d'entrée du Château ?",
        "Le Château ouvre à quelle heure ?",
        "Le Château est-il fermé le lundi ?",
    ),
    "en": (
        "What does a Palace ticket cost?",
        "What time does the Palace open?",
        "Can we visit the Palace on a Monday?",
    ),
    "es": (
        "¿Cuánto vale la entrada al Palacio?",
        "¿A qué hora abre el Palacio?",
        "¿Abre el Palacio los lunes?",
    ),
    "de": (
        "Was kostet der Eintritt ins Schloss?",
        "Wann öffnet das Schloss?",
        "Hat das Schloss montags geöffnet?",
    ),
    "it": (
        "Quanto costa l'ingresso alla Reggia?",
        "Da che ora è aperta la Reggia?",
        "La Reggia è aperta il lunedì?",
    ),
    "pt": (
        "Quanto custa o bilhete do Palácio?",
        "A que horas abre o Palácio?",
        "O Palácio abre à segunda-feira?",
    ),
    "nl": (
        "Wat kost een kaartje voor het paleis?",
        "Hoe laat gaat het paleis open?",
        "Is het paleis op maandag open?",
    ),
    "ja": (
        "宮殿に入るにはいくらかかりますか？",
        "宮殿は何時に開きますか？",
        "宮殿は月曜日も開いていますか？",
    ),
    "zh": ("凡尔赛宫门票多少钱？", "凡尔赛宫几点开门？", "凡尔赛宫星期一开放吗？"),
}


@pytest.mark.parametrize("language", list(NEWCOMER))
def test_a_newcomers_questions_are_answered_by_the_visit_facts_in_the_first_lines(
    service: AgentService, language: str
) -> None:
    """The Palace ticket's price (not the audio guide's), its opening time, its Monday closing: in
    bold in the first lines, in the visitor's language, citing the facts' source."""
    from babel.dates import get_day_names

    price, opening, mondays = (
        _ask(service, q, f"newcomer-{language}-{n}") for n, q in enumerate(NEWCOMER[language])
    )
    first = [r.answer.splitlines()[0] for r in (price, opening)]
    monday = str(get_day_names("wide", locale=language)[0]).casefold()

    assert first[0].startswith("**") and "21" in first[0] and "13" in first[0], price.answer
    assert first[1].startswith("**") and "09:00" in first[1], opening.answer
    assert any(monday in line.casefold() for line in mondays.answer.splitlines()[:3]), mondays.answer
    assert all(r.reply.citations and r.language == language for r in (price, opening, mondays))


# Who enters free: an age question gets the bold eligibility line, and a follow-up changing only the
# visitor keeps the place and what was asked.


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


def test_a_visitor_saying_they_live_outside_the_eu_is_not_told_it_is_free(service: AgentService) -> None:
    result = _ask(
        service,
        "Nous habitons hors de l'Union européenne, j'ai 22 ans : combien coûte le château ?",
        "non-eu",
    )

    assert "gratuit" not in result.answer.split("\n")[0]


def test_a_stated_fact_streams_before_the_evidence_is_read(service: AgentService) -> None:
    events = list(service.stream("Quels sont les horaires du château ?", "opening-first"))
    tokens = [i for i, event in enumerate(events) if isinstance(event, AnswerToken)]
    final = events[-1]

    assert isinstance(final, FinalAnswer) and final.answer.startswith("**")
    assert tokens and tokens[0] < len(events) - 2  # words reach the page before the turn ends
    streamed = "".join(event.text for event in events if isinstance(event, AnswerToken))
    assert streamed.split() == final.answer.split()
