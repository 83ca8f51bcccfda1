"""Retrieval quality on the shared corpus: raw questions and pooled agent queries, k=5.

Usage: python -m benchmarks.retrieval_quality [--index DIR] [--reindex]
Builds the index of ../shared/data/versailles in .rag_index/bench when absent.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks._common import AGENT_QUERIES, BENCH_INDEX, CORPUS, QUESTIONS, save_result
from rag.config import RagSettings
from rag.evaluate import evaluate, read_jsonl, summarise
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever


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
    questions = read_jsonl(QUESTIONS)
    queries = {row["id"]: row["queries"] for row in read_jsonl(AGENT_QUERIES)}
    payload = {}
    print(f"k={args.k}  chunk_size={settings.chunk_size}  rerank={settings.rerank}")
    header = f"{'mode':<8} {'group':<12} {'n':>3} {'all-hit':>8} {'recall':>7} {'MRR':>6} {'chars':>7}"
    print(header)
    for mode, pooled in (("raw", None), ("pooled", queries)):
        results = evaluate(questions, lambda q, k: retriever.search(q, k=k), args.k, pooled)
        summary = summarise(results)
        payload[mode] = summary
        for group in ("all", "lang:fr", "lang:en", "lang:other", "type:fact", "type:multi", "type:mixed"):
            row = summary.get(group)
            if row:
                print(
                    f"{mode:<8} {group:<12} {row['n']:>3} {row['all_aspects_hit']:>8.3f} "
                    f"{row['aspect_recall']:>7.3f} {row['mrr']:>6.3f} {row['mean_chars']:>7.0f}"
                )
    save_result("retrieval_quality", payload)


if __name__ == "__main__":
    main()
