"""Crawl a website into the knowledge base: discover pages, fetch what changed, index as files are.

Discovery reads robots.txt, the sitemap (indexes too) and links of fetched pages, keeping to the
crawl's scope. Each page's outcome is saved as it comes (see :mod:`rag.crawl.state`); then every
live page goes through the indexer's pipeline, so only the chunks of changed pages are embedded and
the chunks of pages gone are removed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.robotparser import RobotFileParser

import httpx

from rag.config import RagSettings, location_of
from rag.crawl.decoding import ACCEPT_ENCODING
from rag.crawl.extraction import extract_page, page_links
from rag.crawl.fetcher import PoliteFetcher, RequestPacer
from rag.crawl.guard import mass_change
from rag.crawl.outcome import deferred, held_back, known_links, next_record
from rag.crawl.scope import CrawlInputError, CrawlScope, normalise_url
from rag.crawl.sitemaps import SitemapError, allow_everything, parse_sitemap, robot_token, robots_rules
from rag.crawl.state import CrawlState, PageRecord, crawl_lock, state_path
from rag.crawl.structured import json_ld
from rag.documents import Document
from rag.embeddings import Embedder
from rag.errors import RagError
from rag.indexer import IndexProgress, IndexReport, documents_within_cap, index_documents
from rag.loaders import page_from_record

logger = logging.getLogger(__name__)

MAX_SITEMAP_URLS = 50_000  # the sitemap protocol's own limit per file


class CrawlError(RagError, RuntimeError):
    """The site could not be crawled this time; nothing was removed from the index."""


@dataclass
class CrawlReport:
    """What one crawl run did, for the CLI, the console and the benchmark."""

    run_id: int = 0
    resumed: bool = False
    discovered: int = 0
    requests: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    issues: list[str] = field(default_factory=list)
    suspect: list[str] = field(default_factory=list)  # pages whose new text was held back
    pending: int = 0  # pages left for the next run by RAG_MAX_RUN_CHUNKS
    index: IndexReport | None = None
    fetch_seconds: float = 0.0
    seconds: float = 0.0


def crawl_site(
    start_url: str,
    settings: RagSettings,
    *,
    sitemap: str | None = None,
    allow: Sequence[str] = (),
    max_pages: int | None = None,
    embedder: Embedder | None = None,
    progress: IndexProgress | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    accept_mass_change: bool = False,
) -> CrawlReport:
    """Crawl ``start_url`` within its scope into the configured collection, then index the pages.

    Raises :class:`CrawlInputError` for unusable arguments and :class:`CrawlError` when robots.txt
    cannot be read or no page could be indexed; either way nothing is removed. Many pages changed
    to one text at once (see :mod:`rag.crawl.guard`) keep their old text unless
    ``accept_mass_change``.
    """
    started = time.perf_counter()
    scope = CrawlScope.build(start_url, allow)
    sitemap_url = _sitemap_url(sitemap, scope)
    path = state_path(settings.index_dir, location_of(settings), settings.collection)
    with crawl_lock(path), CrawlState(path) as state:
        crawl = SiteCrawl(scope, settings, state, max_pages or settings.crawl_max_pages)
        asyncio.run(crawl.run(str(normalise_url(start_url)), sitemap_url, transport))
        if not accept_mass_change:
            crawl.hold_back_mass_change()
        report = crawl.report
        report.fetch_seconds = time.perf_counter() - started
        report.index = _index_live_pages(state, settings, embedder, progress, report)
        report.seconds = time.perf_counter() - started
        state.finish_run(report.run_id, _details(report))
    if report.index is None:
        raise CrawlError(
            f"No page of {scope.origin} could be indexed ({_counts(report)}): check the URL, --allow "
            "and the site's robots.txt, then run the crawl again."
        )
    return report


def _sitemap_url(sitemap: str | None, scope: CrawlScope) -> str | None:
    if sitemap is None:
        return None
    url = normalise_url(sitemap, base=scope.origin)
    if url is None or not scope.on_host(url):
        raise CrawlInputError(
            f"--sitemap {sitemap!r} is not an http(s) URL on {scope.host}: give the sitemap of the "
            "site being crawled."
        )
    return url


class SiteCrawl:
    """One run over one site: robots.txt, discovery, then a bounded pool of page fetches."""

    def __init__(self, scope: CrawlScope, settings: RagSettings, state: CrawlState, max_pages: int) -> None:
        self.scope = scope
        self.settings = settings
        self.state = state
        self.max_pages = max_pages
        self.report = CrawlReport()
        self.rules: RobotFileParser = allow_everything()
        self.token = robot_token(settings.crawl_user_agent)
        self.known: dict[str, PageRecord] = {}
        self.seen: set[str] = set()
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.replaced: dict[str, PageRecord] = {}  # pages updated this run: their previous record

    async def run(self, start_url: str, sitemap_url: str | None, transport: Any) -> None:
        settings = self.settings
        client = httpx.AsyncClient(
            headers={"User-Agent": settings.crawl_user_agent, "Accept-Encoding": ACCEPT_ENCODING},
            timeout=httpx.Timeout(settings.crawl_timeout_seconds),
            follow_redirects=False,
            transport=transport,
        )
        async with client:
            pacer = RequestPacer(1.0 / settings.crawl_requests_per_second)
            fetcher = PoliteFetcher(
                client,
                pacer,
                self._site_file_refusal,
                timeout=settings.crawl_timeout_seconds,
                retries=settings.crawl_retries,
                max_retry_wait=settings.crawl_max_retry_wait_seconds,
                max_delay=settings.crawl_max_delay_seconds,
            )
            try:
                self.rules = await self._robots(fetcher)
                pacer.interval = max(pacer.interval, self._crawl_delay(fetcher))
                key = json.dumps([start_url, self.scope.prefixes, sitemap_url])
                self.report.run_id, self.report.resumed = self.state.start_run(key)
                self.known = self.state.pages()
                candidates = [start_url, *await self._sitemap_pages(fetcher, sitemap_url)]
                candidates += sorted(
                    url for url, page in self.known.items() if page.live and self.scope.allows(url)
                )
                for url in candidates:
                    self._enqueue(url)
                fetcher.refusal = self._page_refusal
                workers = [
                    asyncio.create_task(self._worker(fetcher)) for _ in range(settings.crawl_concurrency)
                ]
                await self.queue.join()
                for worker in workers:
                    worker.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
            finally:
                self.report.issues.extend(fetcher.warnings)
                self.report.requests += fetcher.requests
                if self.report.run_id:
                    self.state.add_requests(self.report.run_id, fetcher.requests)

    def _crawl_delay(self, fetcher: PoliteFetcher) -> float:
        """robots.txt's Crawl-delay, cut to RAG_CRAWL_MAX_DELAY_SECONDS (100000 s would be 28 hours)."""
        try:
            asked = float(self.rules.crawl_delay(self.token) or 0)
        except (TypeError, ValueError, OverflowError):
            return 0.0
        if asked > self.settings.crawl_max_delay_seconds:
            fetcher.warn(
                f"robots.txt asks for a Crawl-delay of {asked:g} s; waiting "
                f"RAG_CRAWL_MAX_DELAY_SECONDS={self.settings.crawl_max_delay_seconds:g} s between requests"
            )
            return self.settings.crawl_max_delay_seconds
        return asked if asked > 0 else 0.0

    async def _robots(self, fetcher: PoliteFetcher) -> RobotFileParser:
        """The site's rules: none on a 4xx (RFC 9309); a 5xx or no answer stops the crawl."""
        url = f"{self.scope.origin}/robots.txt"
        result = await fetcher.fetch(url, self.settings.crawl_max_page_bytes, html=False)
        if result.kind == "ok":
            return robots_rules(result.body.decode("utf-8", errors="replace"))
        if result.status is not None and 400 <= result.status < 500 and result.status != 429:
            return allow_everything()
        raise CrawlError(
            f"{url} could not be read ({result.reason or result.kind}): nothing was fetched or removed; "
            "run the crawl again later."
        )

    async def _sitemap_pages(self, fetcher: PoliteFetcher, sitemap_url: str | None) -> list[str]:
        """Page URLs of the sitemap (children of sitemap indexes included), in their order.

        At most RAG_CRAWL_MAX_SITEMAPS sitemaps of RAG_CRAWL_MAX_SITEMAP_BYTES each are read, and
        none once enough pages for this run are listed (60 huge sitemaps once cost 2.3 GB).
        """
        settings = self.settings
        declared = [sitemap_url] if sitemap_url else list(self.rules.site_maps() or [])
        queue = declared or [f"{self.scope.origin}/sitemap.xml"]
        max_bytes = settings.crawl_max_sitemap_bytes
        pages: list[str] = []
        usable = 0
        visited: set[str] = set()
        while queue and len(visited) < settings.crawl_max_sitemaps and usable < self.max_pages:
            url = normalise_url(queue.pop(0), base=self.scope.origin)
            if url is None or url in visited:
                continue
            visited.add(url)
            if not self.scope.on_host(url):
                self.report.issues.append(f"sitemap {url} is on another host: not read")
                continue
            result = await fetcher.fetch(url, max_bytes, html=False)
            if result.kind != "ok":
                if declared or result.kind != "missing":
                    self.report.issues.append(f"sitemap {url}: {result.reason or result.kind}")
                continue
            try:
                sitemap = parse_sitemap(result.body, max_bytes, max_urls=MAX_SITEMAP_URLS)
            except SitemapError as error:
                self.report.issues.append(f"sitemap {url}: {error}")
                continue
            queue.extend(sitemap.children)
            for number, page in enumerate(sitemap.pages):
                if usable >= self.max_pages:  # beyond the run's pages, a URL costs time and memory only
                    self.report.refused["over the page limit"] += len(sitemap.pages) - number
                    break
                pages.append(page)
                usable += self._usable(page)
        if queue and usable < self.max_pages:
            self.report.issues.append(
                f"more than RAG_CRAWL_MAX_SITEMAPS={settings.crawl_max_sitemaps} sitemaps: the rest "
                "were not read"
            )
        return pages

    def _usable(self, raw: str) -> bool:
        url = normalise_url(raw, base=self.scope.origin)
        return url is not None and self._page_refusal(url) is None

    def _site_file_refusal(self, url: str) -> str | None:
        return None if self.scope.on_host(url) else "outside the crawled host"

    def _page_refusal(self, url: str) -> str | None:
        if not self.scope.allows(url):
            return "outside the allowed prefixes"
        if not self.rules.can_fetch(self.token, url):
            return "disallowed by robots.txt"
        return None

    def _enqueue(self, raw: str, base: str | None = None) -> None:
        url = normalise_url(raw, base=base)
        if url is None or url in self.seen:
            return
        self.seen.add(url)
        if reason := self._page_refusal(url):
            self.report.refused[reason] += 1
            return
        if self.report.discovered >= self.max_pages:
            self.report.refused["over the page limit"] += 1
            return
        self.report.discovered += 1
        previous = self.known.get(url)
        if previous and previous.last_run == self.report.run_id and previous.last_outcome:
            self.report.outcomes[previous.last_outcome] += 1  # done before the run was interrupted
            self._enqueue_links(known_links(previous), url)
            return
        self.queue.put_nowait(url)

    def _enqueue_links(self, links: list[str], base: str) -> None:
        for link in links:
            self._enqueue(link, base=base)

    def _links(self, body: bytes, base: str) -> list[str]:
        """In-scope links of a page, normalised, in order, each once."""
        links = (normalise_url(raw, base=base) for raw in page_links(body))
        return list(dict.fromkeys(link for link in links if link and self.scope.on_host(link)))

    async def _worker(self, fetcher: PoliteFetcher) -> None:
        while True:
            url = await self.queue.get()
            try:
                await self._visit(url, fetcher)
            except Exception:  # one bad page must not stop the crawl; it is reported
                logger.exception("Crawling %s failed", url)
                self.report.issues.append(f"{url}: unexpected error (see the log with -v)")
            finally:
                self.queue.task_done()

    async def _visit(self, url: str, fetcher: PoliteFetcher) -> None:
        previous = self.known.get(url)
        now = time.time()
        structured: list[dict[str, Any]] | None = None  # the page's JSON-LD, when it was fetched whole
        if previous and previous.retry_at and previous.retry_at > now:
            record = deferred(previous, self.report.run_id)
        else:
            live = previous is not None and previous.live
            result = await fetcher.fetch(
                url,
                self.settings.crawl_max_page_bytes,
                etag=previous.etag if live and previous else None,
                last_modified=previous.last_modified if live and previous else None,
            )
            page = await asyncio.to_thread(extract_page, result.body, url) if result.kind == "ok" else None
            structured = json_ld(result.body) if page is not None else None
            record = next_record(
                previous,
                result,
                page,
                links=self._links(result.body, url) if result.kind == "ok" else None,
                run_id=self.report.run_id,
                now=time.time(),
                gone_after=self.settings.crawl_gone_after,
            )
        if previous is not None and record.last_outcome == "updated":
            self.replaced[url] = previous
        self.state.save(record)
        if structured is not None and record.live:
            self.state.save_structured(url, structured)
        self._enqueue_links(known_links(record), url)
        self.known[url] = record
        self.report.outcomes[str(record.last_outcome)] += 1
        logger.info("%s %s %s", record.last_outcome, url, record.last_reason or "")

    def hold_back_mass_change(self) -> None:
        """Keep the old text of pages that all changed to one template this run (maintenance)."""
        outcomes = self.report.outcomes
        refetched = outcomes["updated"] + outcomes["unchanged"] + outcomes["not_modified"]
        changed = {
            url: (previous.text or "", self.known[url].text or "") for url, previous in self.replaced.items()
        }
        suspect = mass_change(changed, refetched)
        if not suspect:
            return
        reason = f"changed to the same text as {len(suspect) - 1} other pages this run"
        for url in suspect:
            record = held_back(self.replaced[url], self.known[url], reason)
            self.state.save(record)
            self.known[url] = record
        outcomes["updated"] -= len(suspect)
        outcomes["suspect"] += len(suspect)
        self.report.suspect = sorted(suspect)
        self.report.issues.append(
            f"suspicious run: {len(suspect)} of {refetched} pages fetched again changed to the same text "
            "(a maintenance or error page?); their old text is kept. If the change is real, crawl again "
            "with --accept-changes."
        )


