"""``python -m agents insights``: the insights report as text, JSON or CSV files."""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from agents.config import AgentSettings
from agents.conversations.checkpoints import CheckpointStoreError, failure_reason, is_checkpoint_failure
from agents.insights.report import Insights, PageSearch, build_insights
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog
from rag.config import RagSettings
from rag.crawl.state import last_checked
from rag.embeddings import build_embedder
from rag.errors import RagError
from rag.retriever import HybridRetriever


def page_search(index: str | None) -> tuple[Any, PageSearch | None, dict[str, float]]:
    """The embedder, a search for the pages closest to a question (when an index exists), and when
    the crawler last checked each web page."""
    settings = RagSettings(index_dir=Path(index)) if index else RagSettings()
    embedder = build_embedder(settings)
    checked = last_checked(settings)
    try:
        retriever = HybridRetriever(settings, embedder=embedder)
    except (RagError, FileNotFoundError):  # no index yet: the gaps are listed without their closest pages
        return embedder, None, checked

    def search(question: str) -> list[dict[str, str]]:
        seen: dict[str, dict[str, str]] = {}
        for hit in retriever.search(question, k=6):
            seen.setdefault(hit.source, {"title": hit.title, "url": hit.source})
        return list(seen.values())

    return embedder, search, checked


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text: visitors' words starting like a formula get a quote."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def _write_rows(path: Path, header: list[str], rows: Iterable[list[object]]) -> Path:
    """One CSV file, every cell made safe for a spreadsheet; a file left half-written is removed."""
    try:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(header)
            writer.writerows(list(map(cell, row)) for row in rows)
    except OSError:
        path.unlink(missing_ok=True)
        raise
    return path


def csv_failure(folder: Path, error: OSError) -> str:
    """One sentence for an export that could not be written: what failed and what to do."""
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        return f"--csv {folder} is a file, not a folder: give a folder (it is created if missing)."
    reason = error.strerror or type(error).__name__
    return (
        f"The CSV files could not be written into {folder} ({reason}): "
        "free some space or choose another folder."
    )


def write_csv(folder: Path, turns: list[LoggedQuestion], report: Insights) -> list[Path]:
    """questions.csv (one row per logged turn, with its group) and groups.csv (one per group)."""
    folder.mkdir(parents=True, exist_ok=True)
    questions = _write_rows(
        folder / "questions.csv",
        ["time", "question", "language", "kind", "feedback", "comment", "missing", "sources", "model",
         "latency_ms", "group"],
        (
            [
                datetime.fromtimestamp(turn.asked_at, UTC).isoformat(timespec="seconds"),
                turn.question,
                turn.language,
                turn.kind,
                turn.feedback or "",
                turn.comment or "",
                " | ".join(turn.missing),
                " ".join(source.get("url", "") for source in turn.sources),
                turn.model,
                turn.latency_ms,
                report.group_of.get(turn.question, ""),
            ]
            for turn in turns
        ),
    )  # fmt: skip
    groups = _write_rows(
        folder / "groups.csv",
        ["group", "label", "size", "languages", "answered", "partial", "not_found", "not_helpful",
         "missing"],
        (
            [
                group.id,
                group.label,
                group.size,
                " ".join(f"{lang}:{n}" for lang, n in group.languages.items()),
                group.answered,
                group.partial,
                group.not_found,
                group.not_helpful,
                " | ".join(group.missing),
            ]
            for group in report.groups
        ),
    )  # fmt: skip
    return [questions, groups]


def _print_text(report: Insights, console: Console) -> None:
    console.print(f"{report.questions} questions in the last {report.days} days.")
    languages = ", ".join(f"{lang} {count}" for lang, count in report.by_language.items())
    console.print(f"By language: {escape(languages) or 'none'}")
    console.print(f"[bold]Groups ({len(report.groups)})[/]")
    for group in report.groups[:20]:
        console.print(
            f"  {group.id:>3}. {escape(group.label)}  [dim]{group.size} questions, "
            f"{', '.join(group.languages)}; not found {group.not_found:.0%}, partial {group.partial:.0%}, "
            f"not helpful {group.not_helpful:.0%}[/]"
        )
    console.print(f"[bold]Content gaps ({len(report.gaps)})[/]")
    for gap in report.gaps:
        console.print(f"  {gap.id:>3}. {escape(gap.label)}  [dim]{gap.failing} failing turns[/]")
        for part in gap.missing:
            console.print(f"       missing: {escape(part)}")
        for page in gap.pages:
            console.print(f"       closest: {escape(page['title'])} — {escape(page['url'])}")
    console.print(
        f"[bold]Cited pages not checked for {report.stale_after_days} days ({len(report.stale_sources)})[/]"
    )
    for source in report.stale_sources:
        when = (
            datetime.fromtimestamp(source.last_checked, UTC).date().isoformat()
            if source.last_checked
            else "never"
        )
        console.print(f"  {source.citations:>4} citations  {escape(source.url)}  [dim]last checked {when}[/]")


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    if args.days < 1 or args.stale_days < 1:
        errors.print("[red]error:[/] --days and --stale-days must be at least 1.")
        return 2
    log = QuestionLog.for_settings(AgentSettings())
    embedder, search, checked = page_search(args.index)
    try:
        report = build_insights(
            log, embedder, days=args.days, search=search, checked=checked, stale_after_days=args.stale_days
        )
        turns = log.questions(time.time() - args.days * DAY_SECONDS) if args.csv else []
    except Exception as error:
        if not is_checkpoint_failure(error):
            raise
        reason = failure_reason(error, log.database.postgres_url)
        raise CheckpointStoreError(
            f"The questions log in {log.description} cannot be read ({reason}): "
            "check AGENT_CHECKPOINT_URL or AGENT_CHECKPOINT_PATH."
        ) from error
    if args.csv:
        try:
            written = write_csv(Path(args.csv), turns, report)
        except OSError as error:
            errors.print(f"[red]error:[/] {escape(csv_failure(Path(args.csv), error))}")
            return 2
        for path in written:
            errors.print(f"Wrote {path}")
    if args.json:
        print(json.dumps(report.model_dump(), ensure_ascii=False))
    else:
        _print_text(report, console)
    return 0
