"""Suggested follow-up questions: from the topics an answer was about, in the visitor's language."""

from __future__ import annotations

import pytest

from agents.answer.compose import compose_answer
from agents.answer.follow_ups import answered_topics, load_topics, suggest_follow_ups
from agents.answer.model import Answer
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.passage import Passage

HOURS = "plan-your-visit/opening-hours.fr.md"
TRIANON = "estate/trianon.en.md"


def _answer(text: str, *sources: str, url: str = "") -> Answer:
    evidence = [
        Passage(chunk_id=f"c{n}", number=n, title="Guide", source=source, url=url, text="Passage.")
        for n, source in enumerate(sources, start=1)
    ]
    return compose_answer(text, evidence).answer


def test_every_topic_asks_its_question_in_every_reply_language_and_relates_to_known_topics() -> None:
    topics = load_topics()
    assert len(topics) >= 10
    for topic in topics.values():
        assert set(topic.question) == set(SUPPORTED_LANGUAGES), topic.id
        assert all(question.strip() for question in topic.question.values()), topic.id
        assert len(topic.related) >= 3 and set(topic.related) <= set(topics) - {topic.id}, topic.id


def test_an_answer_on_opening_hours_suggests_three_related_topics_in_the_visitors_language() -> None:
    topics = load_topics()

    suggested = suggest_follow_ups(_answer("Ouvert de 9 h à 18 h 30 [1].", HOURS), "fr")

    assert suggested == [topics[related].question["fr"] for related in topics["opening-hours"].related]
    assert topics["opening-hours"].question["fr"] not in suggested


def test_the_first_cited_topic_leads_and_no_answered_topic_is_suggested() -> None:
    topics = load_topics()
    reply = _answer(
        "Trianon opens at noon [1]; the Palace at nine [2].", TRIANON, "plan-your-visit/opening-hours.en.md"
    )

    suggested = suggest_follow_ups(reply, "en")

    assert answered_topics(reply, topics) == ["trianon", "opening-hours"]
    assert len(suggested) == 3 and suggested[0] == topics["gardens"].question["en"]
    assert not {topics["trianon"].question["en"], topics["opening-hours"].question["en"]} & set(suggested)


def test_a_crawled_page_is_recognised_by_its_address() -> None:
    reply = _answer(
        "Le billet coûte 32 € [1].", "https://www.chateauversailles.fr/preparer-ma-visite/billets-tarifs"
    )

    assert answered_topics(reply, load_topics()) == ["tickets"]


def test_directions_from_the_travel_tool_count_as_the_getting_there_topic() -> None:
    reply = Answer(text="Take the RER C to Versailles Château Rive Gauche.")

    suggested = suggest_follow_ups(reply, "de", tools=["get_travel_info"])

    assert suggested and suggested[0] == load_topics()["opening-hours"].question["de"]


@pytest.mark.parametrize(
    "reply",
    [
        Answer(text="La base de connaissances ne répond pas à cette question.", kind="not_found"),
        Answer(text="Bonjour ! Comment puis-je vous aider ?"),  # small talk: no topic
        Answer(text=""),
    ],
)
def test_no_suggestion_after_a_declined_answer_or_one_about_no_topic(reply: Answer) -> None:
    assert suggest_follow_ups(reply, "fr", tools=["get_weather"]) == []


def test_a_declined_answer_listing_related_pages_gets_no_suggestion() -> None:
    reply = _answer("Pas dans la base. Le plus proche : “…” [1].", HOURS)
    reply.related = [1]

    assert suggest_follow_ups(reply, "fr") == []
