"""Reply language: detected from the message, inherited from the conversation when too short."""

from __future__ import annotations

import pytest

from agents.language import reply_language


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Quels sont les horaires d'ouverture du château en hiver ?", "fr"),
        ("When do the gardens close during the winter months?", "en"),
        ("¿Cuánto cuesta la entrada a los jardines?", "es"),
        ("Wie komme ich mit dem Zug nach Versailles?", "de"),
        ("Quanto costa il biglietto per il castello?", "it"),
        ("Qual é o horário de funcionamento do palácio?", "pt"),
        ("Hoe laat gaat het paleis open?", "nl"),
        ("ヴェルサイユ宮殿の開館時間は何時ですか", "ja"),
        ("凡尔赛宫几点开门", "zh"),
    ],
)
def test_a_full_question_is_detected(message: str, expected: str) -> None:
    assert reply_language(message) == expected


@pytest.mark.parametrize("message", ["merci", "wifi ?", "ok"])
def test_a_short_message_keeps_the_conversation_language(message: str) -> None:
    assert reply_language(message, conversation_language="de") == "de"


def test_a_long_message_in_another_language_switches_language() -> None:
    assert reply_language("And how much is a ticket for children?", conversation_language="fr") == "en"
