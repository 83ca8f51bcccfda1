"""Indexing speed: full build vs embedding alone, then an unchanged re-run, for two corpora.

Usage: python -m benchmarks.indexing_speed [--only shared|bundled]
Measures, in one run and with the same loaded model, for the shared corpus (../shared) and the
bundled one (data/corpus): (1) the time to embed every planned chunk and nothing else, (2) a clean
build into a fresh index, (3) a re-run on the unchanged corpus. Run it on a quiet machine: the
e5 engine uses every core and slows down badly when another busy process shares them.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import CORPUS, save_result
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.embeddings import Embedder, build_embedder
from rag.indexer import EMBED_GROUP, index_corpus, plan_chunks

CORPORA = {"shared": CORPUS, "bundled": DEFAULT_CORPUS}


def measure(corpus: Path, embedder: Embedder) -> dict[str, Any]:
    """Embedding alone, clean build and unchanged re-run of ``corpus`` into a temporary index."""
    with tempfile.TemporaryDirectory() as folder:
        settings = RagSettings(index_dir=Path(folder) / "index")
        plan = plan_chunks([corpus], settings)
        chunks, documents = plan.chunks, plan.documents
        texts = [chunk.embedding_text for chunk in chunks.values()]
        start = time.perf_counter()
        for first in range(0, len(texts), EMBED_GROUP):
            embedder.embed_documents(texts[first : first + EMBED_GROUP])
        embed_only = time.perf_counter() - start

        build = index_corpus([corpus], settings, embedder=embedder)
        rerun = index_corpus([corpus], settings, embedder=embedder)
    return {
        "documents": documents,
        "chunks": len(texts),
        "embed_only_s": embed_only,
        "build_s": build.seconds,
        "build_over_embed": build.seconds / embed_only,
        "passages_per_s": len(texts) / build.seconds,
        "rerun_s": rerun.seconds,
        "rerun_embedded": rerun.embedded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=sorted(CORPORA))
    args = parser.parse_args()
    embedder = build_embedder(RagSettings())
    embedder.embed_documents(["warm-up"])
    print(f"embedder: {embedder.name}")
    results = {}
    for name, corpus in CORPORA.items():
        if args.only and name != args.only:
            continue
        result = results[name] = measure(corpus, embedder)
        print(
            f"[{name}] {result['documents']} documents, {result['chunks']} chunks\n"
            f"  embedding alone:  {result['embed_only_s']:.1f} s\n"
            f"  clean build:      {result['build_s']:.1f} s  (ratio {result['build_over_embed']:.3f}, "
            f"{result['passages_per_s']:.1f} passages/s)\n"
            f"  unchanged re-run: {result['rerun_s']:.2f} s, {result['rerun_embedded']} embeddings computed",
            flush=True,
        )
    save_result("indexing_speed", {"embedder": embedder.name, **results})


if __name__ == "__main__":
    main()
