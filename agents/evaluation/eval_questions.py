"""The question file of ``python -m agents eval``: read by numbered line, a bad line reported and
skipped, the number of questions capped before any is asked."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.errors import AgentError

DEFAULT_MAX_QUESTIONS = 1000
MAX_LINE_BYTES = 64_000  # a question is at most 4,000 characters; its expected answers fit easily


class QuestionFileError(AgentError, ValueError):
    """The question file cannot be used as a whole; ``str(error)`` says what to do."""


@dataclass(frozen=True)
class SkippedLine:
    """A line that holds no question, by its number (from 1) and why."""

    number: int
    reason: str


def _question(raw: bytes) -> dict[str, Any]:
    """One line's record, or ValueError saying what is wrong with it."""
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    if not isinstance(record.get("id"), str | int) or isinstance(record.get("id"), bool):
        raise ValueError('no "id" (a string or a number)')
    if not isinstance(record.get("question"), str) or not record["question"].strip():
        raise ValueError('no "question" text')
    return record


def read_questions(path: Path, max_questions: int) -> tuple[list[dict[str, Any]], list[SkippedLine]]:
    """The questions of a JSON Lines file and the lines skipped; blank lines are ignored.

    Raises :class:`QuestionFileError` past ``max_questions`` (nothing has been asked yet), and
    ``FileNotFoundError`` for a missing file.
    """
    questions: list[dict[str, Any]] = []
    skipped: list[SkippedLine] = []
    with path.open("rb") as handle:
        number = 0
        while raw := handle.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while (rest := handle.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                    pass  # the rest of an over-long line, read in bounded pieces and dropped
                skipped.append(SkippedLine(number, f"longer than {MAX_LINE_BYTES:,} bytes"))
                continue
            if not raw.strip():
                continue
            try:
                questions.append(_question(raw))
            except ValueError as error:
                skipped.append(SkippedLine(number, str(error)))
                continue
            if len(questions) > max_questions:
                raise QuestionFileError(
                    f"{path} holds more than {max_questions} questions: split it, or raise the cap "
                    "with --max-questions."
                )
    return questions, skipped
