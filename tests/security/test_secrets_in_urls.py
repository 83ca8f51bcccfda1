"""Credentials in configured URLs never shown: not by the redactor, the CLI, the logs or the checkpoints.

The URLs are those a careless operator writes: an unclosed ``[`` in the host, a bad percent-escape
in the password, a key in the query string. Provider failures go through the real openai client
against the local fake server.
"""

from __future__ import annotations

import logging
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

import rag.retriever
from agents import cli
from agents.config import AgentSettings
from agents.conversations.checkpoints import CheckpointStoreError, open_checkpoints
from agents.events import ErrorOccurred
from agents.service import AgentService
from rag.indexer import index_corpus
from rag.redact import HIDDEN, redact_text, redact_url, url_secrets
from tests.conftest import HashingEmbedder, make_settings
from tests.fake_chat_server import FakeChatServer, error

SECRET = "pw-s3cret-42"
KEY = "key-s3cret-77"

# (URL, what must not appear, what must still appear)
SHAPES = [
    (f"postgresql://bob:{SECRET}@[::1/db", [SECRET], ["postgresql://", "[::1/db"]),
    (f"postgresql://bob:{SECRET}@[::1]:5432/db", [SECRET], ["[::1]:5432/db"]),
    (f"postgresql://bob@127.0.0.1:5432/db?password={SECRET}%zz", [SECRET], ["127.0.0.1:5432/db"]),
    (f"postgresql://bob:{SECRET}%zz@127.0.0.1/db", [SECRET], ["127.0.0.1/db"]),
    (f"postgresql://bob:{SECRET}%@127.0.0.1/db", [SECRET], ["127.0.0.1/db"]),
    (f"postgresql://bob:pa/{SECRET}@db.example/threads", [SECRET], ["db.example/threads"]),
    (f"http://{KEY}@llm.example/v1", [KEY], ["llm.example/v1"]),
    (f"http://user:{SECRET}@127.0.0.1:8000/v1?api-key={KEY}", [SECRET, KEY], ["127.0.0.1:8000/v1"]),
    (f"https://llm.example/v1?API_KEY={KEY}&model=m", [KEY], ["model=m"]),
    (f"https://llm.example/v1?x=1;Signature={KEY}", [KEY], ["x=1"]),
    (f"https://llm.example/v1?sig={KEY}&pwd={SECRET}", [KEY, SECRET], ["llm.example"]),
    (f"https://llm.example/v1?access_token={KEY}&Authorization={SECRET}", [KEY, SECRET], []),
    (f"https://llm.example/v1?%70assword={SECRET}", [SECRET], []),
    (f"https://llm.example/cb#access_token={KEY}", [KEY], ["llm.example/cb"]),
    (f"https://llm.example/v1?secret={KEY}&pass={SECRET}&token=x-abc", [KEY, SECRET, "x-abc"], []),
    (f"postgresql://bob:{SECRET}", [SECRET], []),  # cut short: no @ left
    ("http://[", [], ["http://["]),
    (f"http://[{SECRET}@", [SECRET], []),
    (f"http://%zz:{SECRET}@%%%/?%zz=1", [SECRET], ["%%%"]),
]


@pytest.mark.parametrize(("url", "hidden", "shown"), SHAPES)
def test_a_url_loses_its_credentials_and_keeps_where_it_points(
    url: str, hidden: list[str], shown: list[str]
) -> None:
    redacted = redact_url(url)

    for secret in hidden:
        assert secret not in redacted
    for part in shown:
        assert part in redacted


@pytest.mark.parametrize(
    "url", ["http://[", f"postgresql://bob:{SECRET}@[::1/db", "http://[::1/x", "https://[v1.fe/]x"]
)
def test_shapes_that_make_urllib_raise_are_redacted_all_the_same(url: str) -> None:
    with pytest.raises(ValueError):
        urllib.parse.urlsplit(url)

    assert SECRET not in redact_url(url)


@pytest.mark.parametrize(
    "value", ["", "not a url", f"bob:{SECRET}@db", None, 42, b"http://a:b@c", "\x00\x1b[31m", "://"]
)
def test_what_is_not_a_url_becomes_a_placeholder(value: object) -> None:
    assert redact_url(value) == HIDDEN


def test_a_value_that_cannot_even_be_read_becomes_a_placeholder() -> None:
    class Unprintable:
        def __str__(self) -> str:
            raise RuntimeError(SECRET)

    assert redact_url(Unprintable()) == HIDDEN
    assert redact_text(Unprintable()) == HIDDEN
    assert url_secrets(Unprintable()) == set()


