"""Command line of the knowledge base; all behaviour lives in the modules it calls."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rag.config import DEFAULT_CORPUS, RagSettings

CHANGES_SHOWN = 10  # URLs listed per kind of change; the rest are counted
console = Console()
errors = Console(stderr=True)


def _settings(args: argparse.Namespace) -> RagSettings:
    overrides: dict[str, Any] = {}
    if getattr(args, "index", None):
        overrides["index_dir"] = Path(args.index)
    for option in ("crawl_requests_per_second", "crawl_concurrency"):
        if getattr(args, option, None) is not None:
            overrides[option] = getattr(args, option)
    if getattr(args, "collection", None) and args.command in ("index", "crawl"):
        if len(args.collection) > 1:
            raise SystemExit(f"error: {args.command} writes one collection: give --collection once")
        overrides["collection"] = args.collection[0]
    return RagSettings(**overrides)


def _retriever(args: argparse.Namespace) -> Any:
    from rag.retriever import HybridRetriever

    collections = args.collection if args.command != "index" and args.collection else None
    return HybridRetriever(_settings(args), collections=collections)


def cmd_index(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from rag.indexer import index_corpus
    from rag.progress import index_progress

    paths = [Path(p) for p in args.paths] or [DEFAULT_CORPUS]
    settings = _settings(args)
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


def cmd_crawl(args: argparse.Namespace) -> int:
    from rag.crawl.crawler import crawl_site
    from rag.progress import RichIndexProgress

    settings = _settings(args)
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


def _filters(args: argparse.Namespace) -> Any:
    from rag.filters import SearchFilters

    return SearchFilters(
        categories=tuple(args.category or ()),
        source_prefix=args.source_prefix,
        languages=tuple(args.language or ()),
    )


def _hits_json(hits: list[Any]) -> list[dict[str, Any]]:
    """Search results as ``--json`` prints them: every field, scores rounded."""
    return [hit.rounded().model_dump(exclude={"number"}) for hit in hits]


def cmd_search(args: argparse.Namespace) -> int:
    from rag.retriever import QueryError

    if args.question is not None and not args.question.strip():
        raise QueryError("The query is empty: type a question or a few keywords.")
    retriever = _retriever(args)
    for name in retriever.incomplete:
        errors.print(
            f"[yellow]warning:[/] collection {name} is incomplete (an indexing run was interrupted): "
            "results may miss documents; rerun python -m rag index to finish it."
        )
    filters = _filters(args)
    if args.question is None:
        for line in sys.stdin:
            query = line.strip()
            if not query:
                continue
            hits = retriever.search(query, k=args.k, filters=filters)
            print(json.dumps({"query": query, "hits": _hits_json(hits)}, ensure_ascii=False))
        return 0
    hits = retriever.search(args.question, k=args.k, filters=filters)
    if args.json:
        print(json.dumps({"query": args.question, "hits": _hits_json(hits)}, ensure_ascii=False))
        return 0
    for rank, hit in enumerate(hits, 1):
        where = " > ".join(p for p in (hit.title, hit.headings) if p)
        console.rule(f"[{rank}] {where}")
        stages = ", ".join(f"{name} {value:.2f}" for name, value in hit.scores.items())
        console.print(f"[dim]{hit.source}  score {hit.score:.3f} ({stages})[/]", markup=True)
        console.print(hit.text, markup=False)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from rag.stats import crawl_freshness, knowledge_base_stats

    settings = _settings(args)
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
        _print_crawl_freshness(crawl_freshness(settings, name), args.pages)
    return 0


def _print_crawl_freshness(freshness: Any, every_page: bool) -> None:
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


def cmd_eval(args: argparse.Namespace) -> int:
    from rag.evaluate import evaluate, read_jsonl, summarise

    retriever = _retriever(args)
    questions = read_jsonl(Path(args.questions))
    queries = None
    if args.queries:
        queries = {row["id"]: row["queries"] for row in read_jsonl(Path(args.queries))}
    results = evaluate(questions, lambda q, k: retriever.search(q, k=k), k=args.k, agent_queries=queries)
    summary = summarise(results)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result.__dict__, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    table = Table("group", "n", "all-aspects hit", "aspect recall", "MRR", "mean chars")
    for name, row in summary.items():
        table.add_row(
            name, str(row["n"]), f"{row['all_aspects_hit']:.3f}", f"{row['aspect_recall']:.3f}",
            f"{row['mrr']:.3f}", f"{row['mean_chars']:.0f}",
        )  # fmt: skip
    console.print(table)
    return 0


def _positive(text: str) -> int:
    """A ``-k`` value: a whole number from 1 to 50."""
    value = int(text) if text.lstrip("-").isdigit() else 0
    if not 1 <= value <= 50:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 50, not {text!r}")
    return value


def _at_least_one(text: str) -> int:
    """A count given on the command line: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """Argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="python -m rag", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--index", help="index folder (default: RAG_INDEX_DIR or .rag_index)")
        p.add_argument("--collection", action="append", help="collection name (repeatable to search several)")

    index = sub.add_parser("index", help="index files or folders (default: data/corpus)")
    index.add_argument("paths", nargs="*", help="JSONL files, Markdown/text files or folders")
    index.add_argument(
        "--rebuild",
        action="store_true",
        help="build the collection anew beside the old one, swapped in when complete",
    )
    index.add_argument(
        "--prune", action="store_true", help="also remove the documents indexed before but not listed now"
    )
    index.add_argument(
        "--quiet", action="store_true", help="no progress (a bar on a terminal, a line every ~10 s otherwise)"
    )
    common(index)
    index.set_defaults(handler=cmd_index)

    crawl = sub.add_parser(
        "crawl", help="fetch a website (robots.txt, sitemap, what changed) into the index; rerun to update"
    )
    crawl.add_argument("url", help="start URL; by default its folder and below are crawled")
    crawl.add_argument(
        "--sitemap", help="sitemap or sitemap index URL (default: robots.txt's, or /sitemap.xml)"
    )
    crawl.add_argument(
        "--allow", action="append", metavar="PREFIX", help="crawl only URLs under this prefix (repeatable)"
    )
    crawl.add_argument(
        "--max-pages",
        type=_at_least_one,
        help="most pages fetched in this run (default: RAG_CRAWL_MAX_PAGES)",
    )
    crawl.add_argument(
        "--rate",
        dest="crawl_requests_per_second",
        type=float,
        help="requests per second (RAG_CRAWL_REQUESTS_PER_SECOND)",
    )
    crawl.add_argument(
        "--concurrency",
        dest="crawl_concurrency",
        type=_at_least_one,
        help="requests in flight (RAG_CRAWL_CONCURRENCY)",
    )
    crawl.add_argument(
        "--accept-changes",
        action="store_true",
        help="apply this run's changes even when many pages changed to the same text (held back by default)",
    )
    crawl.add_argument("--quiet", action="store_true", help="no progress bar")
    common(crawl)
    crawl.set_defaults(handler=cmd_crawl)

    search = sub.add_parser("search", help="search; without a question, read one query per stdin line")
    search.add_argument("question", nargs="?")
    search.add_argument("-k", type=_positive, default=5, help="passages to return (1-50)")
    search.add_argument("--json", action="store_true")
    search.add_argument("--category", action="append", help="keep this category (and below)")
    search.add_argument("--source-prefix", help="keep sources starting with this")
    search.add_argument("--language", action="append", help="keep chunks in this language")
    common(search)
    search.set_defaults(handler=cmd_search)

    stats = sub.add_parser(
        "stats", help="what the index holds, how it was built, how fresh crawled pages are"
    )
    stats.add_argument("--pages", action="store_true", help="list every crawled page with its last fetch")
    common(stats)
    stats.set_defaults(handler=cmd_stats)

    ev = sub.add_parser("eval", help="retrieval quality on a question file")
    ev.add_argument("--questions", required=True)
    ev.add_argument("--queries", help="agent queries file (pooled top-k per question)")
    ev.add_argument("-k", type=int, default=5)
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--out", help="write per-question results as JSON Lines")
    common(ev)
    ev.set_defaults(handler=cmd_eval)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; user-fixable errors print one clear line and exit 2."""
    from rag.errors import USER_ERRORS, error_sentence

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.INFO if args.verbose else logging.WARNING)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        errors.print(f"[red]error:[/] {escape(error_sentence(error))}")
        return 2
