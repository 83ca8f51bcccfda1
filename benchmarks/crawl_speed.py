"""Crawl speed: a first crawl of a generated local site, then a re-crawl after 5 % of pages changed.

Usage: python -m benchmarks.crawl_speed [--pages 300] [--changed 0.05] [--rate 100] [--concurrency 4]
                                        [--embedder default|hashing]
Serves ``--pages`` generated pages (menus and footers around three paragraphs, a sitemap index,
robots.txt with a disallowed path) on 127.0.0.1, crawls them into a fresh index, edits a share of
the pages and crawls again. Prints pages per second of the first crawl (fetching and extraction
alone, and end to end with embedding), then the time, requests and embeddings of the second.
``--rate`` lifts the politeness limit so the crawler's own cost shows; at the default
RAG_CRAWL_REQUESTS_PER_SECOND=2 a crawl of N pages takes at least N/2 seconds.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._common import save_result
from rag.config import RagSettings
from rag.crawl.crawler import CrawlReport, crawl_site
from rag.embeddings import Embedder, build_embedder
from tests.local_site import LocalSite, generated_paragraphs, serve_generated_site, visitor_page


def _embedder(kind: str) -> Embedder:
    if kind == "hashing":
        from tests.conftest import HashingEmbedder

        return HashingEmbedder()
    embedder = build_embedder(RagSettings())
    embedder.embed_documents(["warm-up"])
    return embedder


def _figures(report: CrawlReport, pages: int) -> dict[str, Any]:
    index = report.index
    return {
        "requests": report.requests,
        "fetch_s": report.fetch_seconds,
        "total_s": report.seconds,
        "fetch_pages_per_s": pages / report.fetch_seconds,
        "pages_per_s": pages / report.seconds,
        "outcomes": dict(report.outcomes),
        "embedded": index.embedded if index else 0,
        "deleted": index.deleted if index else 0,
        "chunks": index.chunks if index else 0,
    }


def measure(pages: int, changed: float, rate: float, concurrency: int, embedder: Embedder) -> dict[str, Any]:
    """First crawl and re-crawl of a generated site into a temporary index."""
    with LocalSite() as site, tempfile.TemporaryDirectory() as folder:
        paths = serve_generated_site(site, pages)
        settings = RagSettings(
            index_dir=Path(folder) / "index",
            crawl_requests_per_second=rate,
            crawl_concurrency=concurrency,
            crawl_max_pages=pages + 10,
        )
        first = crawl_site(site.url(paths[0]), settings, embedder=embedder)
        edited = random.Random(14).sample(range(pages), max(1, round(pages * changed)))
        for number in edited:
            text = visitor_page(
                f"Collection item {number}",
                generated_paragraphs(number, version=1),
                [paths[(number + step) % pages] for step in (1, 2, 3)],
            )
            site.page(paths[number], text)
        second = crawl_site(site.url(paths[0]), settings, embedder=embedder)
    return {
        "pages": pages,
        "changed": len(edited),
        "first": _figures(first, pages),
        "second": _figures(second, pages),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument(
        "--changed", type=float, default=0.05, help="share of pages edited before the re-crawl"
    )
    parser.add_argument("--rate", type=float, default=100.0, help="requests per second allowed")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--embedder", choices=["default", "hashing"], default="default")
    args = parser.parse_args()
    embedder = _embedder(args.embedder)
    result = measure(args.pages, args.changed, args.rate, args.concurrency, embedder)
    first, second = result["first"], result["second"]
    print(
        f"embedder: {embedder.name}; {args.pages} pages, rate limit {args.rate:g} requests/s, "
        f"concurrency {args.concurrency}\n"
        f"first crawl:  {first['requests']} requests, fetch+extract {first['fetch_s']:.1f} s "
        f"({first['fetch_pages_per_s']:.1f} pages/s); with embedding and indexing {first['total_s']:.1f} s "
        f"({first['pages_per_s']:.1f} pages/s); {first['chunks']} chunks embedded\n"
        f"second crawl ({result['changed']} pages changed): {second['requests']} requests, "
        f"{second['total_s']:.1f} s in all (fetch {second['fetch_s']:.1f} s); outcomes {second['outcomes']}; "
        f"{second['embedded']} chunks embedded, {second['deleted']} removed",
        flush=True,
    )
    save_result("crawl_speed", {"embedder": embedder.name, "rate": args.rate, **result})


if __name__ == "__main__":
    main()
