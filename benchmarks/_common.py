"""Shared helpers for the benchmark scripts: paths to the real corpus and evaluation files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "data" / "versailles"
QUESTIONS = SHARED / "eval" / "questions.jsonl"
AGENT_QUERIES = SHARED / "eval" / "agent_queries.jsonl"
RESULTS = ROOT / "benchmarks" / "results"
BENCH_INDEX = ROOT / ".rag_index" / "bench"


def save_result(name: str, payload: dict[str, Any]) -> Path:
    """Write a benchmark's figures as JSON under benchmarks/results/ (git-ignored)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    return path
