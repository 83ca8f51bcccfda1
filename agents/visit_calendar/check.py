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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from babel.dates import format_date, get_day_names

from agents.visit_calendar.eligibility_check import eligibility_values, with_lead_ins
from agents.visit_calendar.rules import (
    WEEKDAYS,
    Calendar,
    ClosedDates,
    ClosedWeekdays,
    Eligibility,
    Event,
    FreeDays,
    Hours,
    Price,
    Rule,
    Season,
    SpecialHours,
    month_day,
)
from agents.visit_calendar.source_value import Value
from rag.front_matter import split_front_matter
from rag.lexicon.folding import fold_in_place

if TYPE_CHECKING:
    from rag.retriever import HybridRetriever

SOURCE_LANGUAGES = ("en", "fr")
_MARKUP = re.compile(r"[*_`]+")


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
class Support:
    """Where a rule's values are written: the document, and the excerpt stating them."""

    source: str
    excerpt: str


@dataclass(frozen=True)
class CheckReport:
    """The check's outcome: the problems, the ids of the rules not to use, and for each rule used
    the excerpt backing it, by language ("" for the cited source itself)."""

    checked: int
    problems: tuple[Problem, ...]
    support: Mapping[tuple[str, str], Support] = field(default_factory=dict)

    @property
    def withheld(self) -> frozenset[str]:
        return frozenset(problem.rule for problem in self.problems)


def check_calendar(calendar: Calendar, texts: Mapping[str, str]) -> CheckReport:
    """Every rule of ``calendar`` against ``texts`` (a document's whole indexed text by its source)."""
    problems: list[Problem] = []
    support: dict[tuple[str, str], Support] = {}
    rules = calendar.rules()
    for rule in rules:
        text = texts.get(rule.source)
        if text is None:
            problems.append(Problem(rule.id, rule.source, None))
            continue
        values = values_of(rule)
        text = with_lead_ins(text) if isinstance(rule, Eligibility) else text
        unsaid, excerpt = _unsaid(values, text)
        problems += [Problem(rule.id, rule.source, value.label) for value in unsaid]
        if unsaid:
            continue
        support[(rule.id, "")] = Support(rule.source, excerpt)
        for language, other in calendar.translations.get(rule.source, {}).items():
            other_text = texts.get(other, "")
            other_text = with_lead_ins(other_text) if isinstance(rule, Eligibility) else other_text
            missing, translated = _unsaid(values, other_text)
            if not missing and other in texts:
                support[(rule.id, language)] = Support(other, translated)
    return CheckReport(checked=len(rules), problems=tuple(problems), support=support)


def _unsaid(values: list[Value], text: str) -> tuple[list[Value], str]:
    """The values no single line of ``text`` writes together with the others: a rule's hours must be
    one line's hours, not an opening time from one line and a closing time from another. Returns
    what the line writing the most of them lacks (nothing when one line writes them all), and the
    excerpt of that line around them."""
    lines = [line for line in text.splitlines() if line.strip()] or [""]
    plain = [_plain(line) for line in lines]
    best = min(range(len(lines)), key=lambda i: sum(not _written(v, plain[i]) for v in values))
    return [v for v in values if not _written(v, plain[best])], excerpt(values, plain[best], lines[best])


def excerpt(values: list[Value], plain: str, line: str, margin: int = 90) -> str:
    """The part of ``line`` from a little before its first stated value to a little after its last,
    cut at spaces: a page's text may be one long line. Where a value is written several times ("gratuit"
    all over a page), the place nearest the rarest value's first is taken."""
    written = [
        [m.span() for spelling in v.spellings for m in _pattern(spelling).finditer(_folded(v, plain))]
        for v in values
    ]
    found: list[list[tuple[int, int]]] = [spans for spans in written if spans]
    rarest: list[tuple[int, int]] = min(found, key=len) if found else [(0, 0)]
    anchor = min(rarest)[0]
    spans = [min(each, key=lambda span: abs(span[0] - anchor)) for each in found]
    text = _plain_case(line)
    if not spans or len(text) <= 2 * margin + 80:
        return text
    start, end = max(0, min(a for a, _ in spans) - margin), min(len(text), max(b for _, b in spans) + margin)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    end = text.find(" ", end) if text.find(" ", end) > 0 else len(text)
    return ("… " if start else "") + text[start:end].strip() + (" …" if end < len(text) else "")


