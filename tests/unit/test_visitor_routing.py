"""The offline model asks the visit facts for the visitor a price or free-entry question describes,
in the nine languages, and leaves to the knowledge base what the eligibility rules cannot settle.

Read with the real multilingual-e5-small embedder, as tests/unit/test_calendar_routing.py does.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from agents.offline.reading.intent import IntentIndex, intent_index
from agents.offline.reading.read import read_conversation, read_turn
from agents.offline.router import calls_for
from agents.visit_calendar.check import corpus_texts
from agents.visit_calendar.eligibility import Visitor
from agents.visit_calendar.tool import CalendarService
from rag.config import PROJECT_ROOT

TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info", "get_visit_calendar"}
ASKED = {
    "fr": ("Mon neveu a quinze ans : doit-il payer l'entrée du château ?", {"age": 15}),
    "en": ("How much is the Palace for my daughter? She is 8.", {"age": 8}),
    "es": ("Somos tres estudiantes de 22 años de Francia, ¿cuánto cuesta el Palacio?",
           {"age": 22, "country": "FR", "student": True}),
    "de": ("Meine Tochter ist 16 Jahre alt, was kostet das Schloss?", {"age": 16}),
    "it": ("Mio padre è disabile: quanto costa la Reggia?", {"disabled": True}),
    "pt": ("Tenho 25 anos e moro na Grécia. Quanto custa o bilhete do palácio?",
           {"age": 25, "country": "GR"}),
    "nl": ("Mijn zoon is 13 jaar, is het paleis gratis voor hem?", {"age": 13}),
    "ja": ("息子は17歳です。宮殿に入るのにいくらかかりますか？", {"age": 17}),
    "zh": ("我女儿九岁，凡尔赛宫门票多少钱？", {"age": 9}),
}  # fmt: skip


@pytest.fixture(scope="module")
def index(local_embedder: Any) -> IntentIndex:
    return intent_index(local_embedder.embed_queries)


def calendar_calls(message: str, index: IntentIndex) -> list[dict[str, Any]]:
    calls = calls_for(read_turn(message, None, None, index), TOOLS)
    return [args for name, args in calls if name == "get_visit_calendar"]


@pytest.mark.parametrize("language", list(ASKED))
def test_the_visitor_described_is_passed_to_the_visit_facts(language: str, index: IntentIndex) -> None:
    message, visitor = ASKED[language]
    calls = calendar_calls(message, index)
    assert [(args["place"], args.get("visitor")) for args in calls] == [("palace", visitor)]


@pytest.mark.parametrize(
    "message",
    [
        "What is the minimum age for the virtual reality headset tour?",  # an age asked of something else
        "Can a 10-year-old ride the little train alone?",
        "How much is the virtual reality experience for a 12-year-old?",  # a price of another offer
        "Is the Trianon free for a large family of six?",  # a visitor the rules do not read
        "Mon fils a 12 ans, à quelle heure ouvre le château ?",  # an age, but the hours are asked
    ],
)
def test_a_question_naming_an_age_or_a_group_that_asks_something_else_gets_no_visitor(
    message: str, index: IntentIndex
) -> None:
    assert all("visitor" not in args for args in calendar_calls(message, index))


def test_a_visitor_whose_rate_turns_on_what_they_did_not_say_is_left_to_the_knowledge_base(
    index: IntentIndex,
) -> None:
    """A student at the Palace: free if under 26 and living in the EU, which they did not say; the
    facts settle nothing (an empty summary) and the knowledge base answers."""
    calls = calendar_calls("How much is the Palace ticket for a student?", index)
    assert [args.get("visitor") for args in calls] == [{"student": True}]
    service = CalendarService(
        source_texts=lambda: corpus_texts(PROJECT_ROOT / "data" / "corpus"),
        today=lambda: dt.date(2026, 11, 24),
    )
    result = service.get(None, "palace", "en", aspects=["price"], visitor=Visitor(student=True))
    assert result.summary == ""


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("How much is the Trianon ticket?", "And for a 20-year-old from Italy?"),
         ("trianon", ["price"], {"age": 20, "country": "IT"})),
        (("Wie viel kostet das Schloss?", "Und für meinen Sohn, 10 Jahre alt?"),
         ("palace", ["price"], {"age": 10})),
        (("宫殿门票多少钱？", "那我十岁的孩子呢？"), ("palace", ["price"], {"age": 10})),
        (("Combien coûte l'entrée du château pour mon fils de 12 ans ?", "Et au Trianon ?"),
         ("trianon", ["price"], {"age": 12})),
    ],
)  # fmt: skip
def test_a_follow_up_keeps_what_it_does_not_change_and_changes_what_it_names(
    turns: tuple[str, str], expected: tuple[str, list[str], dict[str, Any]], index: IntentIndex
) -> None:
    """A new visitor keeps the place and what was asked; a new place keeps the visitor."""
    calls = calls_for(read_conversation(turns, index), TOOLS)
    found = [
        (a["place"], a["aspects"], a.get("visitor")) for name, a in calls if name == "get_visit_calendar"
    ]
    assert found == [expected]


def test_a_visitor_added_to_an_hours_question_asks_no_rate(index: IntentIndex) -> None:
    calls = calls_for(
        read_conversation(("Is the Palace open on Monday?", "And for my 12-year-old son?"), index), TOOLS
    )
    assert [a.get("visitor") for name, a in calls if name == "get_visit_calendar"] == [None]
