"""``python -m agents.visit_calendar check``: which visit-facts file the index backs, and does it say
what its sources in the index say?

Exit status 0 when every rule's values are written in its source, 1 when some rule is reported (it
is then not used by the tool), 2 when the file or the index cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.tool_settings import ToolSettings
from agents.visit_calendar.check import corpus_texts, index_texts
from agents.visit_calendar.choice import choose_calendar
from agents.visit_calendar.jsonld import draft_calendar, to_toml
from agents.visit_calendar.rules import CalendarFileError
from rag.config import RagSettings, location_of
from rag.crawl.state import CrawlState, CrawlStateError, state_path
from rag.store import ChunkStore, KnowledgeBaseError, open_client


def _texts(corpus: Path | None) -> Mapping[str, str]:
    if corpus is not None:
        return corpus_texts(corpus)
    settings = RagSettings()
    store = ChunkStore.open(open_client(settings), settings.collection, settings)
    return index_texts(store.iter_records())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.visit_calendar", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check every rule against its source document")
    check.add_argument(
        "--calendar",
        type=Path,
        help="this visit-facts file (default: the data/visit_calendar*.toml the index backs)",
    )
    check.add_argument("--corpus", type=Path, help="read the documents from this folder, not the index")
    draft = sub.add_parser(
        "draft", help="print the visit facts the crawled pages' JSON-LD states, as a facts file"
    )
    draft.add_argument(
        "--jsonld", type=Path, help="read JSON-LD objects by page URL from this JSON file instead"
    )
    args = parser.parse_args(argv)
    if args.command == "draft":
        return _draft(args.jsonld)
    try:
        explicit = args.calendar or ToolSettings().calendar_file
        chosen = choose_calendar(_texts(args.corpus), [explicit] if explicit else None)
        report = chosen.report
    except (CalendarFileError, OSError) as error:
        print(error, file=sys.stderr)
        return 2
    except KnowledgeBaseError as error:  # its message names the command that builds the index
        print(f"{error} (or pass --corpus DIR to check against the documents' files)", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"NOT USED  {problem}")
    print(f"{chosen.path}: {report.checked} rules checked, {len(report.withheld)} not used.")
    return 1 if report.problems else 0


def _draft(path: Path | None) -> int:
    """Print a visit-facts file drafted from schema.org JSON-LD (the crawl's, or ``path``'s)."""
    try:
        pages = json.loads(path.read_text(encoding="utf-8")) if path else _crawled_json_ld()
        calendar = draft_calendar(pages)
    except (OSError, ValueError, CrawlStateError) as error:
        print(f"No visit facts could be drafted: {error}", file=sys.stderr)
        return 2
    if not calendar.places:
        print("The crawled pages publish no opening hours or offers in JSON-LD.", file=sys.stderr)
        return 1
    print(to_toml(calendar))
    return 0


def _crawled_json_ld() -> dict[str, list[dict[str, Any]]]:
    settings = RagSettings()
    path = state_path(settings.index_dir, location_of(settings), settings.collection)
    if not path.exists():
        raise CrawlStateError(f"no crawl of {settings.collection} yet: run `python -m rag crawl URL` first")
    with CrawlState(path) as state:
        return state.structured()


if __name__ == "__main__":
    sys.exit(main())
