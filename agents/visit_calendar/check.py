"""The source check: every value of a rule must be written in its cited document's indexed text,
all on one line (a list item, a paragraph), so that a rule's hours are one line's hours.

A rule whose document is missing from the index, or no longer says one of its values (an hour, a
price, a day, a month), is reported with the document and the value, and withheld: the tool does not
use it and sends the visitor to the knowledge base. Values are looked for as the documents write
them, in English and French ("9:00", "9h", "21 €", "1 April", "1er avril", "Monday", "lundi").
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from babel.dates import format_date, get_day_names

from agents.visit_calendar.rules import (
    WEEKDAYS,
    Calendar,
    ClosedDates,
    ClosedWeekdays,
    Event,
    FreeDays,
    Hours,
    Price,
    Rule,
    Season,
    month_day,
)
from rag.front_matter import split_front_matter

if TYPE_CHECKING:
    from rag.retriever import HybridRetriever

SOURCE_LANGUAGES = ("en", "fr")
_MARKUP = re.compile(r"[*_`]+")


@dataclass(frozen=True)
class Value:
    """One value of a rule and the ways a document may write it."""

    label: str  # as the report shows it ("18:30", "21 €", "Monday")
    spellings: tuple[str, ...]


# A closing rule's line must say it closes: "unless the holiday falls on a Monday" is no Monday closing.
CLOSED = Value("closed", ("closed", "shut", "fermé", "fermée", "fermés", "fermeture"))


@dataclass(frozen=True)
class Problem:
    """A rule its source no longer supports: which document, which value."""

    rule: str
    source: str
    value: str | None  # None: the document is not in the index

    def __str__(self) -> str:
        if self.value is None:
            return f"{self.rule}: its source {self.source} is not in the index"
        return f"{self.rule}: {self.source} no longer says {self.value!r}"


@dataclass(frozen=True)
class CheckReport:
    """The check's outcome: the problems, and the ids of the rules not to use."""

    checked: int
    problems: tuple[Problem, ...]

    @property
    def withheld(self) -> frozenset[str]:
        return frozenset(problem.rule for problem in self.problems)


def check_calendar(calendar: Calendar, texts: Mapping[str, str]) -> CheckReport:
    """Every rule of ``calendar`` against ``texts`` (a document's whole indexed text by its source)."""
    problems: list[Problem] = []
    rules = calendar.rules()
    for rule in rules:
        text = texts.get(rule.source)
        if text is None:
            problems.append(Problem(rule.id, rule.source, None))
            continue
        problems += [Problem(rule.id, rule.source, value.label) for value in _unsaid(values_of(rule), text)]
    return CheckReport(checked=len(rules), problems=tuple(problems))


def _unsaid(values: list[Value], text: str) -> list[Value]:
    """The values no single line of ``text`` writes together with the others: a rule's hours must be
    one line's hours, not an opening time from one line and a closing time from another. Returns
    what the line writing the most of them lacks (nothing when one line writes them all)."""
    if not values:
        return []
    lines = [_plain(line) for line in text.splitlines() if line.strip()] or [""]
    return min(([v for v in values if not _written(v, line)] for line in lines), key=len)


def values_of(rule: Rule) -> list[Value]:
    """The values ``rule`` states, each of which its source must write."""
    if isinstance(rule, Season):
        return [_day_value(rule.starts), _day_value(rule.ends)]
    if isinstance(rule, ClosedWeekdays):
        return [CLOSED, *(_weekday(name) for name in rule.weekdays)]
    if isinstance(rule, ClosedDates):
        return [CLOSED, *(_day_value(value) for value in rule.dates)]
    if isinstance(rule, Hours):
        times = [rule.opens, rule.closes, *([rule.last_admission] if rule.last_admission else [])]
        return [_time(value) for value in times] + [_weekday(name) for name in rule.weekdays or []]
    if isinstance(rule, FreeDays):
        return _free_values(rule)
    if isinstance(rule, Price):
        amounts = [rule.full, *([rule.reduced] if rule.reduced is not None else [])]
        return [_amount(value) for value in amounts]
    if isinstance(rule, Event):
        found = [_weekday(name) for name in rule.weekdays] + [
            _day_value(d.strftime("%m-%d")) for d in rule.dates
        ]
        if rule.weekdays and rule.valid_from:
            found.append(Value(str(rule.valid_from.year), (str(rule.valid_from.year),)))
        return found
    return []


