"""Crawl runs that must neither lose content nor get stuck: a maintenance page served site-wide, a
corrupt crawl state, two crawls at once, a crawl larger than the chunk cap (issue 22, parts 2-3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock
from rich.console import Console

import rag.indexer
from rag import cli
from rag.config import RagSettings
from rag.crawl.crawler import crawl_site
from rag.crawl.state import CrawlState, state_path
from rag.store import ChunkStore, open_client
from tests.conftest import HashingEmbedder, make_settings
from tests.local_site import LocalSite, generated_paragraphs, serve_generated_site, visitor_page

PAGES = 8


@pytest.fixture
def site(no_network_leaks: None) -> Iterator[LocalSite]:
    with LocalSite() as local:
        serve_generated_site(local, PAGES)
        yield local


@pytest.fixture
def settings(tmp_path: Path) -> RagSettings:
    return make_settings(tmp_path / "index", crawl_requests_per_second=100.0, crawl_retries=0)


@pytest.fixture
def _fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rag.indexer, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.indexer, "embedder_name", lambda settings: "fake/hashing-64")


def _texts_by_page(settings: RagSettings) -> dict[str, str]:
    store = ChunkStore.open(open_client(settings), settings.collection)
    pages: dict[str, str] = {}
    for _, text, meta in store.iter_records():
        pages[meta["source"]] = pages.get(meta["source"], "") + text
    return pages


def _state(settings: RagSettings) -> Path:
    return state_path(settings.index_dir, "embedded", settings.collection)


def _maintenance(site: LocalSite, number: int) -> None:
    """The page a site serves (with 200) while down for maintenance: it names the request."""
    text = [
        "Our website is currently undergoing scheduled maintenance and will be back shortly.",
        f"We apologise for the inconvenience. Reference {number * 7919} for {site.url(f'/{number}')}.",
    ]
    site.page(f"/collection/item-{number}.html", visitor_page("Maintenance", text))


def test_a_site_wide_maintenance_page_keeps_the_old_chunks_and_marks_the_run_suspicious(
    site: LocalSite, settings: RagSettings
) -> None:
    crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
    before = _texts_by_page(settings)
    for number in range(PAGES):
        _maintenance(site, number)

    report = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())

    assert _texts_by_page(settings) == before
    assert report.outcomes["suspect"] == PAGES and report.outcomes["updated"] == 0
    assert len(report.suspect) == PAGES and any("suspicious run" in issue for issue in report.issues)
    with CrawlState(_state(settings)) as state:
        summary = state.run_summary()
        assert summary is not None and len(summary.changes["suspect"]) == PAGES
        assert summary.details["suspect"] == PAGES

    serve_generated_site(site, PAGES)  # the site is back, as it was
    back = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())

    assert back.outcomes["suspect"] == 0 and back.outcomes["updated"] == 0
    assert back.index is not None and back.index.embedded == 0 and _texts_by_page(settings) == before


def test_a_mass_change_is_applied_when_the_operator_accepts_it(
    site: LocalSite, settings: RagSettings
) -> None:
    crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
    for number in range(PAGES):
        _maintenance(site, number)

    report = crawl_site(
        site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder(), accept_mass_change=True
    )

    assert report.outcomes["updated"] == PAGES and not report.suspect
    assert not any("north wing" in text for text in _texts_by_page(settings).values())


NEW_TEXTS = [
    "The Hall of Mirrors is lit by candles for the evening visits of December.",
    "Strollers must be left at the cloakroom before entering the royal apartments.",
    "The Queen's Hamlet farm shows rare breeds of sheep, goats and hens to children.",
    "Electric carts can be rented near the Grand Canal to tour the park in an hour.",
    "Photographs without flash are allowed everywhere except in temporary exhibitions.",
    "The orangery shelters more than a thousand trees in tubs during the winter months.",
    "Picnics are welcome in the park but not in the formal gardens near the palace.",
    "The opera house of the palace hosts ballets and baroque operas in the spring.",
]


def test_ordinary_edits_of_every_page_are_applied(site: LocalSite, settings: RagSettings) -> None:
    crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
    for number in range(PAGES):  # every page rewritten, each to its own new text
        site.page(f"/collection/item-{number}.html", visitor_page(f"Item {number}", NEW_TEXTS[number:][:3]))

    report = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())

    assert report.outcomes["updated"] == PAGES and not report.suspect


def test_new_figures_in_every_page_of_a_catalogue_are_applied(site: LocalSite, settings: RagSettings) -> None:
    crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
    for number in range(PAGES):  # the same template on every page: only its figures change
        page = visitor_page(f"Collection item {number}", generated_paragraphs(number, version=1))
        site.page(f"/collection/item-{number}.html", page)

    report = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())

    assert report.outcomes["updated"] == PAGES and not report.suspect


def test_a_crawl_larger_than_the_chunk_cap_progresses_run_by_run(site: LocalSite, tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path / "index", crawl_requests_per_second=100.0, crawl_retries=0, max_run_chunks=5
    )
    indexed = []
    for _ in range(4):  # 8 pages of 2 chunks each: 2 pages a run
        report = crawl_site(site.url("/collection/item-0.html"), settings, embedder=HashingEmbedder())
        indexed.append(len(_texts_by_page(settings)))
        assert report.index is not None and report.index.embedded <= 5

    assert indexed == [2, 4, 6, 8]
    assert report.pending == 0 and not report.issues


def test_a_corrupt_crawl_state_is_one_sentence_with_the_repair_and_is_kept(
    site: LocalSite,
    settings: RagSettings,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    _fake_model: None,
) -> None:
    path = _state(settings)
    index = ["--index", str(settings.index_dir), "--collection", settings.collection]
    assert cli.main(["crawl", site.url("/collection/"), *index, "--quiet"]) == 0
    for leftover in path.parent.glob(f"{path.name}-*"):  # the WAL files of the good state
        leftover.unlink()
    path.write_bytes(b"this is not a database" * 100)
    monkeypatch.setattr(cli, "errors", Console(stderr=True, width=1000))
    capsys.readouterr()

    crawl = cli.main(["crawl", site.url("/collection/"), *index, "--quiet"])
    crawl_err = " ".join(capsys.readouterr().err.split())
    stats = cli.main(["stats", *index])
    stats_err = " ".join(capsys.readouterr().err.split())

    for code, err in ((crawl, crawl_err), (stats, stats_err)):
        assert code == 2 and "Traceback" not in err
        assert f"mv {path} {path}.bad" in err and "is unreadable" in err
    assert path.read_bytes() == b"this is not a database" * 100  # never deleted or rewritten


def test_a_second_crawl_of_the_same_collection_is_refused_while_one_runs(
    site: LocalSite, settings: RagSettings, capsys: pytest.CaptureFixture[str], _fake_model: None
) -> None:
    path = _state(settings)
    path.parent.mkdir(parents=True)
    index = ["--index", str(settings.index_dir), "--collection", settings.collection, "--quiet"]

    with FileLock(path.with_name(f"{path.name}.lock"), timeout=0):  # what the running crawl holds
        site.clear_requests()
        code = cli.main(["crawl", site.url("/collection/"), *index])
        err = " ".join(capsys.readouterr().err.split())

    assert code == 2 and "Another crawl of this collection is running" in err and "Traceback" not in err
    assert site.paths_requested() == []

    assert cli.main(["crawl", site.url("/collection/"), *index]) == 0  # the lock went with its holder
