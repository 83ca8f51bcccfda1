"""The development sets stay out of the product and its tests: no file of the code, its data, its
prompts or its tests quotes a development question whole, nor the shared set's expected answers.

Our own sets are ``data/eval/*.jsonl``; the shared development set is read from
``../shared/eval/questions.jsonl`` beside the checkout when it is there. Text is compared as the
eval README normalises it (lower case, white space folded, ``’`` as ``'``), so a copy with other
spacing or capitals is still found.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OWN_SETS = sorted((ROOT / "data" / "eval").glob("*.jsonl"))
SHARED_SET = ROOT.parent / "shared" / "eval" / "questions.jsonl"
PRODUCT = ["agents", "rag", "app_ui", "app_pages", "prompts", "data", "streamlit_app.py", "Makefile"]
READ_BY_THE_SETS = {ROOT / "data" / "eval", ROOT / "data" / "corpus"}  # the sets and their sources
# The insights' reference paraphrases calibrate the grouping threshold (and centre its vectors): a
# change of wording is a re-calibration (benchmarks.insights_threshold), not an edit of text.
CALIBRATION = {ROOT / "data" / "insights" / "question_paraphrases.json"}
SUFFIXES = {".py", ".md", ".toml", ".json", ".jsonl", ".txt", ".yaml", ".csv", ""}
MIN_QUESTION_CHARS = 20  # shorter turns ("Thanks!", "And on Monday?") are everyday words
MIN_UNSPACED_QUESTION_CHARS = 10  # a Japanese or Chinese question says as much in fewer characters
UNSPACED = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
MIN_ANSWER_CHARS = 10  # shorter answers ("9:00", "21 €") are values any example may hold


def normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2019", "'")).strip().lower()


def _records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def development_questions() -> dict[str, str]:
    """Each development question, normalised and without its end mark, and where it comes from."""
    found = {}
    for path in [*OWN_SETS, *([SHARED_SET] if SHARED_SET.is_file() else [])]:
        for record in _records(path):
            turns = [
                turn for turn in record.get("turns", []) if turn.get("kind") != "small_talk"
            ]  # "Thanks!"
            texts = [record.get("question"), *(turn.get("text") for turn in turns)]
            for text in filter(None, texts):
                question = normalised(text).rstrip(" ?？!！.。")
                least = MIN_UNSPACED_QUESTION_CHARS if UNSPACED.search(question) else MIN_QUESTION_CHARS
                if len(question) >= least:
                    found[question] = f"{path.name}:{record['id']}"
    return found


def shared_answers() -> dict[str, str]:
    """The shared set's expected answer strings long enough to be a quote, not a bare value."""
    if not SHARED_SET.is_file():
        return {}
    return {
        normalised(answer): f"{SHARED_SET.name}:{record['id']}"
        for record in _records(SHARED_SET)
        for aspect in record.get("answers") or []
        for answer in aspect
        if len(answer) >= MIN_ANSWER_CHARS
    }


def _files(names: list[str]) -> list[Path]:
    paths = []
    for name in names:
        path = ROOT / name
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        paths += [
            candidate
            for candidate in candidates
            if candidate.is_file()
            and candidate.suffix in SUFFIXES
            and not any(candidate.is_relative_to(skipped) for skipped in READ_BY_THE_SETS)
            and candidate not in CALIBRATION
            and "__pycache__" not in candidate.parts
        ]
    return paths


def quotes(paths: list[Path], texts: dict[str, str]) -> list[str]:
    found = []
    for path in paths:
        content = normalised(path.read_text(encoding="utf-8", errors="ignore"))
        found += [f"{path.name} quotes {origin}" for text, origin in texts.items() if text in content]
    return found


def test_the_development_sets_are_read() -> None:
    assert len(development_questions()) >= 100


def test_no_product_file_quotes_a_development_question() -> None:
    assert quotes(_files(PRODUCT), development_questions()) == []


def test_no_test_quotes_a_development_question() -> None:
    tests = [path for path in _files(["tests"]) if path != Path(__file__).resolve()]
    assert quotes(tests, development_questions()) == []


@pytest.mark.skipif(not SHARED_SET.is_file(), reason="the shared development set is not beside this checkout")
def test_no_product_file_or_test_quotes_a_shared_answer() -> None:
    assert quotes(_files([*PRODUCT, "tests"]), shared_answers()) == []


def test_a_copy_with_other_spacing_and_capitals_is_found(tmp_path: Path) -> None:
    copy, other = tmp_path / "copy.py", tmp_path / "other.py"
    copy.write_text('"""For example "WHEN does  the\n Chapel  open’s bell ring?"."""', encoding="utf-8")
    other.write_text('"""For example "when does the chapel close?"."""', encoding="utf-8")
    texts = {normalised("When does the Chapel open's bell ring"): "set:Q1"}
    assert quotes([copy, other], texts) == ["copy.py quotes set:Q1"]
