"""What ``python -m rag stats`` prints from the index and the crawl state cannot drive the terminal.

A crawled link may hold terminal escapes (a title change, a screen clear, a fake prompt), line breaks
or bidi overrides; they are shown as U+FFFD, in the CLI and in what the console reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

import rag.retriever
from rag import cli
from rag.crawl.state import CrawlState, PageRecord, state_path
from rag.indexer import index_corpus, location_of
from rag.stats import crawl_freshness, printable
from tests.conftest import HashingEmbedder, make_settings

HOSTILE = "https://example.org/\x1b]0;pwned\x07\x1b[2J\x9b31m\r\nerror: run rm -rf\u202egnp.exe"
CONTROLS = ["\x1b", "\x07", "\x9b", "\r", "\u202e"]


@pytest.fixture
def crawled(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index whose crawl state holds a page with a hostile URL, changed in the last run."""
    monkeypatch.setattr(rag.retriever, "build_embedder", lambda settings: HashingEmbedder())
    settings = make_settings(tmp_path / "index")
    monkeypatch.setenv("RAG_COLLECTION", settings.collection)
    index_corpus([corpus], settings, embedder=HashingEmbedder())
    path = state_path(settings.index_dir, location_of(settings), settings.collection)
    path.parent.mkdir(parents=True, exist_ok=True)
    with CrawlState(path) as state:
        run, _ = state.start_run("test")
        state.save(
            PageRecord(
                url=HOSTILE,
                live=True,
                fetched_at=1.0,
                last_run=run,
                last_outcome="added",
                last_reason="\x1b[5m",
            )
        )
        state.finish_run(run, {})
    return settings.index_dir


def test_rag_stats_prints_no_control_character_from_the_index(
    crawled: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "console", Console(width=400))  # captured: rich adds no escape of its own

    assert cli.main(["stats", "--index", str(crawled), "--pages"]) == 0

    out = capsys.readouterr().out
    assert "example.org" in out and "pwned" in out
    for control in CONTROLS:
        assert control not in out


def test_the_freshness_the_console_reads_holds_no_control_character(
    crawled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    freshness = crawl_freshness(make_settings(crawled))

    assert freshness is not None and freshness.last_run is not None
    shown = [source.url for source in freshness.sources] + [
        url for urls in freshness.last_run.changes.values() for url in urls
    ]
    shown += [source.reason or "" for source in freshness.sources]
    for text in shown:
        assert not any(control in text for control in CONTROLS)
    assert "example.org/\ufffd]0;pwned" in freshness.sources[0].url


@pytest.mark.parametrize("text", ["\x00", "\x1b[31m", "a\nb", "\u2028", "\u200b", "\x7f", "\ufeff"])
def test_printable_replaces_every_control_or_format_character(text: str) -> None:
    assert printable(text).isprintable()


def test_printable_keeps_accents_and_other_scripts() -> None:
    assert (
        printable("Château de Versailles, ヴェルサイユ宮殿 €21")
        == "Château de Versailles, ヴェルサイユ宮殿 €21"
    )
