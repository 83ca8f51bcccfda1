"""The crawl state resumes an interrupted run of the same crawl, and summarises each run."""

from __future__ import annotations

from pathlib import Path

from rag.crawl.state import CrawlState, PageRecord


def test_an_interrupted_run_of_the_same_crawl_is_resumed(tmp_path: Path) -> None:
    with CrawlState(tmp_path / "state.sqlite3") as state:
        first, resumed = state.start_run("site A")
        again, resumed_again = state.start_run("site A")

    assert (resumed, again, resumed_again) == (False, first, True)


def test_another_crawl_closes_the_interrupted_run_and_starts_its_own(tmp_path: Path) -> None:
    with CrawlState(tmp_path / "state.sqlite3") as state:
        first, _ = state.start_run("site A")
        other, resumed = state.start_run("site A, other prefixes")
        closed = state.run_summary(first)

    assert other != first and not resumed and closed is not None and closed.finished_at is not None


def test_the_run_summary_counts_outcomes_and_lists_changes(tmp_path: Path) -> None:
    with CrawlState(tmp_path / "state.sqlite3") as state:
        run, _ = state.start_run("site")
        for url, outcome in [
            ("https://s/a", "added"),
            ("https://s/b", "not_modified"),
            ("https://s/c", "removed"),
        ]:
            state.save(
                PageRecord(
                    url=url, live=outcome != "removed", content_hash="h", last_run=run, last_outcome=outcome
                )
            )
        state.add_requests(run, 4)
        state.finish_run(run, {"embedded": 2})
        summary = state.run_summary()
        gone = state.gone_urls()

    assert summary is not None and summary.requests == 4 and summary.details == {"embedded": 2}
    assert summary.outcomes == {"added": 1, "not_modified": 1, "removed": 1}
    assert summary.changes == {"added": ["https://s/a"], "removed": ["https://s/c"]}
    assert gone == ["https://s/c"]