def values_of(rule: Rule) -> list[Value]:
    """The values ``rule`` states, each of which its source must write."""
    if isinstance(rule, Season):
        return [_day_value(rule.starts), _day_value(rule.ends)]
    if isinstance(rule, ClosedWeekdays):
        return [CLOSED, *(_weekday(name) for name in rule.weekdays)]
    if isinstance(rule, ClosedDates):
        return [CLOSED, *(_day_value(value) for value in rule.dates)]
    if isinstance(rule, Hours):
        times = [rule.opens, rule.closes, rule.last_admission, rule.ticket_office_closes]
        return [_time(value) for value in times if value] + [_weekday(name) for name in rule.weekdays or []]
    if isinstance(rule, SpecialHours):
        return [_time(value) for value in (rule.opens, rule.closes) if value] + [
            _month(m) for m in rule.months
        ]
    if isinstance(rule, FreeDays):
        return _free_values(rule)
    if isinstance(rule, Price):
        amounts = [rule.full, *([rule.reduced] if rule.reduced is not None else [])]
        return [_amount(value) for value in amounts]
    if isinstance(rule, Eligibility):
        return eligibility_values(rule)
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
    return any(_pattern(spelling).search(_folded(value, plain)) for spelling in value.spellings)


def _folded(value: Value, plain: str) -> str:
    return fold_in_place(plain) if value.folded else plain


@functools.lru_cache(maxsize=1024)
def _pattern(spelling: str) -> re.Pattern[str]:
    """The spelling as a whole token: "9:00" is not found in "19:00", "12 €" not in "112 €"."""
    return re.compile(rf"(?<![\w:]){re.escape(spelling.casefold())}(?![\d:])")


def _plain_case(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).replace("\u00a0", " ").replace("\u202f", " ").split())


def _plain(text: str) -> str:
    return _plain_case(text).casefold()


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
    """A price as documents write it: "21 €", "21,00 €", "14.50 €", "14,50€", "€14.50", "14,5 euros"."""
    numbers = {f"{value:g}", f"{value:.2f}", f"{value:g}".replace(".", ","), f"{value:.2f}".replace(".", ",")}
    spellings = [form.format(n) for n in sorted(numbers) for form in ("{} €", "{}€", "€{}", "{} euros")]
    return Value(f"{value:g} €", tuple(spellings))


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


class Documents(dict[str, str]):
    """Documents' texts by source, with each one's title, language and official page where known."""

    def __init__(
        self,
        texts: Mapping[str, str],
        titles: Mapping[str, str],
        languages: Mapping[str, str],
        urls: Mapping[str, str] | None = None,
    ):
        super().__init__(texts)
        self.titles, self.languages, self.urls = dict(titles), dict(languages), dict(urls or {})


def corpus_texts(folder: Path) -> Documents:
    """A corpus folder's documents by source (their path under ``folder``, as the index names them)."""
    texts, titles, languages, urls = {}, {}, {}, {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in {".md", ".txt"}:
            source = path.relative_to(folder).as_posix()
            front = split_front_matter(path.read_text(encoding="utf-8"))
            texts[source], urls[source] = front.text, front.url
            heading = next((line for line in texts[source].splitlines() if line.startswith("# ")), "")
            titles[source] = heading.removeprefix("# ").strip() or path.stem
            languages[source] = path.suffixes[-2].lstrip(".") if len(path.suffixes) > 1 else ""
    return Documents(texts, titles, languages, urls)


def index_texts(records: Iterable[tuple[str, str, Mapping[str, object]]]) -> Documents:
    """Each indexed document's text, its chunks joined in reading order (their ``position``; the
    store returns them in any order, and a list's items must follow the sentence introducing them),
    from ``ChunkStore.iter_records()``."""
    texts: dict[str, list[tuple[int, str]]] = {}
    titles: dict[str, str] = {}
    languages: dict[str, str] = {}
    urls: dict[str, str] = {}
    for _, document, metadata in records:
        source = str(metadata.get("source", ""))
        position = metadata.get("position")
        texts.setdefault(source, []).append((position if isinstance(position, int) else 0, document))
        titles.setdefault(source, str(metadata.get("title", "") or source))
        languages.setdefault(source, str(metadata.get("language", "") or ""))
        urls.setdefault(source, str(metadata.get("url", "") or ""))
    joined = {
        source: "\n".join(text for _, text in sorted(chunks, key=lambda c: c[0]))
        for source, chunks in texts.items()
    }
    return Documents(joined, titles, languages, urls)


def indexed_texts(retriever: HybridRetriever) -> Documents:
    """The documents of every collection ``retriever`` searches, by source."""
    return index_texts(
        record for searcher in retriever.collections for record in searcher.store.iter_records()
    )