def _free_values(rule: FreeDays) -> list[Value]:
    found = [Value("free", ("free", "gratuit"))]
    if rule.first_sunday_of:
        found.append(
            Value("first Sunday", ("first sunday", "premier dimanche", "premiers dimanches", "1er dimanche"))
        )
        found += [_month(rule.first_sunday_of[0]), _month(rule.first_sunday_of[-1])]
    return found


def _written(value: Value, plain: str) -> bool:
    return any(_pattern(spelling).search(plain) for spelling in value.spellings)


@functools.lru_cache(maxsize=1024)
def _pattern(spelling: str) -> re.Pattern[str]:
    """The spelling as a whole token: "9:00" is not found in "19:00", "12 €" not in "112 €"."""
    return re.compile(rf"(?<![\w:]){re.escape(spelling.casefold())}(?![\d:])")


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).replace("\u00a0", " ").replace("\u202f", " ").split()).casefold()


def _time(value: str) -> Value:
    hour, minute = (int(part) for part in value.split(":"))
    spellings = [
        f"{hour}:{minute:02d}",
        f"{hour:02d}:{minute:02d}",
        f"{hour}h{minute:02d}",
        f"{hour} h {minute:02d}",
    ]
    if minute == 0:
        spellings += [f"{hour}h", f"{hour} h"]
    return Value(value, tuple(spellings))


def _amount(value: float) -> Value:
    number = f"{value:g}"
    spellings = (f"{number} €", f"{number}€", f"€{number}", f"{number} euros", f"{number},00 €")
    return Value(f"{number} €", spellings)


def _day_value(text: str) -> Value:
    month, day = month_day(text)
    date = dt.date(2024, month, day)
    spellings = [format_date(date, "d MMMM", locale=code) for code in SOURCE_LANGUAGES]
    spellings += [format_date(date, "MMMM d", locale="en")]
    if day == 1:  # "1er avril", and "1 er avril" as crawled pages write the superscript
        french = format_date(date, "MMMM", locale="fr")
        spellings += [f"1er {french}", f"1 er {french}"]
    return Value(format_date(date, "d MMMM", locale="en"), tuple(spellings))


def _month(month: int) -> Value:
    date = dt.date(2024, month, 1)
    return Value(
        format_date(date, "MMMM", locale="en"),
        tuple(format_date(date, "MMMM", locale=c) for c in SOURCE_LANGUAGES),
    )


def _weekday(name: str) -> Value:
    index = WEEKDAYS.index(name)
    spellings = [str(get_day_names("wide", locale=code)[index]) for code in SOURCE_LANGUAGES]
    if name in ("Saturday", "Sunday"):
        spellings += ["weekend", "week-end"]  # "open at weekends" names both days
    return Value(name, tuple(spellings))


def corpus_texts(folder: Path) -> dict[str, str]:
    """A corpus folder's documents by source (their path under ``folder``, as the index names them)."""
    return {
        path.relative_to(folder).as_posix(): split_front_matter(path.read_text(encoding="utf-8")).text
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix in {".md", ".txt"}
    }


def index_texts(records: Iterable[tuple[str, str, Mapping[str, object]]]) -> dict[str, str]:
    """Each indexed document's text, its chunks joined, from ``ChunkStore.iter_records()``."""
    texts: dict[str, list[str]] = {}
    for _, document, metadata in records:
        texts.setdefault(str(metadata.get("source", "")), []).append(document)
    return {source: "\n".join(chunks) for source, chunks in texts.items()}


def indexed_texts(retriever: HybridRetriever) -> dict[str, str]:
    """The documents of every collection ``retriever`` searches, by source."""
    return index_texts(
        record for searcher in retriever.collections for record in searcher.store.iter_records()
    )
