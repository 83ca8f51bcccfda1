"""Retrieval evaluation: are the answer strings of each question in the returned passages?"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.passage import Passage

_SPACES = re.compile(r"\s+")
Search = Callable[[str, int], list[Passage]]


def normalise(text: str) -> str:
    """Lower-case, fold runs of white space (no-break spaces too), turn ’ into '."""
    return _SPACES.sub(" ", text.replace("\u2019", "'").replace("\u00a0", " ")).lower()


def found_aspects(aspects: Sequence[Sequence[str]], texts: Sequence[str]) -> list[bool]:
    """For each aspect, whether one of its alternative strings occurs in one of ``texts``."""
    haystacks = [normalise(text) for text in texts]
    return [
        any(normalise(answer) in haystack for answer in aspect for haystack in haystacks)
        for aspect in aspects
    ]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSON Lines file, blank lines ignored."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class QuestionResult:
    """Scores of one question."""

    id: str
    lang: str
    type: str
    all_found: bool
    recall: float
    reciprocal_rank: float
    chars: int
    queries: list[str] = field(default_factory=list)


def pool(results: list[list[Passage]]) -> list[Passage]:
    """Interleave several ranked lists by rank, keeping each chunk once."""
    pooled, seen = [], set()
    for rank in range(max((len(r) for r in results), default=0)):
        for hits in results:
            if rank < len(hits) and hits[rank].chunk_id not in seen:
                seen.add(hits[rank].chunk_id)
                pooled.append(hits[rank])
    return pooled


def score_question(question: dict[str, Any], queries: list[str], search: Search, k: int) -> QuestionResult:
    """Search every query, pool the top ``k`` of each and score the pool."""
    hits = pool([search(query, k) for query in queries])
    texts = [hit.text for hit in hits]
    found = found_aspects(question["answers"], texts)
    first = next(
        (rank for rank, text in enumerate(texts, 1) if any(found_aspects(question["answers"], [text]))),
        None,
    )
    return QuestionResult(
        id=question["id"],
        lang=question.get("lang", ""),
        type=question.get("type", ""),
        all_found=all(found),
        recall=sum(found) / len(found),
        reciprocal_rank=1.0 / first if first else 0.0,
        chars=sum(len(text) for text in texts),
        queries=queries,
    )


def evaluate(
    questions: list[dict[str, Any]],
    search: Search,
    k: int = 5,
    agent_queries: dict[str, list[str]] | None = None,
) -> list[QuestionResult]:
    """Score every question that has answer strings (and queries, when a query file is given)."""
    results = []
    for question in questions:
        if not question.get("answers"):
            continue
        if agent_queries is None:
            queries = [question["question"]]
        elif question["id"] in agent_queries:
            queries = agent_queries[question["id"]]
        else:
            continue
        results.append(score_question(question, queries, search, k))
    return results


def summarise(results: list[QuestionResult]) -> dict[str, dict[str, float]]:
    """Mean scores overall, by language group (fr, en, other), language and type."""
    groups: dict[str, list[QuestionResult]] = defaultdict(list)
    for result in results:
        groups["all"].append(result)
        group = result.lang if result.lang in {"fr", "en"} else "other"
        groups[f"lang:{group}"].append(result)
        if group == "other":
            groups[f"lang:{result.lang}"].append(result)
        groups[f"type:{result.type}"].append(result)
    return {
        name: {
            "n": len(members),
            "all_aspects_hit": sum(r.all_found for r in members) / len(members),
            "aspect_recall": sum(r.recall for r in members) / len(members),
            "mrr": sum(r.reciprocal_rank for r in members) / len(members),
            "mean_chars": sum(r.chars for r in members) / len(members),
        }
        for name, members in groups.items()
    }
