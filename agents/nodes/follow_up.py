"""Run the gap analysis' follow-up queries, minus near-duplicates of queries already run."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.deps import AgentDeps, Embed, trace_event
from agents.evidence import merge_evidence
from agents.state import AgentState


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
        fresh = new_queries(
            state.get("follow_ups", []), state.get("queries", []), deps.embed, deps.duplicate_query_threshold
        )
        queries = fresh[: max(deps.max_searches - len(state.get("queries", [])), 0)]  # the turn's cap
        evidence, done = list(state.get("evidence", [])), list(state.get("queries", []))
        for query in queries:
            result = deps.search(query)
            done.append(query)
            evidence = merge_evidence(evidence, result.hits)
        remaining = list(fresh)
        dropped = []
        for proposal in state.get("follow_ups", []):
            if " ".join(proposal.split()) in remaining:
                remaining.remove(" ".join(proposal.split()))
            else:
                dropped.append(proposal)
        event = trace_event("follow_up", started, queries=queries, dropped_as_duplicates=dropped)
        if over := fresh[len(queries) :]:
            event["dropped_over_the_search_cap"] = over
        return {
            "queries": done,
            "evidence": evidence,
            "follow_ups": [],
            "round": state.get("round", 0) + 1,
            "trace": [*state.get("trace", []), event],
        }

    return follow_up
