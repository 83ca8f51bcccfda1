"""Which visit-facts file the index answers for: the one whose rules its documents state.

Every ``data/visit_calendar*.toml`` is checked against the index's documents; the file with the
most rules whose values are written in their indexed source is used. Its rules whose source is
not indexed, or no longer says their values, are reported and withheld. No variable to set: index
another corpus and its own file is chosen (an explicit file still wins when one is configured).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.visit_calendar.check import CheckReport, check_calendar
from agents.visit_calendar.rules import Calendar, CalendarFileError, load_calendar
from rag.config import PROJECT_ROOT

FACT_FILES = "visit_calendar*.toml"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChosenCalendar:
    """The file in use, its rules, and what the source check says of them."""

    path: Path
    calendar: Calendar
    report: CheckReport

    @property
    def used(self) -> int:
        """How many rules are backed by the index."""
        return self.report.checked - len(self.report.withheld)


def fact_files(folder: Path = PROJECT_ROOT / "data") -> list[Path]:
    """The visit-facts files shipped in ``folder``, the bundled corpus's first."""
    return sorted(folder.glob(FACT_FILES), key=lambda path: (path.name != "visit_calendar.toml", path.name))


def choose_calendar(texts: Mapping[str, str], candidates: Sequence[Path] | None = None) -> ChosenCalendar:
    """The candidate whose rules ``texts`` (indexed documents by source) back the most; the first
    one on a tie, so an empty index keeps the bundled corpus's file, every rule withheld."""
    files = list(candidates) if candidates is not None else fact_files()
    checked, errors = [], []
    for path in files:
        try:
            calendar = load_calendar(path)
        except CalendarFileError as error:  # one broken file leaves the others usable
            logger.warning("%s", error)
            errors.append(str(error))
            continue
        checked.append(ChosenCalendar(path, calendar, check_calendar(calendar, texts)))
    if not checked:
        raise CalendarFileError(errors[0] if errors else "No visit-facts file (data/visit_calendar*.toml).")
    return max(checked, key=lambda chosen: (chosen.used, -checked.index(chosen)))
