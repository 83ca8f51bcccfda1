"""Crawling a local site (127.0.0.1) into a real index: fetched, skipped, updated, removed, resumed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import rag.crawl.crawler
from rag.config import RagSettings
from rag.crawl.crawler import CrawlError, CrawlReport, crawl_site
from rag.crawl.state import CrawlState, state_path
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.stats import crawl_freshness
from rag.store import ChunkStore, open_client
from tests.conftest import REPO_ROOT, HashingEmbedder, make_settings, write_corpus
from tests.local_site import LocalSite, sitemap, sitemap_index, visitor_page

VISIT = ["hours", "tickets", "closing", "slow", "busy"]
MENU = ["/visit/hours.html", "/visit/tickets.html", "/private/staff.html", "https://example.org/elsewhere"]
TEXTS = {
    "hours": [
        "The palace opens at nine in the morning and closes at half past six in the evening.",
        "It is closed every Monday, on Christmas day and on the first of May.",
    ],
    "tickets": [
        "The passport ticket gives access to the palace, the Trianon estate and the gardens.",
        "It costs thirty two euros and is sold online and at the ticket desks of the estate.",
    ],
    "closing": [
        "The temporary exhibition about the royal carriages closes at the end of the month.",
        "The carriage gallery then shuts for restoration work until the spring.",
    ],
    "slow": [
        "The musical fountain shows take place every weekend from April to October.",
        "The fountains of the Neptune basin play at the end of each show with music.",
    ],
    "busy": [
        "Guided tours of the private apartments of the king leave every hour from the north wing.",
        "Booking a guided tour in advance is strongly recommended during school holidays.",
    ],
    "concert": [
        "A baroque concert is given in the Royal Chapel every Saturday evening this winter.",
        "The choir and orchestra perform music written for the court of Louis the Fourteenth.",
    ],
    "groups": [
        "Groups of more than ten visitors must book a time slot and enter through the group entrance.",
        "Group leaders receive a free ticket and may use an audio system for their explanations.",
    ],
}


@pytest.fixture
def site(no_network_leaks: None) -> Iterator[LocalSite]:
    """A small museum site: robots.txt, a sitemap index with two sitemaps, menus on every page."""
    with LocalSite() as local:
        for name in VISIT:
            _serve(local, f"/visit/{name}.html", name)
        _serve(local, "/news/concert.html", "concert")
        _serve(local, "/visit/groups.html", "groups")  # in no sitemap: found by a link only
        _serve(local, "/private/staff.html", "hours")
        local.page(
            "/robots.txt",
            f"User-agent: *\nDisallow: /private/\nSitemap: {local.url('/sitemap_index.xml')}\n",
            content_type="text/plain",
        )
        children = [local.url("/sitemaps/visit.xml"), local.url("/sitemaps/news.xml")]
        local.page("/sitemap_index.xml", sitemap_index(children), content_type="application/xml")
        visit_urls = [local.url(f"/visit/{name}.html") for name in VISIT]
        local.page("/sitemaps/visit.xml", sitemap(visit_urls), content_type="application/xml")
        news_urls = [local.url("/news/concert.html"), local.url("/private/staff.html")]
        local.page("/sitemaps/news.xml", sitemap(news_urls), content_type="application/xml")
        local.page("/", visitor_page("Home", ["Welcome to the estate."], links=[*MENU, "/visit/groups.html"]))
        yield local


def _serve(site: LocalSite, path: str, name: str, **route: object) -> None:
    site.page(path, visitor_page(name.title(), TEXTS[name], links=MENU), **route)


@pytest.fixture
def crawl_settings(tmp_path: Path) -> RagSettings:
    return make_settings(
        tmp_path / "index",
        crawl_requests_per_second=100.0,
        crawl_timeout_seconds=1.0,
        crawl_retries=0,
        crawl_max_retry_wait_seconds=0.0,
    )


def _crawl(
    site: LocalSite, settings: RagSettings, embedder: HashingEmbedder, **options: object
) -> CrawlReport:
    return crawl_site(site.url("/"), settings, embedder=embedder, **options)  # type: ignore[arg-type]


def _chunks_by_page(site: LocalSite, settings: RagSettings) -> dict[str, set[str]]:
    store = ChunkStore.open(open_client(settings), settings.collection)
    pages: dict[str, set[str]] = {}
    for chunk_id, meta in store.all_metadata().items():
        pages.setdefault(meta["source"].removeprefix(site.origin), set()).add(chunk_id)
    return pages


def test_a_first_crawl_follows_robots_the_sitemap_index_and_links(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    report = _crawl(site, crawl_settings, fake_embedder)

    requested = site.paths_requested()
    assert requested[:2] == ["/robots.txt", "/sitemap_index.xml"]
    assert {"/sitemaps/visit.xml", "/sitemaps/news.xml", "/visit/groups.html"} <= set(requested)
    assert "/private/staff.html" not in requested  # disallowed by robots.txt, listed in a sitemap
    assert all(r.headers["User-Agent"].startswith("VersaillesVisitorAssistant/") for r in site.requests)
    assert report.outcomes["added"] == 8 and report.refused["disallowed by robots.txt"] == 1
    freshness = crawl_freshness(crawl_settings)
    assert freshness is not None and all(s.url.startswith(site.origin) for s in freshness.sources)
    pages = _chunks_by_page(site, crawl_settings)
    assert set(pages) == {f"/visit/{name}.html" for name in [*VISIT, "groups"]} | {"/news/concert.html", "/"}
    texts = [text for _, text, _ in ChunkStore.open(open_client(crawl_settings), "test_kb").iter_records()]
    assert not any(debris in text for text in texts for debris in ("Menu 0", "Legal notice", "Write to us"))


def test_answers_cite_the_page_url(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _crawl(site, crawl_settings, fake_embedder)

    hits = HybridRetriever(crawl_settings, embedder=fake_embedder).search("passport ticket price euros", k=1)

    assert hits[0].source == site.url("/visit/tickets.html") and "thirty two euros" in hits[0].text


def test_a_second_crawl_sends_conditional_requests_and_replaces_only_the_changed_page(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _crawl(site, crawl_settings, fake_embedder)
    before = _chunks_by_page(site, crawl_settings)
    site.clear_requests()
    changed = [TEXTS["tickets"][0], "It now costs thirty five euros and is sold online only."]
    site.page("/visit/tickets.html", visitor_page("Tickets", changed, links=MENU))

    report = _crawl(site, crawl_settings, fake_embedder)

    after = _chunks_by_page(site, crawl_settings)
    assert report.outcomes["updated"] == 1 and report.outcomes["not_modified"] == 7
    pages = [r for r in site.requests if r.path.endswith(".html") or r.path == "/"]
    assert all("If-None-Match" in r.headers for r in pages)
    assert {path: ids for path, ids in after.items() if path != "/visit/tickets.html"} == {
        path: ids for path, ids in before.items() if path != "/visit/tickets.html"
    }
    assert after["/visit/tickets.html"] != before["/visit/tickets.html"]
    assert report.index is not None and report.index.embedded == len(
        after["/visit/tickets.html"] - before["/visit/tickets.html"]
    )
    hits = HybridRetriever(crawl_settings, embedder=fake_embedder).search("ticket thirty five euros", k=1)
    assert "thirty five euros" in hits[0].text


def test_new_html_around_the_same_text_costs_one_hash_and_no_embedding(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _serve(site, "/visit/hours.html", "hours", validators=False)
    _crawl(site, crawl_settings, fake_embedder)
    page = site.routes["/visit/hours.html"]
    page.body = page.body.replace(b"All rights reserved", b"All rights reserved. Updated today")

    report = _crawl(site, crawl_settings, fake_embedder)

    assert report.outcomes["unchanged"] == 1 and report.index is not None and report.index.embedded == 0


def test_a_page_that_disappears_is_removed_the_second_time_only(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _crawl(site, crawl_settings, fake_embedder)
    del site.routes["/visit/closing.html"]

    first = _crawl(site, crawl_settings, fake_embedder)

    assert first.outcomes["missing"] == 1 and "/visit/closing.html" in _chunks_by_page(site, crawl_settings)

    second = _crawl(site, crawl_settings, fake_embedder)

    assert second.outcomes["removed"] == 1 and "/visit/closing.html" not in _chunks_by_page(
        site, crawl_settings
    )
    assert second.index is not None and second.index.deleted > 0
    freshness = crawl_freshness(crawl_settings)
    assert freshness is not None and freshness.last_run is not None
    assert freshness.last_run.changes["removed"] == [site.url("/visit/closing.html")]


def test_transient_failures_keep_their_chunks_and_are_retried_later(
    site: LocalSite,
    crawl_settings: RagSettings,
    fake_embedder: HashingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _crawl(site, crawl_settings, fake_embedder)
    before = _chunks_by_page(site, crawl_settings)
    site.routes["/visit/slow.html"].delay = 3.0  # past the 1 s timeout
    _serve(site, "/visit/busy.html", "busy", status=429, headers={"Retry-After": "60"})
    site.clear_requests()

    failing = _crawl(site, crawl_settings, fake_embedder)

    assert failing.outcomes["failed"] == 2
    assert _chunks_by_page(site, crawl_settings) == before
    assert site.paths_requested().count("/visit/busy.html") == 1

    site.routes["/visit/slow.html"].delay = 0.0
    site.clear_requests()
    waiting = _crawl(site, crawl_settings, fake_embedder)

    assert waiting.outcomes["deferred"] == 1 and "/visit/busy.html" not in site.paths_requested()
    assert "/visit/slow.html" in site.paths_requested()

    later = SimpleNamespace(time=lambda: time.time() + 61, perf_counter=time.perf_counter)
    monkeypatch.setattr(rag.crawl.crawler, "time", later)  # the minute asked for has passed
    _serve(site, "/visit/busy.html", "busy")
    site.clear_requests()
    back = _crawl(site, crawl_settings, fake_embedder)

    assert "/visit/busy.html" in site.paths_requested() and back.outcomes["failed"] == 0
    assert _chunks_by_page(site, crawl_settings) == before


def test_a_killed_crawl_resumes_without_fetching_again(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    state = state_path(crawl_settings.index_dir, "embedded", crawl_settings.collection)
    command = [sys.executable, "-m", "rag", "crawl", site.url("/"), "--index", str(crawl_settings.index_dir)]
    command += ["--collection", crawl_settings.collection, "--rate", "5", "--quiet"]
    crawl = subprocess.Popen(command, cwd=REPO_ROOT, env={**os.environ}, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(_saved_pages(state)) < 3 and crawl.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        crawl.kill()  # SIGKILL: no clean-up, as when the machine stops
        crawl.wait()
    saved = _saved_pages(state)
    assert 3 <= len(saved) < 8, "the crawl was not killed while fetching"
    site.clear_requests()

    report = _crawl(site, crawl_settings, fake_embedder)

    assert report.resumed
    assert not {url.removeprefix(site.origin) for url in saved} & set(site.paths_requested())
    assert report.outcomes["added"] == 8
    assert len(_chunks_by_page(site, crawl_settings)) == 8


def _saved_pages(path: Path) -> list[str]:
    if not path.exists():
        return []
    with CrawlState(path) as state:
        return list(state.pages())


def test_allowed_prefixes_and_the_page_limit_bound_the_crawl(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    report = _crawl(site, crawl_settings, fake_embedder, allow=["/visit/"], max_pages=3)

    fetched = [path for path in site.paths_requested() if path.endswith(".html") or path == "/"]
    assert len(fetched) == 3 and all(path.startswith("/visit/") for path in fetched)
    assert report.refused["over the page limit"] > 0


def test_crawled_pages_and_indexed_files_share_a_collection(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder, corpus: Path
) -> None:
    index_corpus([corpus], crawl_settings, embedder=fake_embedder)
    files = {path: ids for path, ids in _chunks_by_page(site, crawl_settings).items()}

    _crawl(site, crawl_settings, fake_embedder)
    del site.routes["/visit/closing.html"]
    _crawl(site, crawl_settings, fake_embedder)
    _crawl(site, crawl_settings, fake_embedder)

    pages = _chunks_by_page(site, crawl_settings)
    assert {path: pages[path] for path in files} == files
    assert "/visit/closing.html" not in pages and "/visit/hours.html" in pages


def test_an_unreadable_robots_txt_stops_the_crawl_and_removes_nothing(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    _crawl(site, crawl_settings, fake_embedder)
    before = _chunks_by_page(site, crawl_settings)
    site.page("/robots.txt", "down", status=503, content_type="text/plain")
    del site.routes["/visit/closing.html"]

    with pytest.raises(CrawlError, match=r"robots\.txt could not be read \(HTTP 503\)"):
        _crawl(site, crawl_settings, fake_embedder)

    assert _chunks_by_page(site, crawl_settings) == before
    assert site.paths_requested()[-1] == "/robots.txt"


def test_crawled_pages_do_not_change_the_language_of_the_files_beside_them(
    site: LocalSite, crawl_settings: RagSettings, fake_embedder: HashingEmbedder, tmp_path: Path
) -> None:
    french = {
        f"visite/page-{n}.fr.md": f"# Page {n}\n\nLe château ouvre à neuf heures et la galerie {n} ferme "
        "à dix-huit heures trente, sauf le lundi, jour de fermeture hebdomadaire du musée."
        for n in range(4)
    }
    index_corpus([write_corpus(tmp_path / "fr", french)], crawl_settings, embedder=fake_embedder)

    crawl_site(site.url("/news/concert.html"), crawl_settings, embedder=fake_embedder)  # one English page

    info = ChunkStore.open(open_client(crawl_settings), crawl_settings.collection).info
    assert info["main_language"] == "fr" and "en" in info["languages"].split(",")