def test_a_url_quoted_in_a_message_and_its_password_quoted_alone_are_both_masked() -> None:
    url = f"postgresql://bob@127.0.0.1/db?password={SECRET}%zz"
    message = f'invalid percent-encoded token: "{SECRET}%zz" in "{url}"'

    shown = redact_text(message, [url])

    assert SECRET not in shown
    assert shown.startswith("invalid percent-encoded token:")


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bob:{SECRET}@[::1/db",
        f"postgresql://bob@127.0.0.1:1/db?password={SECRET}%zz",
        f"postgresql://bob:{SECRET}%zz@127.0.0.1:1/db",
    ],
)
def test_a_mistyped_checkpoint_url_is_one_sentence_without_the_password(url: str) -> None:
    settings = AgentSettings(_env_file=None, checkpoint_url=url, checkpoint_timeout_seconds=1)

    with pytest.raises(CheckpointStoreError) as raised:
        open_checkpoints(settings)

    assert SECRET not in str(raised.value)
    assert "AGENT_CHECKPOINT_URL" in str(raised.value)


@pytest.fixture
def index_dir(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of the small test corpus searched with the fake embedder; checkpoints in tmp."""
    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.retriever, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))
    settings = make_settings(tmp_path / "index")
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    index_corpus([corpus], settings, embedder=HashingEmbedder())
    return settings.index_dir


def test_the_cli_says_a_mistyped_checkpoint_url_in_one_line_without_the_password(
    index_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_PROVIDER", "offline")
    monkeypatch.setenv("AGENT_CHECKPOINT_URL", f"postgresql://bob:{SECRET}@[::1/threads")

    code = cli.main(["ask", "Opening hours?", "--index", str(index_dir)])

    captured = capsys.readouterr()
    assert code == 2
    assert SECRET not in captured.out + captured.err
    assert "Traceback" not in captured.err
    assert "AGENT_CHECKPOINT_URL" in captured.err


@pytest.fixture
def chat_server(no_network_leaks: None) -> Iterator[FakeChatServer]:
    fake = FakeChatServer().start()
    yield fake
    fake.stop()


@pytest.fixture(params=["user info", "query"])
def failing_provider(
    request: pytest.FixtureRequest,
    index_dir: Path,
    chat_server: FakeChatServer,
    monkeypatch: pytest.MonkeyPatch,
) -> FakeChatServer:
    """An OpenAI-compatible server failing every call, reached through a URL with a password in its
    user info (the call reaches the server: 503, retried) or a key in its query string (the client
    appends its path after the query: 404, not retried)."""
    chat_server.reply(error(503, "overloaded"))
    base_url = chat_server.base_url.replace("http://", f"http://visitor-bot:{SECRET}@")
    if request.param == "query":
        base_url = f"{chat_server.base_url}?api-key={KEY}"
    monkeypatch.setenv("AGENT_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.setenv("AGENT_MAX_RETRIES", "1")
    monkeypatch.setenv("AGENT_RETRY_INITIAL_WAIT_SECONDS", "0.01")
    monkeypatch.setenv("AGENT_RETRY_MAX_WAIT_SECONDS", "0.02")
    return chat_server


def test_credentials_in_the_provider_url_reach_no_sentence_log_or_checkpoint(
    failing_provider: FakeChatServer,
    index_dir: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)  # every record, the HTTP clients' own included
    service = AgentService(rag_settings=make_settings(index_dir))

    result = service.ask("What are the opening hours?", "thread-1")
    service.close()

    assert isinstance(result, ErrorOccurred)
    assert "127.0.0.1" in result.message  # the server is named, its credentials are not
    logged = "\n".join(f"{record.getMessage()} {record.exc_text or ''}" for record in caplog.records)
    assert "HTTP Request: POST" in logged
    if failing_provider.requests:  # reached: the retry was logged
        assert "503" in result.message and "retry 1 of 1" in logged
    stored = (tmp_path / "threads.sqlite").read_bytes()
    with sqlite3.connect(tmp_path / "threads.sqlite") as connection:  # the writes table, decoded
        writes = " ".join(repr(row) for row in connection.execute("SELECT * FROM writes"))
    # The failed turn wrote its error there; closing the turn (a later checkpoint) may prune it.
    for secret in (SECRET, KEY):
        assert secret not in result.message
        assert secret not in logged
        assert secret.encode() not in stored
        assert secret not in writes


def test_the_cli_prints_a_provider_failure_without_the_urls_credentials(
    failing_provider: FakeChatServer, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["ask", "What are the opening hours?", "--index", str(index_dir)])

    captured = capsys.readouterr()
    assert code == 2
    assert "127.0.0.1" in captured.err
    for secret in (SECRET, KEY):
        assert secret not in captured.out + captured.err
