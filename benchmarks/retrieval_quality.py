"""Retrieval quality on the shared corpus: raw questions and pooled agent queries, k=5.

Usage: python -m benchmarks.retrieval_quality [--index DIR] [--reindex]
Builds the index of ../shared/data/versailles in .rag_index/bench when absent. Every figure is
given for the two fixed halves of the development set (tune / check) and for all questions.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks._common import BENCH_INDEX, CORPUS, evaluate_halves, save_result
from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever

GROUPS = ("all", "lang:fr", "lang:en", "lang:other", "type:fact", "type:multi", "type:mixed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--reindex", action="store_true")
    parser.add_argument("-k", type=int, default=5)
    args = parser.parse_args()
    settings = RagSettings(index_dir=args.index)
    if args.reindex or not (args.index / "chroma.sqlite3").exists():
        index_corpus([CORPUS], settings)
    retriever = HybridRetriever(settings)
    payload = evaluate_halves(retriever.search, args.k)
    print(f"k={args.k}  chunk_size={settings.chunk_size}  embedder={retriever.embedder.name}")
    print(
        f"{'mode':<7} {'half':<6} {'group':<11} {'n':>3} {'all-hit':>8} {'recall':>7} {'MRR':>6} {'chars':>6}"
    )
    for mode, halves in payload.items():
        for half, summary in halves.items():
            for group in GROUPS:
                row = summary.get(group)
                if row:
                    print(
                        f"{mode:<7} {half:<6} {group:<11} {row['n']:>3.0f} {row['all_aspects_hit']:>8.3f} "
                        f"{row['aspect_recall']:>7.3f} {row['mrr']:>6.3f} {row['mean_chars']:>6.0f}"
                    )
    save_result("retrieval_quality", payload)


if __name__ == "__main__":
    main()
