"""The conversation id in the page address: a reload shows the same conversation (AppTest)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, start_app


def _reload(thread_id: str) -> AppTest:
    """A new browser session opening the page address ``/?c=<thread_id>``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["c"] = thread_id
    return at.run()


def _questions(at: AppTest) -> list[str]:
    return [message.markdown[0].value for message in at.chat_message if message.name == "user"]


def test_a_reload_shows_the_conversation_and_the_last_answers_sources(indexed: Path) -> None:
    at = start_app()
    at.chat_input[0].set_value("When is the palace open?").run()
    at.chat_input[0].set_value("How much is a ticket?").run()
    thread_id = at.session_state.thread_id
    assert at.query_params["c"] == thread_id
    shown = [message.markdown[0].value for message in at.chat_message if message.name == "assistant"]

    again = _reload(thread_id)

    assert not again.exception, again.exception
    assert again.session_state.thread_id == thread_id
    assert _questions(again) == ["When is the palace open?", "How much is a ticket?"]
    restored = [message.markdown[0].value for message in again.chat_message if message.name == "assistant"]
    assert restored == shown
    # The newest answer's sources as first shown (older checkpoints may be pruned: text only).
    assert [e.label for e in again.expander][-2:] == [e.label for e in at.expander][-2:]


def test_new_conversation_gets_a_new_address(indexed: Path) -> None:
    at = start_app()
    at.chat_input[0].set_value("When is the palace open?").run()
    first = at.session_state.thread_id

    at.button(key="new-conversation").click().run()

    assert at.session_state.thread_id != first
    assert at.query_params["c"] == at.session_state.thread_id
    assert not _questions(at)


def test_an_unknown_or_malformed_id_starts_a_new_conversation_silently(indexed: Path) -> None:
    for address in ("web-" + "0" * 32, "../../etc/passwd", "web-" + "a" * 33, "default"):
        at = _reload(address)

        assert not at.exception, at.exception
        assert at.session_state.thread_id != address
        assert at.query_params["c"] == at.session_state.thread_id
        assert not _questions(at) and not at.error and not at.warning
