"""A wrong setting or a mistyped conversation store on the pages: one sentence, no traceback, no secret.

The visitor reads one sentence in their language and nothing of the configuration; the operator
console names the variable to fix, still without the password.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_ui.labels import Labels
from tests.app.conftest import open_console, start_app

SECRET = "pw-s3cret-42"
# (variable, value, what the page must never show, what the console names)
BROKEN = [
    ("AGENT_CHECKPOINT_URL", f"postgresql://bob:{SECRET}@[::1/threads", SECRET, "AGENT_CHECKPOINT_URL"),
    (
        "AGENT_CHECKPOINT_URL",
        f"postgresql://bob@127.0.0.1:1/t?password={SECRET}%zz",
        SECRET,
        "AGENT_CHECKPOINT_URL",
    ),
    ("RAG_APP_INDEX_ROOTS", "[/srv/private-corpus", "/srv/private-corpus", "RAG_APP_INDEX_ROOTS"),
    ("RAG_COLLECTION", "a", "Traceback", "RAG_COLLECTION"),
    ("RAG_CHUNK_OVERLAP", "5000", "Traceback", "RAG_CHUNK_OVERLAP"),
    ("AGENT_REQUEST_TIMEOUT_SECONDS", "1e400", "Traceback", "AGENT_REQUEST_TIMEOUT_SECONDS"),
]


def _page_text(at: AppTest) -> str:
    kinds = ("markdown", "caption", "title", "error", "info", "warning", "exception")
    return " ".join(str(element.value) for kind in kinds for element in getattr(at, kind))


@pytest.mark.parametrize(("variable", "value", "never", "named"), BROKEN)
def test_the_visitor_gets_one_sentence_in_their_language_and_nothing_of_the_setting(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, never: str, named: str
) -> None:
    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("AGENT_CHECKPOINT_TIMEOUT_SECONDS", "1")

    at = start_app()
    at.chat_input[0].set_value("Quels sont les horaires d'ouverture ?").run()

    assert not at.exception, at.exception
    assert [error.value for error in at.error] == [Labels("fr")["error_knowledge_base"]]
    text = _page_text(at)
    assert never not in text and named not in text


@pytest.mark.parametrize(("variable", "value", "never", "named"), BROKEN)
def test_the_console_names_the_variable_without_the_secret(
    indexed: Path,
    local_console: None,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    never: str,
    named: str,
) -> None:
    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("AGENT_CHECKPOINT_TIMEOUT_SECONDS", "1")

    at = open_console()

    assert not at.exception, at.exception
    warnings = " ".join(str(warning.value) for warning in at.warning)
    assert named in warnings
    assert SECRET not in _page_text(at)


def test_an_unexpected_failure_while_starting_is_a_sentence_too(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app_ui.support

    def broken() -> Callable[[], None]:
        raise RuntimeError(f"could not open postgresql://bob:{SECRET}@db/threads")

    monkeypatch.setattr(app_ui.support, "build_service", broken)

    at = start_app()
    at.chat_input[0].set_value("What are the opening hours?").run()

    assert not at.exception, at.exception
    assert [error.value for error in at.error] == [Labels("en")["error_knowledge_base"]]
    assert SECRET not in _page_text(at)
