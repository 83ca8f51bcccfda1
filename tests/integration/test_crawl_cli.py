"""``python -m rag crawl`` and what ``python -m rag stats`` shows of crawls afterwards."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

import rag.indexer
from rag import cli
from tests.conftest import HashingEmbedder
from tests.local_site import LocalSite, serve_generated_site


@pytest.fixture(autouse=True)
def _fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rag.indexer, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.indexer, "embedder_name", lambda settings: "fake/hashing-64")


@pytest.fixture
def site(no_network_leaks: None) -> Iterator[LocalSite]:
    with LocalSite() as local:
        serve_generated_site(local, 6, per_sitemap=3)
        yield local


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_crawl_then_stats_show_what_was_fetched_and_changed(
    site: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = str(tmp_path / "index")
    crawl = ["crawl", site.url("/collection/"), "--index", index, "--rate", "50", "--quiet"]

    assert cli.main(crawl) == 0
    out = _one_line(capsys.readouterr().out)
    assert "6 added" in out and "6 pages, 6 chunks; 6 embedded" in out

    del site.routes["/collection/item-2.html"]
    assert cli.main(crawl) == 0 and cli.main(crawl) == 0
    out = _one_line(capsys.readouterr().out)
    assert "1 removed" in out and "5 not modified" in out

    monkeypatch.setattr(cli, "console", Console(width=300))  # one table row per line
    assert cli.main(["stats", "--index", index, "--pages"]) == 0
    stats = _one_line(capsys.readouterr().out)
    assert "5 crawled pages live" in stats and "last run 3 finished" in stats
    assert f"removed: {site.url('/collection/item-2.html')}" in stats
    assert f"{site.url('/collection/item-0.html')} │ yes" in stats and "not_modified" in stats


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["crawl", "example.org"], "is not an http(s) URL"),
        (
            ["crawl", "http://127.0.0.1:9/", "--allow", "https://other.example/"],
            "stays on the start URL's host",
        ),
        (["crawl", "http://127.0.0.1:9/", "--sitemap", "ftp://127.0.0.1/s.xml"], "--sitemap"),
    ],
)
def test_unusable_arguments_exit_2_in_one_sentence(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main([*arguments, "--index", str(tmp_path / "index")])

    err = capsys.readouterr().err
    assert code == 2 and message in _one_line(err) and len(err.strip().splitlines()) <= 2
    assert "Traceback" not in err and not (tmp_path / "index").exists()


def test_a_site_that_does_not_answer_exits_2_and_creates_nothing(
    no_network_leaks: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with LocalSite() as site:
        url = site.url("/")
    code = cli.main(["crawl", url, "--index", str(tmp_path / "index")])  # the server is stopped

    err = _one_line(capsys.readouterr().err)
    assert code == 2 and "robots.txt could not be read" in err and "run the crawl again later" in err
    assert not (tmp_path / "index" / "chroma.sqlite3").exists()


def test_max_pages_must_be_a_positive_whole_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["crawl", "http://127.0.0.1:9/", "--max-pages", "0"])

    assert exit_info.value.code == 2 and "at least 1" in capsys.readouterr().err


def test_the_crawl_delay_of_robots_txt_spaces_every_request(
    no_network_leaks: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with LocalSite() as site:
        serve_generated_site(site, 2)
        robots = site.routes["/robots.txt"]
        robots.body = robots.body.replace(b"Disallow: /private/", b"Disallow: /private/\nCrawl-delay: 1")

        code = cli.main(
            ["crawl", site.url("/collection/item-0.html"), "--index", str(tmp_path), "--rate", "50"]
        )

    arrivals = [request.at for request in site.requests]
    assert code == 0 and len(arrivals) == 5  # robots.txt, sitemap index, one sitemap, two pages
    after_robots = arrivals[1:]  # the delay is known once robots.txt is read
    assert min(later - earlier for earlier, later in itertools.pairwise(after_robots)) >= 0.95
