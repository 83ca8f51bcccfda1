"""``python -m agents insights``: the JSON report (groups, gaps ranked with their closest pages and
missing parts), the CSV export, and one sentence when the database cannot be read."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import pytest

import rag.embeddings
from agents.cli import main
from agents.config import AgentSettings
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog
from tests.conftest import HashingEmbedder, make_settings

HOURS = "When does the palace open?"
PRICE = "How much is the ticket?"
BOATS = "Can we rent a boat?"


@pytest.fixture
def log(tmp_path: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> QuestionLog:
    """A log with three needs (identical wordings: the fake embedder groups only those), the test index."""
    monkeypatch.setattr(rag.embeddings, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "state" / "threads.sqlite"))
    settings = make_settings(index_dir)
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    monkeypatch.setenv("RAG_INDEX_DIR", str(index_dir))
    log = QuestionLog.for_settings(AgentSettings(_env_file=None))
    now = time.time()
    turns = [LoggedQuestion(question=HOURS, language="en", kind="answered") for _ in range(5)]
    turns += [
        LoggedQuestion(question=PRICE, language="fr", kind="partial", missing=["price for children"])
    ] * 2
    turns += [LoggedQuestion(question=BOATS, language="es", kind="not_found", missing=["boat rental"])] * 3
    turns += [LoggedQuestion(question='=HYPERLINK("http://evil")', language="en", kind="answered")]
    turns += [
        LoggedQuestion(question="old", language="en", kind="not_found", asked_at=now - 10 * DAY_SECONDS)
    ]
    turns = [LoggedQuestion(**{**vars(turn), "id": f"t{n}"}) for n, turn in enumerate(turns)]
    turns[0].feedback = "not_helpful"
    log.record_many(turns)
    return log


def test_the_json_report_ranks_the_gaps_with_their_pages_and_missing_parts(
    log: QuestionLog, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["insights", "--days", "7", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["questions"] == 11 and report["by_language"] == {"en": 6, "es": 3, "fr": 2}
    assert sum(report["by_day"].values()) == 11
    hours = next(group for group in report["groups"] if group["label"] == HOURS)
    assert hours["size"] == 5 and hours["answered"] == 1.0 and hours["not_helpful"] == 0.2
    assert hours["examples"] == {"en": [HOURS]} and hours["languages"] == {"en": 5}
    assert [gap["label"] for gap in report["gaps"]] == [BOATS, PRICE, HOURS]
    boats = report["gaps"][0]
    assert boats["not_found"] == 1.0 and boats["missing"] == ["boat rental"]
    assert boats["pages"] and all({"title", "url"} <= set(page) for page in boats["pages"])


def test_the_csv_export_writes_questions_and_groups_safe_for_a_spreadsheet(
    log: QuestionLog, tmp_path: Path
) -> None:
    assert main(["insights", "--days", "7", "--csv", str(tmp_path / "out")]) == 0

    with (tmp_path / "out" / "questions.csv").open(encoding="utf-8") as handle:
        questions = list(csv.DictReader(handle))
    with (tmp_path / "out" / "groups.csv").open(encoding="utf-8") as handle:
        groups = list(csv.DictReader(handle))
    assert len(questions) == 11 and all(row["group"] for row in questions)
    assert {row["question"] for row in questions} >= {HOURS, PRICE, BOATS}
    assert '\'=HYPERLINK("http://evil")' in {row["question"] for row in questions}  # not a formula
    assert sum(int(row["size"]) for row in groups) == 11


def test_an_unreadable_database_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(rag.embeddings, "build_embedder", lambda settings: HashingEmbedder())
    (tmp_path / "folder.sqlite").mkdir()
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "folder.sqlite"))
    monkeypatch.setenv("RAG_INDEX_DIR", str(tmp_path / "no-index"))

    assert main(["insights", "--json"]) == 2
    err = capsys.readouterr().err
    assert "questions log" in err and "AGENT_CHECKPOINT_PATH" in err and "Traceback" not in err


def test_csv_onto_an_existing_file_is_one_sentence(
    log: QuestionLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.csv"
    target.write_text("kept", encoding="utf-8")

    assert main(["insights", "--days", "7", "--csv", str(target)]) == 2

    err = " ".join(capsys.readouterr().err.split())
    assert "is a file, not a folder" in err and "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "kept"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_csv_onto_a_full_disk_is_one_sentence_and_leaves_no_half_file(
    log: QuestionLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "questions.csv").symlink_to("/dev/full")  # every write: "No space left on device"

    assert main(["insights", "--days", "7", "--csv", str(out)]) == 2

    err = " ".join(capsys.readouterr().err.split())
    assert "No space left on device" in err and "free some space" in err and "Traceback" not in err
    assert not (out / "questions.csv").exists()
