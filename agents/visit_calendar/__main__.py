"""``python -m agents.visit_calendar check``: does the calendar say what its sources in the index say?

Exit status 0 when every rule's values are written in its source, 1 when some rule is reported (it
is then not used by the tool), 2 when the calendar or the index cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path

from agents.tools.settings import ToolSettings
from agents.visit_calendar.check import check_calendar, corpus_texts, index_texts
from agents.visit_calendar.rules import CalendarFileError, load_calendar
from rag.store import KnowledgeBaseError


def _texts(corpus: Path | None) -> Mapping[str, str]:
    if corpus is not None:
        return corpus_texts(corpus)
    from rag.config import RagSettings
    from rag.store import ChunkStore, open_client  # Chroma loads only when the index is read

    settings = RagSettings()
    store = ChunkStore.open(open_client(settings), settings.collection, settings)
    return index_texts(store.iter_records())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.visit_calendar", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check every rule against its source document")
    check.add_argument("--calendar", type=Path, help="calendar file (default: TOOLS_CALENDAR_FILE)")
    check.add_argument("--corpus", type=Path, help="read the documents from this folder, not the index")
    args = parser.parse_args(argv)
    try:
        calendar = load_calendar(args.calendar or ToolSettings().calendar_file)
        report = check_calendar(calendar, _texts(args.corpus))
    except (CalendarFileError, OSError) as error:
        print(error, file=sys.stderr)
        return 2
    except KnowledgeBaseError as error:  # its message names the command that builds the index
        print(f"{error} (or pass --corpus DIR to check against the documents' files)", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"NOT USED  {problem}")
    print(f"{report.checked} rules checked, {len(report.withheld)} not used.")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
