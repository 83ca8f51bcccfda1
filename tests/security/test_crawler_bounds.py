"""What a hostile site sends the crawler stays bounded: compressed bombs (pages, robots.txt, error
pages, sitemaps), quadratic markup, endless delays, unreadable headers (issue 22, part 2)."""

from __future__ import annotations

import asyncio
import gzip
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import zstandard

from rag.config import RagSettings
from rag.crawl.crawler import CrawlReport, crawl_site
from rag.crawl.fetcher import FetchResult, PoliteFetcher, RequestPacer, retry_after_seconds
from rag.crawl.sitemaps import robots_rules
from tests.conftest import REPO_ROOT, HashingEmbedder, make_settings
from tests.local_site import LocalSite, serve_generated_site, sitemap, sitemap_index, visitor_page

CAP = 100_000
BOMB_BYTES = 40_000_000  # what the bombs expand to; the old crawler held all of it at once
HTML = {"content-type": "text/html; charset=utf-8"}
PIECE = 16 * 1024


class _Pieces(httpx.AsyncByteStream):
    """A raw body sent in pieces, as a socket delivers it (MockTransport would decode it first)."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), PIECE):
            yield self.body[start : start + PIECE]


class RawTransport(httpx.AsyncBaseTransport):
    """Answers each path with a fixed status, headers and raw (possibly compressed) body."""

    def __init__(self, routes: dict[str, tuple[int, dict[str, Any], bytes]]) -> None:
        self.routes = routes

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        status, headers, body = self.routes.get(request.url.path, (404, {}, b""))
        return httpx.Response(status, headers=headers, stream=_Pieces(body))


def _gzip_gzip_bomb() -> bytes:
    return gzip.compress(gzip.compress(b"\0" * BOMB_BYTES, 9), 9)


def _zstd_bomb() -> bytes:
    return zstandard.ZstdCompressor(level=19).compress(b"\0" * BOMB_BYTES)


BOMBS = {
    "gzip, gzip": _gzip_gzip_bomb,
    "zstd": _zstd_bomb,
    "deflate, gzip": lambda: gzip.compress(__import__("zlib").compress(b"\0" * BOMB_BYTES, 9), 9),
}


def _fetch(
    routes: dict[str, tuple[int, dict[str, Any], bytes]], path: str, **options: object
) -> tuple[FetchResult, int, list[str]]:
    """Fetch ``path``; the result, the peak of memory allocated meanwhile, the fetcher's warnings."""

    async def run() -> tuple[FetchResult, list[str]]:
        async with httpx.AsyncClient(transport=RawTransport(routes)) as client:
            fetcher = PoliteFetcher(
                client, RequestPacer(0.0), lambda url: None, timeout=10.0, retries=0, max_retry_wait=0.0
            )
            fetcher.max_delay = 60.0  # RAG_CRAWL_MAX_DELAY_SECONDS's default
            result = await fetcher.fetch(f"https://site.example{path}", CAP, **options)  # type: ignore[arg-type]
            return result, getattr(fetcher, "warnings", [])

    tracemalloc.start()
    try:
        result, warnings = asyncio.run(run())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak, warnings


@pytest.mark.parametrize("encoding", sorted(BOMBS))
@pytest.mark.parametrize("html", [True, False], ids=["page", "robots.txt or sitemap"])
def test_a_compressed_bomb_is_cut_at_the_page_cap_without_expanding(encoding: str, html: bool) -> None:
    bomb = BOMBS[encoding]()
    headers = {**HTML, "content-encoding": encoding}

    result, peak, _ = _fetch({"/bomb": (200, headers, bomb)}, "/bomb", html=html)

    assert result.kind == "skipped" and result.reason == f"larger than {CAP} bytes"
    assert peak < 20 * CAP + 2_000_000, f"{peak:,} bytes held for a {CAP:,}-byte cap"


