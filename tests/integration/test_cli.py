"""``python -m rag``: index, search (one question or a batch on stdin), stats, eval, errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rag.indexer
import rag.retriever
from rag import cli
from rag.config import RagSettings
from rag.store import ChunkStore, open_client
from tests.conftest import REPO_ROOT, HashingEmbedder


@pytest.fixture(autouse=True)
def _fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI builds its embedder from settings: build the fake one instead."""
    monkeypatch.setattr(rag.indexer, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.indexer, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setattr(rag.retriever, "embedder_name", lambda settings: "fake/hashing-64")


@pytest.fixture
def index_dir(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    index = tmp_path / "cli_index"
    assert cli.main(["index", str(corpus), "--index", str(index), "--quiet"]) == 0
    capsys.readouterr()
    return index


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_index_reports_what_it_did(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["index", str(corpus), "--index", str(tmp_path / "idx"), "--quiet"])

    out = _one_line(capsys.readouterr().out)
    assert code == 0
    assert "Indexed 4 documents" in out
    assert "0 removed" in out


def test_a_malformed_front_matter_is_one_warning_naming_the_file_and_the_guide_is_indexed(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = corpus / "plan-your-visit" / "tickets.en.md"
    guide.write_text("---\nurl: a: b\n---\n" + guide.read_text(encoding="utf-8"), encoding="utf-8")

    code = cli.main(["index", str(corpus), "--index", str(tmp_path / "idx"), "--quiet"])

    captured = capsys.readouterr()
    err = _one_line(captured.err).replace(" ", "")  # rich wraps long lines at any character
    assert code == 0 and "Indexed 4 documents" in _one_line(captured.out)
    assert err.count("frontmatterisnotvalidYAML") == 1
    assert "warning" in err and "tickets.en.md:frontmatter" in err
    assert "Traceback" not in captured.err


def test_a_mistyped_path_exits_2_in_one_sentence_and_keeps_the_index(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["index", str(tmp_path / "does/not/exist"), "--index", str(index_dir), "--prune", "--quiet"]
    )

    err = _one_line(capsys.readouterr().err)
    assert code == 2 and "does not exist: nothing was indexed or removed" in err
    assert "Traceback" not in err
    assert cli.main(["search", "passport", "--index", str(index_dir)]) == 0


def test_documents_not_listed_are_kept_and_the_way_to_prune_is_named(
    corpus: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (corpus / "plan-your-visit" / "tickets.en.md").unlink()

    code = cli.main(["index", str(corpus), "--index", str(index_dir), "--quiet"])

    out = _one_line(capsys.readouterr().out)
    assert code == 0 and "0 removed" in out
    assert "chunks of documents not listed in this run (add --prune to remove them)" in out


def test_index_shows_progress_on_stderr(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["index", str(corpus), "--index", str(tmp_path / "idx")])

    captured = capsys.readouterr()
    assert code == 0
    assert "4 documents" in captured.err
    assert "to embed" in captured.err
    assert "Indexed 4 documents" in _one_line(captured.out)


def test_index_into_a_named_collection(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = str(tmp_path / "idx")

    code = cli.main(["index", str(corpus), "--index", index, "--collection", "guides_kb", "--quiet"])

    assert code == 0
    assert cli.main(["search", "train", "--index", index, "--collection", "guides_kb", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["hits"]


def test_search_json_output_shape(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["search", "RER C train station", "--index", str(index_dir), "-k", "2", "--json"])

    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["query"] == "RER C train station"
    assert len(result["hits"]) == 2
    first = result["hits"][0]
    assert {
        "chunk_id",
        "text",
        "title",
        "headings",
        "source",
        "sources",
        "category",
        "language",
        "score",
    } <= set(first)
    assert first["source"] == "getting-there/transport.en.md"
    assert isinstance(first["score"], float)


def test_search_filters_from_the_command_line(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["search", "palace", "--index", str(index_dir), "--category", "getting-there", "--json"])

    hits = json.loads(capsys.readouterr().out)["hits"]
    assert hits
    assert {hit["category"] for hit in hits} == {"getting-there"}


def test_batch_search_from_stdin_writes_one_json_object_per_line(
    index_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("RER C train\n\n   \npassport ticket price\n"))

    code = cli.main(["search", "--index", str(index_dir), "-k", "3"])

    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    results = [json.loads(line) for line in lines]
    assert [result["query"] for result in results] == ["RER C train", "passport ticket price"]
    for result in results:
        assert set(result) == {"query", "hits"}
        assert 0 < len(result["hits"]) <= 3
        for hit in result["hits"]:
            assert {"text", "source", "title", "score"} <= set(hit)
    assert results[1]["hits"][0]["source"] == "plan-your-visit/tickets.en.md"


def test_plain_search_prints_ranked_passages(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["search", "RER C train station", "--index", str(index_dir), "-k", "1"])

    out = capsys.readouterr().out
    assert code == 0
    assert "[1]" in out
    assert "getting-there/transport.en.md" in out
    assert "RER C" in out


def test_stats_shows_how_the_collection_was_built(
    index_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # rich would otherwise wrap the table at 80 columns

    code = cli.main(["stats", "--index", str(index_dir)])

    [row] = [line for line in capsys.readouterr().out.splitlines() if "knowledge_base" in line]
    cells = [cell.strip() for cell in row.strip("│┃ ").split("│")]
    assert code == 0
    assert cells[0] == "knowledge_base"
    assert int(cells[1]) > 0
    assert cells[2:] == ["4", "fake/hashing-64", "64", "en,fr", "yes"]


def test_eval_prints_a_json_summary(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"id": "q1", "lang": "en", "type": "fact", "question": "RER C train station", "answers": [["RER C"]]},
        {
            "id": "q2",
            "lang": "en",
            "type": "fact",
            "question": "passport ticket",
            "answers": [["no such words"]],
        },
    ]
    questions.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    out_file = tmp_path / "results.jsonl"

    code = cli.main(
        ["eval", "--questions", str(questions), "--index", str(index_dir), "--json", "--out", str(out_file)]
    )

    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["all"]["n"] == 2
    assert summary["all"]["all_aspects_hit"] == 0.5
    assert len(out_file.read_text(encoding="utf-8").splitlines()) == 2


def test_search_without_an_index_exits_2_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["search", "hours", "--index", str(tmp_path / "none")])

    err = _one_line(capsys.readouterr().err)
    assert code == 2
    assert "error:" in err
    assert "python -m rag index" in err


def test_empty_query_exits_2(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["search", "  ", "--index", str(index_dir)])

    assert code == 2
    assert "query is empty" in _one_line(capsys.readouterr().err)


def test_module_entry_point_exits_2_without_an_index(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAG_")}
    env["PYTHONPATH"] = str(REPO_ROOT)

    done = subprocess.run(
        [sys.executable, "-m", "rag", "search", "hours", "--index", str(tmp_path / "none")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 2
    assert "python -m rag index" in _one_line(done.stderr)
    assert "Traceback" not in done.stderr


def test_a_negative_k_is_refused(index_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["search", "passport", "-k", "-5", "--index", str(index_dir)])

    assert exit_.value.code == 2
    assert "must be a whole number from 1 to 50, not '-5'" in capsys.readouterr().err


def test_an_invalid_setting_exits_2_naming_the_variable(
    index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RAG_CHUNK_SIZE", "5")

    code = cli.main(["stats", "--index", str(index_dir)])

    err = _one_line(capsys.readouterr().err)
    assert code == 2 and "RAG_CHUNK_SIZE='5' is invalid" in err and "Traceback" not in err


def test_searching_an_incomplete_index_warns_and_still_answers(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = RagSettings(_env_file=None, index_dir=index_dir)
    ChunkStore.open(open_client(settings), settings.collection).update_info(complete=False)

    code = cli.main(["search", "passport", "--index", str(index_dir)])

    captured = capsys.readouterr()
    assert code == 0 and captured.out
    assert "is incomplete (an indexing run was interrupted)" in _one_line(captured.err)


def test_index_progress_is_plain_lines_when_stderr_is_not_a_terminal(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["index", str(corpus), "--index", str(tmp_path / "idx")])

    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert code == 0 and "\x1b" not in "".join(lines)  # no bar, no cursor moves: a log reads as is
    assert captured.out.startswith("Indexed 4 documents") and captured.out.count("\n") == 1  # one line
    assert lines[0].startswith("4 documents, ") and "to embed, 0 already indexed" in lines[0]
    to_embed = int(lines[0].split("; ")[1].split()[0])
    assert lines[-1].startswith(f"embedded {to_embed} of {to_embed} in ")
