"""Command line of the knowledge base; all behaviour lives in the modules it calls."""

from __future__ import annotations

import argparse
import importlib
import logging
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from rag.errors import USER_ERRORS, error_sentence

console = Console()
errors = Console(stderr=True)

# Each sub-command's module, imported only when that sub-command runs: the parser alone answers
# --help and argument errors, without loading Chroma, the embedder or the crawler.
COMMANDS = {
    "index": "rag.commands.index",
    "crawl": "rag.commands.crawl",
    "search": "rag.commands.search",
    "stats": "rag.commands.stats",
    "eval": "rag.commands.eval",
}


def _command(name: str) -> Callable[[argparse.Namespace], int]:
    """The handler of sub-command ``name``: its module's ``run``, with this module's consoles."""

    def handler(args: argparse.Namespace) -> int:
        return int(importlib.import_module(COMMANDS[name]).run(args, console, errors))

    return handler


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
    index.set_defaults(handler=_command("index"))

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
    crawl.set_defaults(handler=_command("crawl"))

    search = sub.add_parser("search", help="search; without a question, read one query per stdin line")
    search.add_argument("question", nargs="?")
    search.add_argument("-k", type=_positive, default=5, help="passages to return (1-50)")
    search.add_argument("--json", action="store_true")
    search.add_argument("--category", action="append", help="keep this category (and below)")
    search.add_argument("--source-prefix", help="keep sources starting with this")
    search.add_argument("--language", action="append", help="keep chunks in this language")
    common(search)
    search.set_defaults(handler=_command("search"))

    stats = sub.add_parser(
        "stats", help="what the index holds, how it was built, how fresh crawled pages are"
    )
    stats.add_argument("--pages", action="store_true", help="list every crawled page with its last fetch")
    common(stats)
    stats.set_defaults(handler=_command("stats"))

    ev = sub.add_parser("eval", help="retrieval quality on a question file")
    ev.add_argument("--questions", required=True)
    ev.add_argument("--queries", help="agent queries file (pooled top-k per question)")
    ev.add_argument("-k", type=int, default=5)
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--out", help="write per-question results as JSON Lines")
    common(ev)
    ev.set_defaults(handler=_command("eval"))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; user-fixable errors print one clear line and exit 2."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.INFO if args.verbose else logging.WARNING)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        errors.print(f"[red]error:[/] {escape(error_sentence(error))}")
        return 2
