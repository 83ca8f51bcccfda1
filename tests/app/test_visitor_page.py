"""The visitor page (AppTest): only the conversation, in the visitor's language, sources as read."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from agents.answer.model import Answer
from agents.events import FinalAnswer
from agents.graph.thread_rules import FAILED_TURN_NOTE
from agents.service import MAX_QUESTION_CHARS, AgentService
from app_ui.labels import Labels
from app_ui.presenters import Turn
from rag.indexer import index_corpus
from tests.app.conftest import APP, start_app
from tests.conftest import HashingEmbedder, make_settings
from tests.local_server import free_port

PAGES = [
    {
        "url": "https://www.chateauversailles.fr/planifier/horaires",
        "title": "Opening hours",
        "text": "The palace opens at nine in the morning and closes at half past six in the evening. "
        "It is closed every Monday.",
    },
    {
        "url": "https://www.chateauversailles.fr/planifier/billets",
        "title": "Tickets and prices",
        "text": "The passport ticket costs thirty two euros. Visitors under eighteen enter for free.",
    },
]
GUIDE = """# 134- FAQ_Horaires

## 02 Jours de fermeture

The palace is closed every Monday and on the first of January.
"""
FILE_PATH = re.compile(r"\b[\w-]+/[\w./ -]+\.(?:md|jsonl|txt)\b")


@pytest.fixture
def web_indexed(app_env: Path, tmp_path: Path) -> Path:
    """``app_env`` with two web pages and a local guide with a numbered file name indexed."""
    corpus = tmp_path / "site"
    (corpus / "guides" / "7- FAQ").mkdir(parents=True)
    (corpus / "site.jsonl").write_text("\n".join(json.dumps(page) for page in PAGES), encoding="utf-8")
    (corpus / "guides" / "7- FAQ" / "134-FAQ_Horaires.md").write_text(GUIDE, encoding="utf-8")
    index_corpus([corpus], make_settings(app_env), embedder=HashingEmbedder())
    return app_env


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _assistant(at: AppTest, turn: int = -1) -> object:
    return [message for message in at.chat_message if message.name == "assistant"][turn]


def _page_text(at: AppTest) -> str:
    """Every string the page shows: markdown, captions, titles, labels, placeholders, errors."""
    parts = [
        element.value
        for kind in ("markdown", "caption", "title", "error", "info", "warning")
        for element in getattr(at, kind)
    ]
    parts += [button.label for button in at.button] + [e.label.replace("\\", "") for e in at.expander]
    parts += [box.placeholder for box in at.chat_input]
    return "\n".join(str(part) for part in parts)


def test_citations_are_renumbered_in_reading_order_and_each_source_listed_once(web_indexed: Path) -> None:
    at = _ask(start_app(), "When is the palace open and closed on Monday?")

    final = at.session_state.turns[0].final
    assistant = _assistant(at)
    answer = assistant.markdown[0].value
    shown = [int(n) for n in re.findall(r"\\\[(\d+)\\\]", answer)]
    assert shown and shown[0] == 1 and sorted(set(shown)) == list(range(1, max(shown) + 1))
    labels = [expander.label.replace("\\", "") for expander in assistant.expander]  # Markdown escapes
    assert len(labels) == len(set(labels)) == len({c.page for c in final.reply.citations})
    assert all(label.startswith(f"[{n}] ") for n, label in enumerate(labels, 1))
    assert any(label.endswith("] Opening hours · chateauversailles.fr") for label in labels)


def test_a_web_source_links_to_its_page_and_a_guide_shows_a_clean_title_without_its_path(
    web_indexed: Path,
) -> None:
    at = _ask(start_app(), "Is the palace closed on the first of January?")

    text = _page_text(at)
    assert "FAQ Horaires" in text and "134-" not in text and "FAQ_Horaires" not in text
    assert "Jours de fermeture" in text and "02 Jours" not in text
    assert not FILE_PATH.search(text), FILE_PATH.search(text)
    _ask(at, "What time does the palace open?")
    answer = _assistant(at).markdown[0].value
    assert "(<https://www.chateauversailles.fr/planifier/horaires>)" in answer
    [page] = [e for e in _assistant(at).expander if "] Opening hours · chateauversailles.fr" in e.label]
    assert page.label.startswith("\\[")  # the label is escaped: Streamlit renders it as Markdown
    opened = [md.value for md in page.markdown]
    assert any("Open the page on chateauversailles.fr" in value for value in opened), opened
    assert any("nine in the morning" in value for value in opened)


def test_the_visitor_sees_no_operator_detail(indexed: Path) -> None:
    at = _ask(start_app(), "What are the opening hours of the palace?")

    text = _page_text(at)
    for operator_word in (
        "MISTRAL_API_KEY",
        "steps in",
        "Trace inspector",
        "Conversation `",
        "Chunks",
        "web-",
    ):
        assert operator_word not in text
    assert not at.sidebar.markdown and not at.sidebar.button and not at.status
    assert "Offline mode" in text  # the visitor is told, in words for a visitor


def test_a_japanese_question_turns_every_label_japanese(indexed: Path) -> None:
    at = _ask(start_app(), "宮殿の開館時間を教えてください。")

    japanese = Labels("ja")
    text = _page_text(at)
    assert at.chat_input[0].placeholder == japanese["placeholder"]
    assert at.title[0].value == japanese["title"]
    assert japanese["new_conversation"] in text and japanese["offline_notice"] in text
    english = Labels("en")
    for key in ("placeholder", "title", "subtitle", "sources", "new_conversation", "offline_notice"):
        assert english[key] not in text


def test_the_browser_language_is_used_before_any_question(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import streamlit as st

    monkeypatch.setattr(type(st.context), "locale", property(lambda self: "de-DE"))

    at = start_app()

    assert at.title[0].value == "Schloss Versailles"
    assert at.button(key="example-0").label == Labels("de")["examples"][0]


def test_a_brazilian_browser_reads_brazilian_labels_and_keeps_portuguese_as_the_language(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import streamlit as st

    monkeypatch.setattr(type(st.context), "locale", property(lambda self: "pt-BR"))

    at = start_app()

    assert at.chat_input[0].placeholder == "Pergunte sobre sua visita" != Labels("pt")["placeholder"]
    assert at.button(key="example-2").label == "Como chego a Versalhes de trem saindo de Paris?"
    assert at.title[0].value == Labels("pt")["title"]  # the same word in both: from the [pt] table


def test_an_example_question_is_asked_when_clicked(indexed: Path) -> None:
    at = start_app()

    at.button(key="example-1").click().run()

    assert at.chat_message[0].markdown[0].value == "How much is a ticket for the Palace?"
    shown = "\n".join(md.value for md in _assistant(at).markdown)
    # the small test corpus gives no Palace price: declined, its closest passages listed as related
    assert "**Sources**" in shown or f"**{Labels('en')['related']}**" in shown


def test_an_empty_or_too_long_question_gets_a_sentence_in_the_visitors_language(indexed: Path) -> None:
    at = _ask(start_app(), "Quels sont les horaires d'ouverture du château ?")
    _ask(at, "   ")
    assert at.error[0].value == Labels("fr")["error_empty_question"]

    _ask(at, "x" * (MAX_QUESTION_CHARS + 1))
    assert at.error[-1].value == Labels("fr")["error_question_too_long"]


def test_a_provider_that_is_down_is_a_friendly_sentence_and_the_question_is_kept(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("AGENT_MAX_RETRIES", "0")

    at = _ask(start_app(), "What are the opening hours?")

    assert at.error[0].value == Labels("en")["error_provider"]
    assert "127.0.0.1" not in _page_text(at)
    config = {"configurable": {"thread_id": at.session_state.thread_id}}
    kept = AgentService().graph.get_state(config).values["messages"]  # the same checkpoint file
    assert [message.content for message in kept] == ["What are the opening hours?", FAILED_TURN_NOTE]


def test_a_missing_index_still_draws_the_page_and_says_so_gently(app_env: Path) -> None:
    at = start_app()

    assert at.title[0].value == Labels("en")["title"] and at.chat_input
    assert len([b for b in at.button if b.key and b.key.startswith("example-")]) == 3
    _ask(at, "What are the opening hours?")
    assert at.error[0].value == Labels("en")["error_knowledge_base"]
    assert "python -m rag" not in _page_text(at)


def test_two_browser_sessions_keep_separate_threads(indexed: Path) -> None:
    first, second = start_app(), start_app()
    _ask(first, "What are the opening hours of the palace?")
    _ask(second, "How much is the passport ticket?")

    assert first.session_state.thread_id != second.session_state.thread_id
    assert [turn.question for turn in first.session_state.turns] == [
        "What are the opening hours of the palace?"
    ]
    assert [turn.question for turn in second.session_state.turns] == ["How much is the passport ticket?"]


def test_new_conversation_starts_a_new_thread(indexed: Path) -> None:
    at = _ask(start_app(), "What are the opening hours of the palace?")
    thread = at.session_state.thread_id

    at.button(key="new-conversation").click().run()

    assert at.session_state.thread_id != thread
    assert not at.chat_message
    assert len([b for b in at.button if b.key and b.key.startswith("example-")]) == 3


def _answered_turn(question: str, follow_ups: list[str]) -> Turn:
    turn = Turn(question)
    reply = Answer(text="The palace opens at nine.")
    turn.final = FinalAnswer(reply=reply, language="en", follow_ups=follow_ups)
    return turn


def _follow_up_buttons(at: AppTest) -> list[Any]:
    return [button for button in at.button if button.key and button.key.startswith("follow-up-")]


def test_follow_up_questions_show_under_the_last_answer_only_and_a_click_asks_one(indexed: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["thread_id"] = "web-follow-ups"
    at.session_state["turns"] = [
        _answered_turn("When does the palace open?", ["Is the park open on Mondays?"]),
        _answered_turn(
            "When does Trianon open?", ["Who can visit the Palace for free?", "How much is a ticket?"]
        ),
    ]
    at.run()

    assert [button.label for button in _follow_up_buttons(at)] == [
        "Who can visit the Palace for free?",
        "How much is a ticket?",
    ]  # the last answer's only
    assert Labels("en")["follow_ups"] in "\n".join(md.value for md in _assistant(at).markdown)
    assert Labels("en")["follow_ups"] not in "\n".join(md.value for md in _assistant(at, 0).markdown)

    _follow_up_buttons(at)[0].click().run()

    questions = [message.markdown[0].value for message in at.chat_message if message.name == "user"]
    assert questions[-1] == "Who can visit the Palace for free?"  # asked through the same queue as typed
    assert len(at.session_state.turns) == 3 and at.session_state.turns[-1].final is not None
    assert _assistant(at).markdown[0].value
