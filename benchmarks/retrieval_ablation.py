"""What each retrieval step adds: the evaluation re-run with one step switched off at a time.

Usage: python -m benchmarks.retrieval_ablation [--index DIR]   (index built by retrieval_quality)
Every variant searches the same index; only query-time settings change.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from benchmarks._common import AGENT_QUERIES, BENCH_INDEX, QUESTIONS, save_result
from rag.config import RagSettings
from rag.evaluate import evaluate, read_jsonl, summarise
from rag.retriever import HybridRetriever

VARIANTS: dict[str, dict[str, Any]] = {
    "full pipeline (defaults)": {},
    "no answer-type bonus": {"answer_type_weight": 0.0},
    "no reranking (fused order)": {"rerank": False},
    "no cross-language expansion": {"query_expansion": False},
    "no neighbour widening": {"passage_chars": 100},
    "dense weight 1.0 (equal RRF)": {"dense_weight": 1.0},
    "BM25 only": {"dense_weight": 0.0},
    "dense only": {"bm25_weight": 0.0},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("-k", type=int, default=5)
    args = parser.parse_args()
    questions = read_jsonl(QUESTIONS)
    queries = {row["id"]: row["queries"] for row in read_jsonl(AGENT_QUERIES)}
    base = HybridRetriever(RagSettings(index_dir=args.index))
    print(f"{'variant':<32} {'pooled all/fr/en/other':>26} {'chars':>6}   {'raw':>26} {'chars':>6}")
    payload = {}
    for name, overrides in VARIANTS.items():
        retriever = HybridRetriever(RagSettings(index_dir=args.index, **overrides), embedder=base.embedder)
        row = {}
        for mode, pooled in (("pooled", queries), ("raw", None)):
            row[mode] = summarise(evaluate(questions, retriever.search, args.k, pooled))
        payload[name] = row
        cells = []
        for mode in ("pooled", "raw"):
            s = row[mode]
            hits = "/".join(
                f"{s[g]['all_aspects_hit']:.2f}" for g in ("all", "lang:fr", "lang:en", "lang:other")
            )
            cells.append(f"{hits:>26} {s['all']['mean_chars']:>6.0f}")
        print(f"{name:<32} {cells[0]}   {cells[1]}")
    save_result("retrieval_ablation", payload)


if __name__ == "__main__":
    main()
