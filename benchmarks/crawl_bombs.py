"""Crawler bombs: peak memory and time of the crawler against hostile responses (issue 22).

Usage: python -m benchmarks.crawl_bombs [--expand-mb 1000] [--only NAME]
Each case runs in a fresh child process, so its peak resident memory (ru_maxrss) is its own:
- ``gzip,gzip page``: a page sent with ``Content-Encoding: gzip, gzip`` expanding to --expand-mb;
- ``zstd page``: the same with zstd;
- ``gzip,gzip robots.txt``: robots.txt sent as the same bomb (the crawl must stop in one sentence);
- ``sitemap index``: an index of 60 sitemaps of about 8 MB each, for a run of 20 pages;
- ``2 MB of <a``: a page made of ``<a `` repeated, through the crawler's link extraction.
The bombs are built in the parent (streamed, never held whole) and served by an in-process
transport in pieces of 16 KB, as a socket delivers them. A baseline row gives the memory of a
child that only imports the crawler; times leave the imports out.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import multiprocessing
import resource
import tempfile
import time
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx

ZEROS = b"\0" * (1 << 20)
PIECE = 16 * 1024
SITEMAPS = 60
SITEMAP_URLS = 120_000  # about 8 MB of XML each, under RAG_CRAWL_MAX_SITEMAP_BYTES


def gzip_stream(chunks: list[bytes] | Any) -> bytes:
    """Gzip ``chunks`` (an iterable) without holding their concatenation."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    parts = [compressor.compress(chunk) for chunk in chunks]
    return b"".join([*parts, compressor.flush()])


def gzip_gzip_bomb(megabytes: int) -> bytes:
    inner = gzip_stream(ZEROS for _ in range(megabytes))
    return gzip.compress(inner, 9)


def zstd_bomb(megabytes: int) -> bytes:
    import zstandard

    compressor = zstandard.ZstdCompressor(level=19).compressobj()
    parts = [compressor.compress(ZEROS) for _ in range(megabytes)]
    return b"".join([*parts, compressor.flush()])


class _Pieces(httpx.AsyncByteStream):
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), PIECE):
            yield self.body[start : start + PIECE]


class Site(httpx.AsyncBaseTransport):
    """Routes by path; ``pages`` answers any other ``/page-N.html`` with a small visitor page."""

    def __init__(self, routes: dict[str, tuple[dict[str, str], bytes]], pages: bool = False) -> None:
        self.routes = routes
        self.pages = pages
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        path = request.url.path
        if path in self.routes:
            headers, body = self.routes[path]
            return httpx.Response(200, headers=headers, stream=_Pieces(body))
        if self.pages and path.startswith("/page-"):
            text = f"<html lang='en'><body><main><h1>{path}</h1><p>{'Opening hours of the palace. ' * 20}"
            body = (text + "</p></main></body></html>").encode()
            return httpx.Response(200, headers={"content-type": "text/html"}, stream=_Pieces(body))
        return httpx.Response(404, stream=_Pieces(b""))


def _fetch_case(encoding: str, body: bytes, html: bool) -> str:
    from rag.config import RagSettings
    from rag.crawl.fetcher import PoliteFetcher, RequestPacer

    cap = RagSettings(_env_file=None).crawl_max_page_bytes  # type: ignore[call-arg]

    async def run() -> str:
        headers = {"content-type": "text/html", "content-encoding": encoding}
        transport = Site({"/bomb": (headers, body)})
        async with httpx.AsyncClient(transport=transport) as client:
            fetcher = PoliteFetcher(
                client, RequestPacer(0.0), lambda url: None, timeout=600.0, retries=0, max_retry_wait=0.0
            )
            result = await fetcher.fetch("https://site.example/bomb", cap, html=html)
        return f"{result.kind}: {result.reason}"

    return asyncio.run(run())


def _robots_case(body: bytes) -> str:
    from rag.crawl.crawler import CrawlError, crawl_site
    from tests.conftest import HashingEmbedder, make_settings

    headers = {"content-type": "text/plain", "content-encoding": "gzip, gzip"}
    transport = Site({"/robots.txt": (headers, body)})
    with tempfile.TemporaryDirectory() as folder:
        settings = make_settings(Path(folder), crawl_requests_per_second=100.0, crawl_timeout_seconds=600.0)
        try:
            crawl_site("https://site.example/", settings, embedder=HashingEmbedder(), transport=transport)
        except CrawlError as error:
            return f"stopped: {str(error)[:70]}"
    return "crawled"


ORIGIN = "https://site.example"


