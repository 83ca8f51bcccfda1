"""The operator console (AppTest): closed without its password, then settings, live steps, the
trace inspector, and indexing that never removes without confirmation."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_ui.support import CONSOLE_CLOSED, console_access
from rag.indexer import index_corpus
from tests.app.conftest import open_console
from tests.conftest import HashingEmbedder, make_settings
from tests.local_server import free_port

PAGES = [
    {
        "url": "https://www.chateauversailles.fr/planifier/horaires",
        "title": "Opening hours",
        "text": "The palace opens at nine in the morning and closes at half past six in the evening.",
    },
    {
        "url": "https://www.chateauversailles.fr/planifier/billets",
        "title": "Tickets and prices",
        "text": "The passport ticket costs thirty two euros. Visitors under eighteen enter for free.",
    },
]


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _chunks(at: AppTest) -> int:
    return int(at.sidebar.metric[1].value)


LOCAL = {"Host": "localhost:8501", "Origin": "http://localhost:8501"}


def test_access_rules_password_else_local_only_when_the_operator_opted_in() -> None:
    assert console_access("s3cret", "0.0.0.0", "203.0.113.9") == "password"
    assert console_access(None, "127.0.0.1", None, LOCAL, local_console=True) == "open"
    assert console_access(None, "127.0.0.1", None, LOCAL) == "closed"  # no opt-in: closed
    assert console_access(None, "", None, LOCAL, local_console=True) == "closed"  # every interface
    assert console_access(None, "0.0.0.0", None, LOCAL, local_console=True) == "closed"
    assert console_access(None, "127.0.0.1", "203.0.113.9", LOCAL, local_console=True) == "closed"


@pytest.mark.parametrize(
    "headers",
    [
        {**LOCAL, "X-Client-IP": "203.0.113.5"},
        {**LOCAL, "True-Client-IP": "203.0.113.5"},
        {**LOCAL, "CF-Connecting-IP": "203.0.113.5"},
        {**LOCAL, "X-Forwarded-Host": "visit.example.org"},
        {**LOCAL, "Via": "1.1 proxy"},
        {**LOCAL, "Fastly-Client-IP": "203.0.113.5"},
        {"Host": "visit.example.org", "Origin": "https://visit.example.org"},  # nginx: Host $host
        {"Host": "127.0.0.1:8501", "Origin": "https://visit.example.org"},  # nginx's default Host
        {"Host": "localhost:8501"},  # no Origin: not a browser's websocket
        {"Origin": "http://localhost:8501"},
        {"Host": "localhost.evil.example", "Origin": "http://localhost:8501"},
    ],
)
def test_no_header_a_proxy_adds_or_leaves_out_opens_a_console_without_password(
    headers: dict[str, str],
) -> None:
    assert console_access(None, "127.0.0.1", None, headers, local_console=True) == "closed"


def test_without_the_opt_in_a_forged_local_request_through_a_proxy_stays_closed() -> None:
    """A local proxy connects from loopback with the Host it was given; a script writes any Origin:
    only the operator's setting, which no request can carry, opens the console."""
    assert console_access(None, "127.0.0.1", None, LOCAL) == "closed"


def test_with_no_password_on_a_public_address_the_console_is_closed(
    indexed: Path, server_address: Callable[[str], None]
) -> None:
    server_address("0.0.0.0")

    at = open_console()

    assert at.error[0].value == CONSOLE_CLOSED
    assert not at.sidebar.metric and not at.chat_input and not at.text_area


