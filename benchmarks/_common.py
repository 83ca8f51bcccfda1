"""Shared helpers for the benchmark scripts: paths to the real corpus and evaluation files."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.service import AgentService

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "data" / "versailles"
QUESTIONS = SHARED / "eval" / "questions.jsonl"
AGENT_QUERIES = SHARED / "eval" / "agent_queries.jsonl"
RESULTS = ROOT / "benchmarks" / "results"
BENCH_INDEX = ROOT / ".rag_index" / "bench"
EVAL_SETS = ROOT / "data" / "eval"


def offline_service(index: Path, folder: Path) -> AgentService:
    """The real service over ``index``, keeping its conversations in ``folder``.

    The configured provider answers (the offline model when no API key is set); the weather and
    travel tools stay offline (climate normals, distance estimates) unless TOOLS_OFFLINE says
    otherwise, so that figures do not depend on the network.
    """
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    from agents.config import AgentSettings
    from agents.service import AgentService
    from rag.config import RagSettings

    settings = AgentSettings(checkpoint_path=folder / "eval.sqlite")
    return AgentService(settings=settings, rag_settings=RagSettings(index_dir=index))


def save_result(name: str, payload: dict[str, Any]) -> Path:
    """Write a benchmark's figures as JSON under benchmarks/results/ (git-ignored)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def half_of(question_id: str) -> str:
    """The fixed half a development question belongs to: "tune" (adjust settings) or "check".

    A hash of the id, so the split does not depend on file order and never moves. A change is kept
    only if the "check" half, which was not looked at while tuning, does not get worse.
    """
    digest = hashlib.sha256(question_id.encode("utf-8")).hexdigest()
    return "tune" if int(digest, 16) % 2 == 0 else "check"


def split_halves(questions: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The questions of each half, plus all of them."""
    halves: dict[str, list[dict[str, Any]]] = {"tune": [], "check": [], "all": list(questions)}
    for question in questions:
        halves[half_of(question["id"])].append(question)
    return halves


HIT_GROUPS = ("all", "lang:fr", "lang:en", "lang:other")


def evaluate_halves(
    search: Callable[[str, int], list[Any]], k: int = 5
) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """Raw questions and pooled agent queries, summarised for each half and for all questions.

    Returns ``{mode: {half: summary}}`` with mode raw/pooled and half tune/check/all.
    """
    from rag.evaluate import evaluate, read_jsonl, summarise

    questions = read_jsonl(QUESTIONS)
    queries = {row["id"]: row["queries"] for row in read_jsonl(AGENT_QUERIES)}
    payload: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for mode, pooled in (("raw", None), ("pooled", queries)):
        results = evaluate(questions, search, k, pooled)
        for half, members in split_halves(questions).items():
            ids = {q["id"] for q in members}
            payload.setdefault(mode, {})[half] = summarise([r for r in results if r.id in ids])
    return payload


def hit_cell(summary: dict[str, dict[str, float]]) -> str:
    """'all/fr/en/other' all-aspects hit of one summary."""
    return "/".join(f"{summary[g]['all_aspects_hit']:.2f}" if g in summary else "-" for g in HIT_GROUPS)
