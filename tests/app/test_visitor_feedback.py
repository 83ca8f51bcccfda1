"""Feedback on the visitor page (AppTest): helpful / not helpful under each answer, in the visitor's
language, and an optional short comment; each stored with the turn in the questions log."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agents.config import AgentSettings
from agents.insights.store import QuestionLog
from app_ui.feedback import COMMENT_CHARS
from app_ui.labels import Labels
from tests.app.conftest import APP, start_app


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _button(at: AppTest, label: str, turn: int = 0) -> object:
    return [button for button in at.button if button.label == label][turn]


def _logged() -> QuestionLog:
    return QuestionLog.for_settings(AgentSettings(_env_file=None))  # the app's AGENT_CHECKPOINT_PATH


def test_helpful_is_stored_with_the_turn_and_thanked(indexed: Path) -> None:
    at = _ask(start_app(), "What are the opening hours of the palace?")
    english = Labels("en")
    assert english["feedback_question"] in [caption.value for caption in at.caption]

    _button(at, english["helpful"]).click().run()

    [row] = _logged().questions()
    assert row.id == at.session_state.turns[0].final.turn_id
    assert row.feedback == "helpful" and row.comment is None
    assert english["feedback_thanks"] in [caption.value for caption in at.caption]
    assert not [button for button in at.button if button.label == english["helpful"]]


def test_not_helpful_asks_for_a_short_comment_in_the_visitors_language(indexed: Path) -> None:
    at = _ask(start_app(), "¿A qué hora abre el palacio?")
    spanish = Labels("es")

    _button(at, spanish["not_helpful"]).click().run()
    [box] = at.text_input
    assert box.label == spanish["feedback_comment"] and box.max_chars == COMMENT_CHARS
    box.input("Faltan los horarios de los jardines, escríbanme a ana@example.es").run()
    _button(at, spanish["feedback_send"]).click().run()

    [row] = _logged().questions()
    assert row.feedback == "not_helpful"
    assert row.comment == "Faltan los horarios de los jardines, escríbanme a [email]"
    assert spanish["feedback_thanks"] in [caption.value for caption in at.caption]


def test_each_answer_has_its_own_buttons(indexed: Path) -> None:
    at = _ask(start_app(), "What are the opening hours of the palace?")
    _ask(at, "How much is a ticket?")
    english = Labels("en")

    _button(at, english["not_helpful"], turn=1).click().run()

    first, second = _logged().questions()
    assert first.feedback is None and second.feedback == "not_helpful"


def test_a_reload_brings_back_the_feedback_buttons_and_the_verdicts_given(indexed: Path) -> None:
    """The restored turns keep their rows in the log: an answer already judged is thanked, the
    other still asks, and a verdict given after the reload is stored with the right turn."""
    english = Labels("en")
    at = _ask(_ask(start_app(), "What are the opening hours of the palace?"), "How much is a ticket?")
    _button(at, english["helpful"], turn=0).click().run()
    thread_id = at.session_state.thread_id

    again = AppTest.from_file(APP, default_timeout=60)
    again.query_params["c"] = thread_id
    again.run()

    assert not again.exception, again.exception
    assert [button.label for button in again.button].count(english["helpful"]) == 1
    assert english["feedback_thanks"] in [caption.value for caption in again.caption]
    _button(again, english["not_helpful"]).click().run()
    first, second = _logged().questions()
    assert (first.feedback, second.feedback) == ("helpful", "not_helpful")
    assert second.id == again.session_state.turns[1].final.turn_id