def test_an_error_page_that_is_a_bomb_is_never_decompressed() -> None:
    headers = {**HTML, "content-encoding": "gzip, gzip"}

    result, peak, _ = _fetch({"/down": (503, headers, _gzip_gzip_bomb())}, "/down")

    assert result.kind == "failed" and peak < 2_000_000


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "zstd", "gzip, zstd", "identity", ""])
def test_ordinary_compressed_pages_are_read_whole(encoding: str) -> None:
    page = visitor_page("Hours", ["The palace opens at nine."] * 200).encode()
    body = page
    for name in [part.strip() for part in encoding.split(",") if part.strip() != "identity"]:
        body = gzip.compress(body) if name == "gzip" else body
        body = __import__("zlib").compress(body) if name == "deflate" else body
        body = zstandard.ZstdCompressor().compress(body) if name == "zstd" else body

    result, _, _ = _fetch({"/p": (200, {**HTML, "content-encoding": encoding}, body)}, "/p")

    assert result.kind == "ok" and result.body == page


def test_an_encoding_the_crawler_cannot_read_is_skipped_with_its_name() -> None:
    result, _, _ = _fetch({"/p": (200, {**HTML, "content-encoding": "br"}, b"\x0b\x02\x80hi\x03")}, "/p")

    assert result.kind == "skipped" and "br" in result.reason


@pytest.mark.parametrize("header", ["²", "١٢٠", "1e400", "Sun, 99 Foo 2026 99:99:99 GMT", "-5", ""])
def test_an_unreadable_retry_after_is_ignored(header: str) -> None:
    assert retry_after_seconds(header) is None

    result, _, _ = _fetch({"/busy": (429, {"retry-after": header.encode()}, b"")}, "/busy")

    assert result.kind == "failed" and result.retry_after is None


def test_a_retry_after_longer_than_the_maximum_delay_is_cut_with_a_warning() -> None:
    result, _, warnings = _fetch({"/busy": (503, {"retry-after": "100000"}, b"")}, "/busy")

    assert result.retry_after == 60.0
    assert warnings and "RAG_CRAWL_MAX_DELAY_SECONDS=60" in warnings[0]


def test_a_non_ascii_crawl_delay_does_not_stop_the_robots_rules() -> None:
    rules = robots_rules("User-agent: *\nCrawl-delay: ²\nRequest-rate: ¹/²\nDisallow: /private/\n")

    assert not rules.can_fetch("bot", "https://site.example/private/a.html")
    assert rules.can_fetch("bot", "https://site.example/visit/a.html")


def test_validators_that_are_not_ascii_are_not_kept() -> None:
    headers = {**HTML, "etag": '"café"'.encode(), "last-modified": "lundi 3 août".encode("latin-1")}
    body = b"<p>hello</p>"

    result, _, _ = _fetch({"/p": (200, headers, body)}, "/p")
    again, _, _ = _fetch({"/p": (200, HTML, body)}, "/p", etag='"caf\u00e9"', last_modified="\u00e9")

    assert result.kind == "ok" and result.etag is None and result.last_modified is None
    assert again.kind == "ok"  # a validator stored by an older version is not sent back


# --- whole crawls against a local site -------------------------------------------------------


@pytest.fixture
def site(no_network_leaks: None) -> Iterator[LocalSite]:
    with LocalSite() as local:
        yield local


def _settings(tmp_path: Path, **overrides: object) -> RagSettings:
    values: dict[str, object] = {"crawl_requests_per_second": 100.0, "crawl_timeout_seconds": 5.0}
    return make_settings(tmp_path / "index", crawl_retries=0, **{**values, **overrides})


def test_a_huge_crawl_delay_is_cut_to_the_maximum_with_a_warning(site: LocalSite, tmp_path: Path) -> None:
    serve_generated_site(site, 2)
    robots = site.routes["/robots.txt"]
    robots.body = robots.body.replace(b"Disallow: /private/", b"Disallow: /private/\nCrawl-delay: 100000")
    settings = _settings(tmp_path, crawl_max_delay_seconds=0.2)
    reports: list[CrawlReport] = []
    crawl = threading.Thread(
        target=lambda: reports.append(
            crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
        ),
        daemon=True,  # the old crawler waited 28 hours
    )

    crawl.start()
    crawl.join(timeout=30)

    assert reports, "the crawl still waits for the Crawl-delay robots.txt asked"
    assert reports[0].outcomes["added"] == 2
    assert any(
        "Crawl-delay of 100000 s" in issue and "RAG_CRAWL_MAX_DELAY_SECONDS=0.2" in issue
        for issue in reports[0].issues
    )


