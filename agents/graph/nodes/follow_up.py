"""Run the gap analysis' follow-up queries, minus near-duplicates of queries already run."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.graph.deps import AgentDeps, Embed
from agents.graph.state import AgentState
from agents.graph.trace import FollowUpStep, elapsed_ms


def new_queries(proposed: Sequence[str], done: Sequence[str], embed: Embed, threshold: float) -> list[str]:
    """Proposed queries whose cosine similarity to every query run (and kept) is below ``threshold``."""
    candidates = [" ".join(q.split()) for q in proposed if q and q.strip()]
    if not candidates:
        return []
    kept: list[str] = []
    known = [q for q in done if q.strip()]
    vectors = embed([*known, *candidates])
    vectors = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
    kept_rows = list(range(len(known)))
    for offset, query in enumerate(candidates):
        row = len(known) + offset
        if kept_rows and float(np.max(vectors[kept_rows] @ vectors[row])) >= threshold:
            continue
        kept.append(query)
        kept_rows.append(row)
    return kept


def make_follow_up(deps: AgentDeps) -> Any:
    """Node factory: search each new follow-up query and add its passages to the evidence."""

    def follow_up(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        done = state.get("queries", [])
        fresh = new_queries(state.get("follow_ups", []), done, deps.embed, deps.duplicate_query_threshold)
        queries = fresh[: max(deps.max_searches - len(done), 0)]  # the turn's cap
        searches = [deps.search(query) for query in queries]
        remaining, dropped = list(fresh), []
        for proposal in state.get("follow_ups", []):
            if (normalised := " ".join(proposal.split())) in remaining:
                remaining.remove(normalised)
            else:
                dropped.append(proposal)
        step = FollowUpStep(
            ms=elapsed_ms(started),
            queries=queries,
            dropped_as_duplicates=dropped,
            dropped_over_the_search_cap=fresh[len(queries) :] or None,
            searches=searches,
        )
        return {
            "queries": queries,
            "evidence": [passage for search in searches for passage in search.hits],
            "follow_ups": [],
            "round": 1,
            "round_queries": queries,
            "trace": [step],
        }

    return follow_up
