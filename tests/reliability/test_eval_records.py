"""``python -m agents eval``: each record written as it is answered, bad lines skipped by number, a cap.

Before, the records were written only after the last question: one malformed line or one failure
lost every answer so far, and a file of any size was asked in full.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rag.retriever
from agents import cli
from agents.commands import eval as eval_command
from agents.evaluation.eval_questions import MAX_LINE_BYTES, QuestionFileError, read_questions
from agents.events import ErrorOccurred
from rag.indexer import index_corpus
from rag.store import KnowledgeBaseError
from tests.conftest import HashingEmbedder, make_settings


def _write(path: Path, lines: list[str | dict[str, Any]]) -> Path:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def index_dir(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of the small test corpus searched with the fake embedder, the offline model."""
    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.retriever, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))
    monkeypatch.setenv("AGENT_PROVIDER", "offline")
    settings = make_settings(tmp_path / "index")
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    index_corpus([corpus], settings, embedder=HashingEmbedder())
    return settings.index_dir


class ScriptedService:
    """A service whose ``ask`` answers with an error event, or raises at the question numbered ``fail_at``."""

    offline = False

    def __init__(self, fail_at: int | None = None) -> None:
        self.asked: list[str] = []
        self.fail_at = fail_at

    def ask(self, question: str, thread_id: str) -> ErrorOccurred:
        self.asked.append(question)
        if len(self.asked) == self.fail_at:
            raise KnowledgeBaseError("The index is damaged: rebuild it with python -m rag index --rebuild.")
        return ErrorOccurred(message="scripted")


def _scripted(monkeypatch: pytest.MonkeyPatch, service: ScriptedService) -> ScriptedService:
    monkeypatch.setattr(eval_command, "service_for", lambda args, errors, **options: service)
    return service


QUESTIONS = [{"id": f"q{n}", "question": f"Question {n}?", "lang": "en", "type": "fact"} for n in range(1, 5)]


def test_a_malformed_line_is_reported_by_number_and_the_others_are_answered(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines: list[str | dict[str, Any]] = [
        {"id": "h1", "question": "What are the opening hours?", "lang": "en", "type": "fact"},
        '{"id": "broken", "question": "unterminated',
        {"id": "h2", "question": "How much is a ticket?", "lang": "en", "type": "fact"},
    ]
    questions = _write(tmp_path / "questions.jsonl", lines)
    out = tmp_path / "records.jsonl"

    code = cli.main(["eval", "--questions", str(questions), "--index", str(index_dir), "--out", str(out)])

    captured = capsys.readouterr()
    assert code == 0
    assert "line 2 skipped" in captured.err
    assert [record["id"] for record in _records(out)] == ["h1", "h2"]
    assert all("answer" in record for record in _records(out))
    assert '"skipped_lines": 1' in captured.out


def test_a_failure_midway_keeps_every_record_written_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, ScriptedService(fail_at=3))
    questions = _write(tmp_path / "questions.jsonl", list(QUESTIONS))
    out = tmp_path / "records.jsonl"

    code = cli.main(["eval", "--questions", str(questions), "--out", str(out)])

    err = capsys.readouterr().err
    assert code == 2
    assert [record["id"] for record in _records(out)] == ["q1", "q2"]
    assert "Stopped after 2 of 4 questions" in err and "python -m rag index" in err


def test_without_out_the_records_go_to_a_default_file_named_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _scripted(monkeypatch, ScriptedService())
    questions = _write(tmp_path / "questions.jsonl", list(QUESTIONS))

    assert cli.main(["eval", "--questions", str(questions)]) == 0

    (written,) = (tmp_path / ".agent_state" / "eval").glob("questions-*.jsonl")
    assert len(_records(written)) == 4
    assert str(written.relative_to(tmp_path)) in capsys.readouterr().out


def test_more_questions_than_the_cap_are_refused_before_any_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    service = _scripted(monkeypatch, ScriptedService())
    questions = _write(tmp_path / "questions.jsonl", list(QUESTIONS))

    code = cli.main(["eval", "--questions", str(questions), "--max-questions", "3"])

    assert code == 2
    assert "more than 3 questions" in capsys.readouterr().err
    assert service.asked == []


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"[1, 2]", "not a JSON object"),
        (b'{"question": "no id"}', 'no "id"'),
        (b'{"id": true, "question": "a bool id"}', 'no "id"'),
        (b'{"id": "q", "question": "   "}', 'no "question"'),
        (b'{"id": "q", "question": "caf\xe9"}', "not UTF-8"),
        (b'{"id": "q", ', "not JSON"),
        (b'{"id": "q", "question": "' + b"x" * MAX_LINE_BYTES + b'"}', "longer than"),
    ],
)
def test_each_kind_of_bad_line_is_named(tmp_path: Path, line: bytes, reason: str) -> None:
    path = tmp_path / "questions.jsonl"
    path.write_bytes(
        b'{"id": "ok1", "question": "First?"}\n' + line + b'\n\n{"id": "ok2", "question": "Next?"}\n'
    )

    questions, skipped = read_questions(path, max_questions=10)

    assert [q["id"] for q in questions] == ["ok1", "ok2"]
    assert [(s.number, reason in s.reason) for s in skipped] == [(2, True)]


def test_the_cap_counts_questions_not_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / "questions.jsonl", ["not json", *QUESTIONS[:2]])

    assert len(read_questions(path, max_questions=2)[0]) == 2
    with pytest.raises(QuestionFileError):
        read_questions(path, max_questions=1)