def test_a_page_with_a_non_ascii_etag_is_fetched_again_and_updated(site: LocalSite, tmp_path: Path) -> None:
    weird = {"ETag": '"\u00e9t\u00e9"', "Last-Modified": "mardi 3 ao\u00fbt"}
    site.page(
        "/",
        visitor_page("Home", ["The palace opens at nine every morning."]),
        validators=False,
        headers=weird,
    )
    settings = _settings(tmp_path)
    crawl_site(site.url("/"), settings, embedder=HashingEmbedder())
    site.page(
        "/",
        visitor_page("Home", ["The palace now opens at ten every morning."]),
        validators=False,
        headers=weird,
    )

    report = crawl_site(site.url("/"), settings, embedder=HashingEmbedder())

    assert report.outcomes["updated"] == 1 and not report.issues
    page_requests = [request for request in site.requests if request.path == "/"]
    assert all("If-None-Match" not in request.headers for request in page_requests)


def test_a_sitemap_index_of_many_sitemaps_is_read_only_as_far_as_the_run_needs(
    site: LocalSite, tmp_path: Path
) -> None:
    paths = serve_generated_site(site, 20, per_sitemap=20)
    children = [site.url(f"/sitemaps/part-{n}.xml") for n in range(60)]
    for child in children:  # 60 sitemaps of 1,000 pages each (the same 20 real ones first)
        urls = [site.url(path) for path in paths] + [site.url(f"/collection/x-{n}.html") for n in range(980)]
        site.page(child.removeprefix(site.origin), sitemap(urls), content_type="application/xml")
    site.page("/sitemap_index.xml", sitemap_index(children), content_type="application/xml")
    settings = _settings(tmp_path, crawl_max_pages=20, crawl_max_sitemaps=10)

    report = crawl_site(site.url(paths[0]), settings, embedder=HashingEmbedder())

    sitemaps_read = [path for path in site.paths_requested() if path.startswith("/sitemaps/")]
    assert sitemaps_read == ["/sitemaps/part-0.xml"]  # its 1,000 pages are more than the run fetches
    assert report.outcomes["added"] == 20


def test_at_most_the_configured_number_of_sitemaps_is_read(site: LocalSite, tmp_path: Path) -> None:
    serve_generated_site(site, 4, per_sitemap=1)  # an index of 4 sitemaps of one page each
    settings = _settings(tmp_path, crawl_max_sitemaps=3)

    report = crawl_site(site.url("/collection/"), settings, embedder=HashingEmbedder())

    sitemaps_read = [path for path in site.paths_requested() if path.endswith(".xml")]
    assert len(sitemaps_read) == 3  # the index and two of its children
    assert any("RAG_CRAWL_MAX_SITEMAPS=3" in issue for issue in report.issues)


def test_a_sitemap_over_its_byte_cap_is_skipped(site: LocalSite, tmp_path: Path) -> None:
    paths = serve_generated_site(site, 2)
    padding = [site.url(f"/collection/x-{n}.html") for n in range(1000)]  # about 50 KB
    site.page(
        "/sitemaps/collection-0.xml",
        sitemap([site.url(p) for p in paths] + padding),
        content_type="application/xml",
    )
    settings = _settings(tmp_path, crawl_max_page_bytes=1_000_000, crawl_max_sitemap_bytes=20_000)

    report = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())

    assert any("larger than 20000 bytes" in issue for issue in report.issues)
    assert report.discovered < 10


LINKS_OF_A_HOSTILE_PAGE = """
import time
from rag.config import RagSettings
from rag.crawl.crawler import SiteCrawl
from rag.crawl.scope import CrawlScope
crawl = SiteCrawl(CrawlScope.build("https://site.example/"), RagSettings(_env_file=None), None, 10)
body = b'<html><body><a href="/first.html">first</a>' + b"<a " * 700_000
started = time.perf_counter()
links = crawl._links(body, "https://site.example/")
print(round(time.perf_counter() - started, 2), links)
"""


def test_links_of_a_2_mb_page_of_unclosed_anchors_are_read_in_linear_time() -> None:
    # In a child process: the old regex held the interpreter for minutes (quadratic, GIL held).
    try:
        done = subprocess.run(
            [sys.executable, "-c", LINKS_OF_A_HOSTILE_PAGE],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading the links of a 2 MB page took more than 60 s")
    seconds, links = done.stdout.split(" ", 1)
    assert float(seconds) < 30 and "https://site.example/first.html" in links
