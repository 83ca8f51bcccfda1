"""``python -m rag stats``: what the index holds, how it was built, how fresh crawled pages are."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rag.commands.options import settings_from
from rag.stats import CrawlFreshness, crawl_freshness, knowledge_base_stats

CHANGES_SHOWN = 10  # URLs listed per kind of change; the rest are counted


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    settings = settings_from(args)
    table = Table("collection", "chunks", "documents", "embedding", "dim", "languages", "complete")
    rows = knowledge_base_stats(settings, args.collection)
    for row in rows:
        table.add_row(
            row["collection"],
            str(row["chunks"]),
            str(row["documents"] if row["documents"] is not None else "?"),
            str(row["embedding_model"] or "?"),
            str(row["embedding_dimension"] or "?"),
            ",".join(row["languages"]) or "?",
            "yes" if row["complete"] else "NO: rerun python -m rag index",
        )
    console.print(table)
    for name in args.collection or [str(row["collection"]) for row in rows]:
        _print_crawl_freshness(crawl_freshness(settings, name), args.pages, console)
    return 0


def _print_crawl_freshness(freshness: CrawlFreshness | None, every_page: bool, console: Console) -> None:
    """Last crawl run's changes, and the last fetch of each crawled page with --pages."""
    if freshness is None:
        return
    run = freshness.last_run
    live = sum(1 for source in freshness.sources if source.live)
    oldest = freshness.oldest_fetch
    console.print(
        f"[bold]{escape(freshness.collection)}[/]: {live} crawled pages live"
        + (f", oldest fetched {oldest:%Y-%m-%d %H:%M} UTC" if oldest else "")
    )
    if run is not None:
        when = datetime.fromtimestamp(run.finished_at or run.started_at, tz=UTC)
        state = (
            f"finished {when:%Y-%m-%d %H:%M} UTC" if run.finished_at else "INTERRUPTED: run the crawl again"
        )
        counts = ", ".join(
            f"{count} {name.replace('_', ' ')}" for name, count in sorted(run.outcomes.items())
        )
        console.print(
            f"  last run {run.run_id} {state}: {run.requests} requests; {counts or 'no page'}", markup=False
        )
        for outcome, urls in sorted(run.changes.items()):
            shown = ", ".join(urls[:CHANGES_SHOWN]) + (
                f" and {len(urls) - CHANGES_SHOWN} more" if len(urls) > CHANGES_SHOWN else ""
            )
            console.print(f"  {outcome}: {shown}", markup=False)
    if every_page:
        table = Table("page", "live", "last fetched (UTC)", "last changed (UTC)", "last outcome")
        for source in freshness.sources:
            table.add_row(
                escape(source.url),
                "yes" if source.live else "no",
                f"{source.last_fetched:%Y-%m-%d %H:%M}" if source.last_fetched else "never",
                f"{source.last_changed:%Y-%m-%d %H:%M}" if source.last_changed else "-",
                escape(" ".join(part for part in (source.last_outcome, source.reason) if part)),
            )
        console.print(table)
