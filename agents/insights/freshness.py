"""The web pages the agent cites most that the crawler has not re-checked for a while (they may have
changed since); when each page was last checked is read by ``rag.crawl.state.last_checked``."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from agents.insights.store import DAY_SECONDS, LoggedQuestion

STALE_AFTER_DAYS = 30


class StaleSource(BaseModel):
    """A web page visitors were shown often whose last check is older than the limit (or unknown)."""

    url: str
    title: str
    citations: int
    last_checked: float | None  # epoch seconds of the crawler's last 200 or 304; None: never crawled


def stale_sources(
    turns: Sequence[LoggedQuestion],
    checked: dict[str, float],
    older_than_days: int = STALE_AFTER_DAYS,
    now: float | None = None,
    limit: int = 20,
) -> list[StaleSource]:
    """The web pages cited in ``turns``, most cited first, not checked in ``older_than_days`` days."""
    cutoff = (now or time.time()) - older_than_days * DAY_SECONDS
    counts: Counter[str] = Counter()
    titles: dict[str, str] = {}
    for turn in turns:
        for source in turn.sources:
            url = source.get("url", "")
            if url.startswith(("http://", "https://")):
                counts[url] += 1
                titles.setdefault(url, source.get("title", ""))
    return [
        StaleSource(url=url, title=titles[url], citations=count, last_checked=checked.get(url))
        for url, count in counts.most_common()
        if checked.get(url, 0.0) < cutoff
    ][:limit]
