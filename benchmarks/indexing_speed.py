"""Indexing speed on the shared corpus: full build vs embedding alone, then an unchanged re-run.

Usage: python -m benchmarks.indexing_speed
Measures, in one run and with the same model: (1) the time to embed every planned chunk and
nothing else, (2) a clean build into a fresh index, (3) a re-run on the unchanged corpus.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks._common import CORPUS, save_result
from rag.config import RagSettings
from rag.embeddings import build_embedder
from rag.indexer import EMBED_GROUP, index_corpus, plan_chunks


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = RagSettings(index_dir=Path(folder) / "index")
        embedder = build_embedder(settings)
        embedder.embed_documents(["warm-up"])
        chunks, _, documents, _, _ = plan_chunks([CORPUS], settings)
        texts = [chunk.embedding_text for chunk in chunks.values()]
        start = time.perf_counter()
        for first in range(0, len(texts), EMBED_GROUP):
            embedder.embed_documents(texts[first : first + EMBED_GROUP])
        embed_only = time.perf_counter() - start

        build = index_corpus([CORPUS], settings, embedder=embedder)
        rerun = index_corpus([CORPUS], settings, embedder=embedder)
    result = {
        "documents": documents,
        "chunks": len(texts),
        "embed_only_s": embed_only,
        "build_s": build.seconds,
        "build_over_embed": build.seconds / embed_only,
        "chunks_per_s": len(texts) / build.seconds,
        "rerun_s": rerun.seconds,
        "rerun_embedded": rerun.embedded,
    }
    print(
        f"{documents} documents, {len(texts)} chunks\n"
        f"embedding alone: {embed_only:.1f} s\n"
        f"clean build:     {build.seconds:.1f} s  (ratio {result['build_over_embed']:.3f}, "
        f"{result['chunks_per_s']:.1f} chunks/s)\n"
        f"unchanged re-run: {rerun.seconds:.2f} s, {rerun.embedded} embeddings computed"
    )
    save_result("indexing_speed", result)


if __name__ == "__main__":
    main()
