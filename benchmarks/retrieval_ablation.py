"""What each retrieval step adds: the evaluation re-run with one step switched off at a time.

Usage: python -m benchmarks.retrieval_ablation [--index DIR]   (index built by retrieval_quality)
Every variant searches the same index; only query-time settings change. Figures are given for
both fixed halves of the development set (tune / check).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from benchmarks._common import BENCH_INDEX, evaluate_halves, save_result
from benchmarks.retrieval_tuning import print_header, print_row
from rag.config import RagSettings
from rag.retriever import HybridRetriever

VARIANTS: dict[str, dict[str, Any]] = {
    "full pipeline (defaults)": {},
    "no answer-type bonus": {"answer_type_weight": 0.0},
    "no dense similarity in reranking": {"dense_similarity_weight": 0.0},
    "no reranking (fused order)": {"rerank": False},
    "no cross-language expansion (glossary)": {"query_expansion": False},
    "no neighbour widening": {"passage_chars": 100},
    "BM25 only": {"dense_weight": 0.0},
    "dense only": {"bm25_weight": 0.0},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("-k", type=int, default=5)
    args = parser.parse_args()
    base = HybridRetriever(RagSettings(index_dir=args.index))
    print_header()
    payload = {}
    for name, overrides in VARIANTS.items():
        retriever = HybridRetriever(RagSettings(index_dir=args.index, **overrides), embedder=base.embedder)
        payload[name] = evaluate_halves(retriever.search, args.k)
        print_row(name, payload[name])
    save_result("retrieval_ablation", payload)


if __name__ == "__main__":
    main()