def test_the_console_asks_for_its_password_and_refuses_a_wrong_one(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    monkeypatch.setenv("APP_OPERATOR_PASSWORD", "correct horse")
    at = open_console()
    assert not at.sidebar.metric and not at.chat_input  # not even for a local user

    at.text_input[0].set_value("wrong")
    at.button(key="login").click().run()
    assert "Wrong password" in at.error[0].value and not at.sidebar.metric

    at.text_input[0].set_value("correct horse")
    at.button(key="login").click().run()
    assert not at.exception, at.exception
    assert at.sidebar.metric and at.chat_input
    assert "correct horse" not in json.dumps([m.value for m in at.markdown])


def test_the_live_status_lists_nodes_tool_calls_results_and_each_rounds_verdicts(
    indexed: Path, local_console: None
) -> None:
    at = _ask(open_console(), "What are the opening hours of the palace?")

    status = at.status[0]
    lines = [markdown.value for markdown in status.markdown]
    assert status.label.startswith(f"{len(lines)} steps in")
    assert any("search_knowledge_base(query=" in line for line in lines)
    assert any("→ ok: " in line and " passages" in line and " ms" in line for line in lines)
    assert any("**Gap analysis, round 1**: missing " in line for line in lines)
    assert any("**Critique, round 1**: " in line for line in lines)


def test_the_trace_inspector_numbers_passages_as_cited_and_names_every_payload(
    indexed: Path, local_console: None
) -> None:
    at = _ask(open_console(), "How much is the passport ticket?")

    assert [tab.label for tab in at.tabs] == ["Timeline", "Retrieval", "Payloads", "Graph"]
    timeline, retrieval = at.dataframe[0].value, at.dataframe[1].value
    assert {"tool_call", "tool_result", "gap_analysis", "critique", "model_call", "final_answer"} <= set(
        timeline["event"]
    )
    assert {"passage", "cited as", "bm25", "dense", "rrf", "rerank", "source"} <= set(retrieval.columns)
    assert "score" not in retrieval.columns  # the rerank column is the final score
    final = at.session_state.turns[0].final
    cited = retrieval[retrieval["cited as"] != ""]
    assert len(cited) >= 1 and cited["cited as"].iloc[0] == "[1]"
    assert int(cited["passage"].iloc[0].lstrip("#")) == final.citations[0]
    assert retrieval["source"].str.endswith(".md").all()  # full source names, never clipped
    figures = at.tabs[0].markdown[0].value
    assert "**Visitor's wait**" in figures and "**Agent time**" in figures
    payloads = json.loads(at.json[0].value)
    names = list(payloads)
    assert names[0].startswith("01 · ") and any(" · tool_result · search_knowledge_base" in n for n in names)
    assert any(" · node_finished · gap_analysis" in n for n in names)
    assert "graph TD" in at.code[0].value


def test_the_console_shows_where_each_source_is_indexed(indexed: Path, local_console: None) -> None:
    at = _ask(open_console(), "How much is the passport ticket?")

    opened = "\n".join(md.value for expander in at.chat_message[1].expander[:-1] for md in expander.markdown)
    assert "plan-your-visit/tickets.en.md" in opened and "passages #" in opened


def test_the_offline_model_is_announced_with_how_to_configure_a_provider(
    indexed: Path, local_console: None
) -> None:
    at = open_console()

    assert "MISTRAL_API_KEY" in at.info[0].value and "OPENAI_BASE_URL" in at.info[0].value
    assert any("Offline model" in markdown.value for markdown in at.sidebar.markdown)


def test_no_offline_notice_when_a_provider_is_configured(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")

    at = open_console()

    assert not at.info
    assert "**Provider** openai" in at.sidebar.markdown[0].value


def test_a_provider_that_is_down_is_its_sentence_for_the_operator(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("AGENT_MAX_RETRIES", "0")

    at = _ask(open_console(), "What are the opening hours?")

    assert "could not be reached" in at.error[0].value
    assert at.status[0].label == "The assistant could not answer"


def test_a_missing_index_says_how_to_build_it_and_the_sidebar_builds_it(
    app_env: Path, local_console: None
) -> None:
    at = open_console()
    assert "python -m rag index" in at.warning[0].value

    pages = "\n".join(json.dumps(page) for page in PAGES).encode()
    at.sidebar.file_uploader[0].upload("site.jsonl", pages, "application/json")
    at.sidebar.text_area[0].set_value("")
    at.button(key="index").click().run()

    assert not at.exception, at.exception
    assert at.sidebar.success[0].value.startswith("Indexed 2 documents")
    assert not at.warning
    _ask(at, "What time does the palace open?")
    assert "nine in the morning" in at.session_state.turns[-1].final.answer


def test_indexing_a_folder_outside_the_allowed_roots_is_refused(
    indexed: Path, tmp_path: Path, local_console: None
) -> None:
    private = tmp_path / "private"
    private.mkdir()
    (private / "config.md").write_text("# Config\n\nDATABASE_PASSWORD=hunter2\n", encoding="utf-8")
    at = open_console()
    chunks_before = _chunks(at)

    at.sidebar.text_area[0].set_value(str(private))
    at.button(key="index").click().run()

    assert not at.exception, at.exception
    assert "outside the folders the app may index" in at.sidebar.error[0].value
    assert _chunks(at) == chunks_before


def test_indexing_adds_only_and_removal_says_how_many_chunks_then_asks(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    corpus = tmp_path / "allowed"
    for name in ("a", "b"):
        (corpus / name).mkdir(parents=True)
        (corpus / name / f"{name}.md").write_text(
            f"# {name}\n\nThe {name} wing opens at nine.\n", encoding="utf-8"
        )
    monkeypatch.setenv("RAG_APP_INDEX_ROOTS", json.dumps([str(corpus)]))
    index_corpus([corpus], make_settings(app_env), embedder=HashingEmbedder())
    at = open_console()
    everything = _chunks(at)

    at.sidebar.text_area[0].set_value(str(corpus / "a"))
    at.button(key="index").click().run()
    assert "kept from documents not listed" in at.sidebar.success[0].value
    assert _chunks(at) == everything  # listing only "a" removed nothing

    at.sidebar.text_area(key="keep-folders").set_value(str(corpus / "a"))
    at.button(key="prune-preview").click().run()
    assert "This removes 1 chunks" in at.sidebar.warning[0].value
    assert _chunks(at) == everything  # counting removes nothing either

    at.button(key="prune-confirm").click().run()
    assert not at.exception, at.exception
    assert _chunks(at) == everything - 1


def test_uploads_are_listed_and_removed_with_their_chunks(indexed: Path, local_console: None) -> None:
    at = open_console()
    pages = "\n".join(json.dumps(page) for page in PAGES).encode()
    at.sidebar.file_uploader[0].upload("site.jsonl", pages, "application/json")
    at.sidebar.text_area[0].set_value("")
    at.button(key="index").click().run()
    assert "site.jsonl" in " ".join(md.value for md in at.sidebar.markdown)
    chunks_with_upload = _chunks(at)

    at.button(key="remove-upload-0").click().run()

    assert not at.exception, at.exception
    assert at.sidebar.success[0].value.startswith("Removed site.jsonl and its 2 chunks")
    assert _chunks(at) == chunks_with_upload - 2
    assert "site.jsonl" not in " ".join(md.value for md in at.sidebar.markdown)


def test_the_console_shows_when_each_crawled_page_was_fetched_and_the_last_run(
    app_env: Path, local_console: None, no_network_leaks: None
) -> None:
    from rag import cli
    from tests.local_site import LocalSite, serve_generated_site

    with LocalSite() as site:
        serve_generated_site(site, 4, per_sitemap=2)
        assert (
            cli.main(["crawl", site.url("/collection/"), "--index", str(app_env), "--rate", "50", "--quiet"])
            == 0
        )
        del site.routes["/collection/item-1.html"]
        for _ in range(2):  # gone twice: removed
            assert (
                cli.main(
                    ["crawl", site.url("/collection/"), "--index", str(app_env), "--rate", "50", "--quiet"]
                )
                == 0
            )

    at = open_console()

    [crawl] = [e for e in at.sidebar.expander if e.label.startswith("Website crawl")]
    pages = crawl.dataframe[0].value
    assert crawl.label == f"Website crawl ({len(pages)} pages)"
    assert "**Last run**" in crawl.markdown[0].value and "removed" in crawl.markdown[0].value
    items = pages[pages["page"].str.contains("/item-")]
    assert list(items["page"]) == [site.url(f"/collection/item-{n}.html") for n in range(4)]
    assert list(items["live"]) == [True, False, True, True]
    assert items["last fetched"].notna().all()


def test_an_unreachable_checkpoint_database_is_one_sentence_without_the_password(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    password = "pw-s3cret-app"
    monkeypatch.setenv("AGENT_CHECKPOINT_URL", f"postgresql://museum:{password}@127.0.0.1:{free_port()}/db")
    monkeypatch.setenv("AGENT_CHECKPOINT_TIMEOUT_SECONDS", "2")

    at = _ask(open_console(), "What are the opening hours?")

    shown = [element.value for element in [*at.error, *at.warning]]
    assert any("PostgreSQL at 127.0.0.1:" in text and "AGENT_CHECKPOINT_URL" in text for text in shown), shown
    assert not any(password in text for text in shown)


def test_a_request_through_a_proxy_never_opens_a_console_without_password(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    import streamlit as st

    for extra in ({"X-Forwarded-For": "203.0.113.5"}, {"Forwarded": "for=203.0.113.5"}, {"X-Real-IP": "x"}):
        header = {**LOCAL, **extra}
        monkeypatch.setattr(type(st.context), "headers", property(lambda self, h=header: h))

        at = open_console()

        assert at.error[0].value == CONSOLE_CLOSED, header
        assert not at.sidebar.metric and not at.chat_input


def test_the_closed_console_names_no_setting() -> None:
    assert "APP_OPERATOR_PASSWORD" not in CONSOLE_CLOSED and "secrets" not in CONSOLE_CLOSED


def test_wrong_passwords_are_slowed_down_and_the_page_says_when_to_retry(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    import types

    import app_ui.login_guard

    monkeypatch.setattr(app_ui.login_guard, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    monkeypatch.setenv("APP_OPERATOR_PASSWORD", "correct horse")
    at = open_console()
    for _ in range(3):
        at.text_input[0].set_value("wrong")
        at.button(key="login").click().run()
        assert "Wrong password" in at.error[0].value

    at.text_input[0].set_value("correct horse")  # even the right one waits: guesses tell nothing
    at.button(key="login").click().run()

    assert "try again in 2 s" in at.error[0].value
    assert not at.sidebar.metric
    other = open_console()  # a new browser session from the same address waits too
    other.text_input[0].set_value("correct horse")
    other.button(key="login").click().run()
    assert "try again in" in other.error[0].value


def test_without_the_opt_in_even_a_local_browser_finds_the_console_closed(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, local_console: None
) -> None:
    monkeypatch.delenv("APP_LOCAL_CONSOLE")

    at = open_console()

    assert at.error[0].value == CONSOLE_CLOSED
    assert not at.sidebar.metric and not at.chat_input
