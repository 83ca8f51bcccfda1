"""The console's list of cited pages not re-checked lately: most cited first, web pages only."""

from __future__ import annotations

from agents.insights.freshness import stale_sources
from agents.insights.store import DAY_SECONDS, LoggedQuestion

NOW = 1_800_000_000.0
OLD, FRESH, NEVER = "https://site.example/old", "https://site.example/fresh", "https://site.example/never"


def turn(*urls: str) -> LoggedQuestion:
    return LoggedQuestion("q", "en", "answered", sources=[{"title": url[-5:], "url": url} for url in urls])


def test_pages_cited_most_and_not_checked_for_n_days_are_listed_most_cited_first() -> None:
    turns = [turn(OLD, FRESH), turn(OLD, NEVER), turn(OLD), turn(NEVER), turn(NEVER), turn("guides/hours.md")]
    checked = {OLD: NOW - 45 * DAY_SECONDS, FRESH: NOW - 2 * DAY_SECONDS}

    stale = stale_sources(turns, checked, older_than_days=30, now=NOW)

    assert [(source.url, source.citations) for source in stale] == [(OLD, 3), (NEVER, 3)]
    assert stale[0].last_checked == checked[OLD] and stale[1].last_checked is None


def test_a_longer_limit_lists_fewer_pages() -> None:
    checked = {OLD: NOW - 45 * DAY_SECONDS}
    assert stale_sources([turn(OLD)], checked, older_than_days=60, now=NOW) == []
