"""``python -m agents``: ask --json prints the documented object; errors exit 2 with a sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rag.retriever
from agents import cli
from rag.indexer import index_corpus
from tests.conftest import HashingEmbedder, make_settings


@pytest.fixture
def index_dir(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of the small test corpus, searched with the fake embedder (the CLI builds its own)."""
    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.retriever, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))
    monkeypatch.setenv("AGENT_PROVIDER", "offline")
    settings = make_settings(tmp_path / "index")
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    index_corpus([corpus], settings, embedder=HashingEmbedder())
    return settings.index_dir


def test_ask_json_prints_one_object_with_the_documented_fields(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["ask", "What are the opening hours?", "--index", str(index_dir), "--json"])

    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    expected = {"answer", "language", "tools", "citations", "sources", "abstained", "model_calls", "seconds"}
    assert expected <= set(payload)
    assert payload["offline_model"] is True
    assert payload["language"] == "en"
    assert "search_knowledge_base" in payload["tools"]  # with the visit facts, asked first
    assert isinstance(payload["trace"], list) and payload["trace"]


def test_ask_says_when_the_offline_model_is_in_use(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["ask", "Bonjour !", "--index", str(index_dir)]) == 0

    assert "offline model" in capsys.readouterr().err


def test_an_empty_question_exits_2_with_a_sentence(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["ask", "   ", "--index", str(index_dir)]) == 2

    assert "empty" in capsys.readouterr().err


def test_a_missing_index_exits_2_and_says_how_to_build_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["ask", "Opening hours?", "--index", str(tmp_path / "nowhere")]) == 2

    assert "python -m rag index" in capsys.readouterr().err


def test_an_unreachable_checkpoint_database_exits_2_in_one_sentence_without_the_password(
    index_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.local_server import free_port

    monkeypatch.setenv(
        "AGENT_CHECKPOINT_URL", f"postgresql://museum:pw-s3cret-42@127.0.0.1:{free_port()}/threads"
    )
    monkeypatch.setenv("AGENT_CHECKPOINT_TIMEOUT_SECONDS", "2")

    assert cli.main(["ask", "Opening hours?", "--index", str(index_dir)]) == 2

    err = capsys.readouterr().err
    assert "PostgreSQL at 127.0.0.1:" in err and "AGENT_CHECKPOINT_URL" in err
    assert "pw-s3cret-42" not in err and "Traceback" not in err
