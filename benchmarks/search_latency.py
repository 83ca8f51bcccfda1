"""Search latency, query embedding included, over every question and agent query (warm).

Usage: python -m benchmarks.search_latency [--index DIR]   (index built by retrieval_quality.py)
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from benchmarks._common import AGENT_QUERIES, BENCH_INDEX, QUESTIONS, save_result
from rag.config import RagSettings
from rag.evaluate import read_jsonl
from rag.retriever import HybridRetriever


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    retriever = HybridRetriever(RagSettings(index_dir=args.index))
    queries = [row["question"] for row in read_jsonl(QUESTIONS)]
    queries += [q for row in read_jsonl(AGENT_QUERIES) for q in row["queries"]]
    for query in queries[:10]:
        retriever.search(query, k=args.k)
    timings = []
    for _ in range(args.rounds):
        for query in queries:
            start = time.perf_counter()
            retriever.search(query, k=args.k)
            timings.append((time.perf_counter() - start) * 1000)
    result = {
        "queries": len(timings),
        "p50_ms": percentile(timings, 0.50),
        "p95_ms": percentile(timings, 0.95),
        "mean_ms": statistics.mean(timings),
        "max_ms": max(timings),
    }
    print(
        f"{result['queries']} searches (k={args.k}): p50 {result['p50_ms']:.1f} ms, "
        f"p95 {result['p95_ms']:.1f} ms, mean {result['mean_ms']:.1f} ms, max {result['max_ms']:.1f} ms"
    )
    save_result("search_latency", result)


if __name__ == "__main__":
    main()
