"""``python -m rag crawl URL``: fetch a website into the index; rerun to update."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape

from rag.commands.options import settings_from
from rag.crawl.crawler import crawl_site
from rag.progress import RichIndexProgress


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    settings = settings_from(args)
    report = crawl_site(
        args.url,
        settings,
        sitemap=args.sitemap,
        allow=args.allow or (),
        max_pages=args.max_pages,
        progress=None if args.quiet else RichIndexProgress(),
        accept_mass_change=args.accept_changes,
    )
    for issue in report.issues:
        errors.print(f"[yellow]warning[/] {escape(issue)}")
    outcomes = ", ".join(
        f"{count} {name.replace('_', ' ')}" for name, count in sorted(report.outcomes.items())
    )
    refused = ", ".join(f"{count} {reason}" for reason, count in sorted(report.refused.items()))
    index = report.index
    console.print(
        f"Crawl run {report.run_id}{' (resumed)' if report.resumed else ''}: {report.discovered} pages "
        f"in scope, {report.requests} requests in {report.fetch_seconds:.1f} s; "
        f"{outcomes or 'nothing fetched'}." + (f" Not fetched: {refused}." if refused else ""),
        markup=False,
    )
    if index is not None:
        console.print(
            f"Index {settings.index_dir}/{settings.collection}: {index.documents} pages, "
            f"{index.chunks} chunks; {index.embedded} embedded, {index.deleted} removed; "
            f"{report.seconds:.1f} s in all.",
            markup=False,
        )
    return 0
