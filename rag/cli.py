"""Command line of the knowledge base; all behaviour lives in the modules it calls."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rag.config import DEFAULT_CORPUS, RagSettings

console = Console()
errors = Console(stderr=True)


def _settings(args: argparse.Namespace) -> RagSettings:
    overrides: dict[str, Any] = {}
    if getattr(args, "index", None):
        overrides["index_dir"] = Path(args.index)
    if getattr(args, "collection", None) and args.command == "index":
        if len(args.collection) > 1:
            raise SystemExit("error: index writes one collection: give --collection once")
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


def _filters(args: argparse.Namespace) -> Any:
    from rag.filters import SearchFilters

    return SearchFilters(
        categories=tuple(args.category or ()),
        source_prefix=args.source_prefix,
        languages=tuple(args.language or ()),
    )


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
            print(json.dumps({"query": query, "hits": [h.to_dict() for h in hits]}, ensure_ascii=False))
        return 0
    hits = retriever.search(args.question, k=args.k, filters=filters)
    if args.json:
        print(json.dumps({"query": args.question, "hits": [h.to_dict() for h in hits]}, ensure_ascii=False))
        return 0
    for rank, hit in enumerate(hits, 1):
        where = " > ".join(p for p in (hit.title, hit.headings) if p)
        console.rule(f"[{rank}] {where}")
        stages = ", ".join(f"{name} {value:.2f}" for name, value in hit.scores.items())
        console.print(f"[dim]{hit.source}  score {hit.score:.3f} ({stages})[/]", markup=True)
        console.print(hit.text, markup=False)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from rag.stats import knowledge_base_stats

    table = Table("collection", "chunks", "documents", "embedding", "dim", "languages", "complete")
    for row in knowledge_base_stats(_settings(args), args.collection):
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
    return 0


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
    index.add_argument("--rebuild", action="store_true", help="drop the collection and rebuild it")
    index.add_argument(
        "--prune", action="store_true", help="also remove the documents indexed before but not listed now"
    )
    index.add_argument(
        "--quiet", action="store_true", help="no progress (a bar on a terminal, a line every ~10 s otherwise)"
    )
    common(index)
    index.set_defaults(handler=cmd_index)

    search = sub.add_parser("search", help="search; without a question, read one query per stdin line")
    search.add_argument("question", nargs="?")
    search.add_argument("-k", type=_positive, default=5, help="passages to return (1-50)")
    search.add_argument("--json", action="store_true")
    search.add_argument("--category", action="append", help="keep this category (and below)")
    search.add_argument("--source-prefix", help="keep sources starting with this")
    search.add_argument("--language", action="append", help="keep chunks in this language")
    common(search)
    search.set_defaults(handler=cmd_search)

    stats = sub.add_parser("stats", help="what the index holds and how it was built")
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
    from pydantic import ValidationError
    from rich.markup import escape

    from rag.errors import USER_ERRORS, error_sentence

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.INFO if args.verbose else logging.WARNING)
    try:
        return int(args.handler(args))
    except (*USER_ERRORS, ValidationError) as error:  # type: ignore[misc]
        errors.print(f"[red]error:[/] {escape(error_sentence(error))}")
        return 2
