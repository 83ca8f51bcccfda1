"""Recall of Chroma's approximate (HNSW) search against exact search, on the real chunk vectors.

Usage: python -m benchmarks.hnsw_recall [--index DIR]   (index built by retrieval_quality)
Copies the stored embeddings into temporary collections with different HNSW settings and compares
their top-k with brute-force cosine search for every question and agent query.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks._common import AGENT_QUERIES, BENCH_INDEX, QUESTIONS, save_result
from rag.config import RagSettings
from rag.embeddings import build_embedder
from rag.evaluate import read_jsonl
from rag.store import ChunkStore, open_client

CONFIGS = {
    "chroma defaults (ef_search 100, ef_construction 100, M 16)": (100, 100, 16),
    "ef_search 200, ef_construction 200, M 32 (ours)": (200, 200, 32),
    "ef_search 400, ef_construction 200, M 32": (400, 200, 32),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("-k", type=int, default=40)
    args = parser.parse_args()
    settings = RagSettings(index_dir=args.index)
    source = ChunkStore.open(open_client(settings), settings.collection)
    stored = source.collection.get(include=["embeddings"])
    ids, vectors = stored["ids"], np.asarray(stored["embeddings"], dtype=np.float32)
    embedder = build_embedder(settings)
    texts = [row["question"] for row in read_jsonl(QUESTIONS)]
    texts += [q for row in read_jsonl(AGENT_QUERIES) for q in row["queries"]]
    queries = embedder.embed_queries(texts)
    exact = np.argsort(-(queries @ vectors.T), axis=1)[:, : args.k]
    result = {}
    for label, (ef_search, ef_construction, neighbors) in CONFIGS.items():
        with tempfile.TemporaryDirectory() as folder:
            trial = RagSettings(
                index_dir=Path(folder),
                hnsw_ef_search=ef_search,
                hnsw_ef_construction=ef_construction,
                hnsw_max_neighbors=neighbors,
            )
            store = ChunkStore.create(open_client(trial, create=True), "hnsw_trial", trial, "bench")
            store.upsert(ids, vectors, [""] * len(ids), [{"i": i} for i in range(len(ids))])
            position = {chunk_id: i for i, chunk_id in enumerate(ids)}
            recalls, timings = [], []
            for query, truth in zip(queries, exact, strict=True):
                start = time.perf_counter()
                found = store.query(query, args.k)
                timings.append((time.perf_counter() - start) * 1000)
                recalls.append(len({position[i] for i, _ in found} & set(truth.tolist())) / args.k)
        result[label] = {"recall": float(np.mean(recalls)), "query_ms": float(np.median(timings))}
        print(f"{label}: recall@{args.k} {np.mean(recalls):.3f}, median query {np.median(timings):.2f} ms")
    save_result("hnsw_recall", {"k": args.k, "vectors": len(ids), **result})


if __name__ == "__main__":
    main()
