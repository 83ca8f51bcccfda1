"""``python -m rag index``: index files or folders into a collection."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from rag.commands.options import settings_from
from rag.config import DEFAULT_CORPUS
from rag.indexer import index_corpus
from rag.progress import index_progress


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    paths = [Path(p) for p in args.paths] or [DEFAULT_CORPUS]
    settings = settings_from(args)
    progress = None if args.quiet else index_progress(errors)
    report = index_corpus(paths, settings, progress=progress, rebuild=args.rebuild, prune=args.prune)
    for issue in report.issues:
        errors.print(f"[yellow]skipped[/] {escape(str(issue))}")
    for cut in report.cut:
        errors.print(f"[yellow]cut[/] {escape(str(cut))}")
    for warning in report.warnings:
        errors.print(f"[yellow]warning[/] {escape(str(warning))}")
    console.print(
        f"Indexed {report.documents} documents ({report.records_read} records read) into "
        f"{report.chunks} chunks in {settings.index_dir}/{settings.collection}: "
        f"{report.embedded} embedded, {report.deleted} removed, "
        f"{report.metadata_updated} metadata updated; languages {', '.join(report.languages)}; "
        f"{report.seconds:.1f} s ({report.embed_seconds:.1f} s embedding).",
        soft_wrap=True,  # one line in a log too (off a terminal rich would wrap at 80 columns)
    )
    if report.kept_unlisted:
        why = "some files could not be read" if args.prune else "add --prune to remove them"
        console.print(
            f"Kept {report.kept_unlisted} chunks of documents not listed in this run ({why}).", soft_wrap=True
        )
    return 0
