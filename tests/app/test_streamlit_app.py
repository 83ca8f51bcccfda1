"""The Streamlit app (AppTest): chat, live steps, trace inspector, errors, offline badge, sessions."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents.service import MAX_QUESTION_CHARS, AgentService
from rag.indexer import index_corpus
from tests.app.conftest import start_app
from tests.conftest import HashingEmbedder, make_settings

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


@pytest.fixture
def web_indexed(app_env: Path, tmp_path: Path) -> Path:
    """``app_env`` with two web pages indexed, so citations link to their URLs."""
    pages = tmp_path / "pages" / "site.jsonl"
    pages.parent.mkdir()
    pages.write_text("\n".join(json.dumps(page) for page in PAGES), encoding="utf-8")
    index_corpus([pages.parent], make_settings(app_env), embedder=HashingEmbedder())
    return app_env


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _assistant_text(at: AppTest, turn: int = -1) -> str:
    assistant = [message for message in at.chat_message if message.name == "assistant"][turn]
    return "\n".join(markdown.value for markdown in assistant.markdown)


def test_a_question_gets_a_cited_answer_linked_to_its_sources(web_indexed: Path) -> None:
    at = _ask(start_app(), "What time does the palace open?")

    text = _assistant_text(at)
    assert "nine in the morning" in text
    assert "[\\[1\\]](<https://www.chateauversailles.fr/planifier/horaires>)" in text
    assert (
        "**Sources**" in text
        and "[Opening hours](<https://www.chateauversailles.fr/planifier/horaires>)" in text
    )
    assert [expander.label for expander in at.expander] == ["Cited passages (1)", "Trace inspector"]
    assert at.session_state.turns[0].final.evidence[0]["url"].startswith("https://")


def test_the_live_status_lists_nodes_tool_calls_results_and_each_rounds_verdicts(indexed: Path) -> None:
    at = _ask(start_app(), "What are the opening hours of the palace?")

    status = at.status[0]
    lines = [markdown.value for markdown in status.markdown]
    assert status.label.startswith(f"{len(lines)} steps in")
    assert any("search_knowledge_base(query=" in line for line in lines)
    assert any("→ ok: " in line and " passages" in line and " ms" in line for line in lines)
    assert any("**Gap analysis, round 1**: missing " in line for line in lines)
    assert any("**Critique, round 1**: " in line for line in lines)
    assert any("**Writing the answer** `synthesize` · " in line for line in lines)


def test_the_trace_inspector_shows_every_event_scores_per_stage_and_the_graph(indexed: Path) -> None:
    at = _ask(start_app(), "How much is the passport ticket?")

    assert [tab.label for tab in at.tabs] == ["Timeline", "Retrieval", "Payloads", "Graph"]
    timeline, retrieval = at.dataframe[0].value, at.dataframe[1].value
    assert {"tool_call", "tool_result", "gap_analysis", "critique", "model_call", "final_answer"} <= set(
        timeline["event"]
    )
    assert {"bm25", "dense", "rrf", "score"} <= set(retrieval.columns)
    figures = at.tabs[0].markdown[0].value
    assert "**Model calls** 3" in figures and "**Tokens** not reported" in figures
    payloads = at.json[0].value
    assert '"hits"' in payloads and '"scores"' in payloads
    assert "graph TD" in at.code[0].value and "gap_analysis" in at.code[0].value


def test_the_offline_model_is_announced_with_how_to_configure_a_provider(indexed: Path) -> None:
    at = start_app()

    assert "MISTRAL_API_KEY" in at.info[0].value and "OPENAI_BASE_URL" in at.info[0].value
    assert any("Offline model" in markdown.value for markdown in at.sidebar.markdown)


def test_no_offline_notice_when_a_provider_is_configured(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")

    at = start_app()

    assert not at.info
    assert "**Provider** openai" in at.sidebar.markdown[0].value


def test_an_empty_question_gets_a_sentence_and_the_conversation_goes_on(indexed: Path) -> None:
    at = _ask(start_app(), "   ")

    assert "The question is empty" in at.error[0].value
    _ask(at, "What are the opening hours of the palace?")
    assert "nine in the morning" in _assistant_text(at)
    assert len(at.session_state.turns) == 2


def test_a_question_over_the_length_limit_is_refused_with_the_limit(indexed: Path) -> None:
    at = _ask(start_app(), "x" * (MAX_QUESTION_CHARS + 1))

    assert f"at most {MAX_QUESTION_CHARS}" in at.error[0].value
    assert at.status[0].label == "The assistant could not answer"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_provider_that_is_down_is_a_friendly_message_and_the_question_is_kept(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{_closed_port()}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("AGENT_MAX_RETRIES", "0")

    at = _ask(start_app(), "What are the opening hours?")

    assert "could not be reached" in at.error[0].value
    assert "Your conversation is kept" in at.chat_message[1].caption[0].value
    config = {"configurable": {"thread_id": at.session_state.thread_id}}
    kept = AgentService().graph.get_state(config).values["messages"]  # the same checkpoint file
    assert [message.content for message in kept] == ["What are the opening hours?"]


def test_a_missing_index_says_how_to_build_it_and_the_sidebar_builds_it(
    app_env: Path, tmp_path: Path
) -> None:
    at = start_app()
    assert "python -m rag index" in at.warning[0].value
    _ask(at, "What are the opening hours?")
    assert "python -m rag index" in at.error[0].value

    pages = "\n".join(json.dumps(page) for page in PAGES).encode()
    at.sidebar.file_uploader[0].upload("site.jsonl", pages, "application/json")
    at.sidebar.text_area[0].set_value("")
    at.button(key="index").click().run()

    assert not at.exception, at.exception
    assert at.sidebar.success[0].value.startswith("Indexed 2 documents")
    assert not at.warning
    _ask(at, "What time does the palace open?")
    assert "nine in the morning" in _assistant_text(at)


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
    assert len([b for b in at.button if b.key and b.key.startswith("example-")]) >= 5


def test_an_example_question_is_asked_when_clicked(indexed: Path) -> None:
    at = start_app()

    at.button(key="example-1").click().run()

    assert at.chat_message[0].markdown[0].value == "How much is a ticket for the Palace?"
    assert "**Sources**" in _assistant_text(at)


def test_an_unreachable_checkpoint_database_is_one_sentence_without_the_password(
    indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    password = "pw-s3cret-app"
    monkeypatch.setenv(
        "AGENT_CHECKPOINT_URL", f"postgresql://museum:{password}@127.0.0.1:{_closed_port()}/db"
    )
    monkeypatch.setenv("AGENT_CHECKPOINT_TIMEOUT_SECONDS", "2")

    at = _ask(start_app(), "What are the opening hours?")

    shown = [element.value for element in [*at.error, *at.warning]]
    assert any("PostgreSQL at 127.0.0.1:" in text and "AGENT_CHECKPOINT_URL" in text for text in shown), shown
    assert not any(password in text for text in shown)
