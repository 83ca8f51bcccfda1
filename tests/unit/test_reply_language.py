"""Reply language: detected from the message, inherited from the conversation when too short."""

from __future__ import annotations

import pytest

from agents.answer.language import reply_language


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Quels sont les horaires d'ouverture du château en hiver ?", "fr"),
        ("When do the gardens close during the winter months?", "en"),
        ("¿Cuánto cuesta la entrada a los jardines?", "es"),
        ("Wie komme ich mit dem Zug nach Versailles?", "de"),
        ("Quanto costa il biglietto per il castello?", "it"),
        ("A que horas fecha o palácio hoje?", "pt"),
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


def test_the_language_model_is_read_once_per_kind_however_it_is_asked() -> None:
    """py3langid's model takes about a second to read: every turn asking both kinds of detection (and
    documents asking the default one) must reuse the two models, never read one again."""
    from rag.language import _identifier, detect_language, identify

    def detect_both_kinds() -> None:
        identify("Quels sont les horaires ?", True)
        identify("어떻게 가나요?", False)
        detect_language("Le château est ouvert tous les jours sauf le lundi.")

    detect_both_kinds()  # both models read once (other tests may have read them already)
    read_before = _identifier.cache_info().misses
    for _ in range(3):
        detect_both_kinds()

    assert _identifier.cache_info().misses == read_before