def _index_live_pages(
    state: CrawlState,
    settings: RagSettings,
    embedder: Embedder | None,
    progress: IndexProgress | None,
    report: CrawlReport,
) -> IndexReport | None:
    """Every live page through the indexer, with the pages gone as explicit removals.

    Pages past RAG_MAX_RUN_CHUNKS wait for the next run (they keep their old chunks meanwhile):
    each run then indexes a part, where refusing the whole would block every run."""
    documents = []
    for page in state.live_pages():
        record = {"url": page.url, "text": page.text or "", "title": page.title or None}
        record |= {key: value for key, value in (("language", page.language), ("date", page.date)) if value}
        document = page_from_record(record)
        if isinstance(document, Document):
            documents.append(document)
    gone = state.gone_urls()
    if not documents and not gone:
        return None
    documents, later = documents_within_cap(documents, settings)
    if later:
        report.pending = len(later)
        report.issues.append(
            f"{len(later)} pages wait for the next crawl run: indexing them now would embed more than "
            f"RAG_MAX_RUN_CHUNKS={settings.max_run_chunks:,} chunks (run the crawl again to index them)."
        )
    return index_documents(documents, settings, embedder, progress, remove_sources=gone)


def _counts(report: CrawlReport) -> str:
    counts = {**report.outcomes, **report.refused}
    return ", ".join(f"{count} {name}" for name, count in sorted(counts.items())) or "no page found"


def _details(report: CrawlReport) -> dict[str, Any]:
    """What the run record keeps beyond per-page outcomes."""
    index = report.index
    return {
        "discovered": report.discovered,
        "refused": dict(report.refused),
        "issues": report.issues[:50],
        "suspect": len(report.suspect),
        "pending": report.pending,
        "seconds": round(report.seconds, 3),
        "embedded": index.embedded if index else 0,
        "deleted": index.deleted if index else 0,
    }