def huge_sitemap() -> bytes:
    """One sitemap of SITEMAP_URLS pages (about 8 MB), gzip-compressed for the transfer."""
    entries = "".join(f"<url><loc>{ORIGIN}/page-{n}.html</loc></url>" for n in range(SITEMAP_URLS))
    return gzip.compress(f"<urlset>{entries}</urlset>".encode(), 6)


def _sitemap_case(child: bytes) -> str:
    from rag.crawl.crawler import crawl_site
    from tests.conftest import HashingEmbedder, make_settings

    origin = ORIGIN
    index = "".join(f"<sitemap><loc>{origin}/sitemap-{n}.xml</loc></sitemap>" for n in range(SITEMAPS))
    routes = {
        "/robots.txt": ({"content-type": "text/plain"}, f"Sitemap: {origin}/index.xml\n".encode()),
        "/index.xml": ({"content-type": "application/xml"}, f"<sitemapindex>{index}</sitemapindex>".encode()),
    }
    for n in range(SITEMAPS):
        routes[f"/sitemap-{n}.xml"] = ({"content-type": "application/xml", "content-encoding": "gzip"}, child)
    transport = Site(routes, pages=True)
    with tempfile.TemporaryDirectory() as folder:
        settings = make_settings(
            Path(folder), crawl_requests_per_second=100.0, crawl_max_pages=20, crawl_concurrency=4
        )
        report = crawl_site(f"{origin}/", settings, embedder=HashingEmbedder(), transport=transport)
    return f"{transport.requests} requests, {report.outcomes['added']} pages added"


def _links_case() -> str:
    from rag.config import RagSettings
    from rag.crawl.crawler import SiteCrawl
    from rag.crawl.extraction import extract_page
    from rag.crawl.scope import CrawlScope

    crawl = SiteCrawl(CrawlScope.build("https://site.example/"), RagSettings(_env_file=None), None, 10)  # type: ignore[arg-type, call-arg]
    body = b'<html><body><a href="/first.html">first</a>' + b"<a " * 700_000
    links = crawl._links(body, "https://site.example/")
    extract_page(body, "https://site.example/")
    return f"{len(links)} link(s), page extracted"


def _baseline() -> str:
    return "imports only"


def _child(case: Callable[..., str], args: tuple[Any, ...], queue: Any) -> None:
    import rag.crawl.crawler  # noqa: F401  # imports are not the case's time
    import tests.conftest  # noqa: F401

    started = time.perf_counter()
    outcome = case(*args)
    seconds = time.perf_counter() - started
    queue.put((outcome, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def run_case(case: Callable[..., str], *args: Any) -> tuple[str, float, float]:
    """Run ``case`` in a fresh process: (outcome, seconds, peak resident MB)."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_child, args=(case, args, queue))
    process.start()
    result = queue.get()
    process.join()
    return result  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--expand-mb", type=int, default=1000, help="what each bomb expands to (MB)")
    parser.add_argument("--only", help="run only the case whose name contains this")
    args = parser.parse_args()
    built = time.perf_counter()
    gzip_bomb, zstd = gzip_gzip_bomb(args.expand_mb), zstd_bomb(args.expand_mb)
    sitemap = huge_sitemap()
    print(f"bombs built in {time.perf_counter() - built:.1f} s")
    cases: list[tuple[str, int, Callable[..., str], tuple[Any, ...]]] = [
        ("baseline (imports)", 0, _baseline, ()),
        ("gzip,gzip page", len(gzip_bomb), _fetch_case, ("gzip, gzip", gzip_bomb, True)),
        ("zstd page", len(zstd), _fetch_case, ("zstd", zstd, True)),
        ("gzip,gzip robots.txt", len(gzip_bomb), _robots_case, (gzip_bomb,)),
        (f"sitemap index of {SITEMAPS} x 8 MB", len(sitemap) * SITEMAPS, _sitemap_case, (sitemap,)),
        ("2 MB of <a", 2_100_000, _links_case, ()),
    ]
    print("| case | served | expands to | time (s) | peak RSS (MB) | outcome |")
    print("|---|---:|---:|---:|---:|---|")
    for name, sent, case, case_args in cases:
        if args.only and args.only not in name:
            continue
        outcome, seconds, peak = run_case(case, *case_args)
        expands = f"{args.expand_mb:,} MB" if name.endswith(("page", "robots.txt")) else "-"
        print(f"| {name} | {sent:,} B | {expands} | {seconds:.2f} | {peak:.0f} | {outcome} |", flush=True)


if __name__ == "__main__":
    main()
