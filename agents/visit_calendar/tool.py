"""The ``get_visit_calendar`` tool: the visit facts (hours, closures, free entry, prices) of a place,
on a day or on none.

The day is read with the weather tool's date parser ("lundi prochain", "le 14 juillet", "this
Sunday", "来週の土曜日"); the answer comes from the visit-facts file the index backs
(``agents.visit_calendar.choice``), each rule checked once against its source document: a rule its
source no longer supports is not used, and the result sends the visitor to the knowledge base
instead. Each line cites the excerpt of its source that states it (``passages``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, Literal
from zoneinfo import ZoneInfo

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from agents.tool_settings import ToolSettings
from agents.tools.dates import parse_visit_date
from agents.tools.results import ToolResult
from agents.visit_calendar.answer import fact_lines, headline
from agents.visit_calendar.check import CheckReport, corpus_texts
from agents.visit_calendar.choice import ChosenCalendar, choose_calendar
from agents.visit_calendar.eligibility import Visitor, eligible, verdict
from agents.visit_calendar.eligible_lines import eligibility_line
from agents.visit_calendar.engine import MAX_RANGE_DAYS, DayReport, day_at
from agents.visit_calendar.facts import ASPECTS, Aspect, place_facts
from agents.visit_calendar.rules import Calendar, CalendarFileError
from rag.config import PROJECT_ROOT
from rag.lexicon.dates import day_label
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language
from rag.passage import VISIT_FACTS_COLLECTION, Passage
from rag.store import KnowledgeBaseError

logger = logging.getLogger(__name__)
DEFAULT_PLACE = "palace"
# The facts describe today's visits: a day further away is not answered with them (a past day is,
# within a year: what the rules said then).
HORIZON_BEFORE, HORIZON_AFTER = dt.timedelta(days=366), dt.timedelta(days=2 * 366)
SourceTexts = Callable[[], Mapping[str, str]]


class CalendarDay(BaseModel):
    """One day at one place, as the tool reports it."""

    date: str
    date_label: str
    place: str
    open: Literal["open", "closed", "unknown"]
    closed_why: str | None = None
    season: str | None = None
    opens: str | None = None
    closes: str | None = None
    last_admission: str | None = None
    free: bool | None = None
    free_why: str | None = None
    prices_eur: dict[str, float] = Field(default_factory=dict)
    events: list[str] = Field(default_factory=list)
    line: str
    cites: list[str] = Field(default_factory=list)  # chunk ids of the passages stating its values
    sources: list[str] = Field(default_factory=list)
    withheld_rules: list[str] = Field(default_factory=list)


class FactsLine(BaseModel):
    """A visit fact asked on no day, what it answers, and what it cites."""

    place: str
    text: str
    answers: Aspect = "hours"
    visitor: dict[str, Any] | None = None  # the visitor's facts it answers for (None: any visitor)
    cites: list[str] = Field(default_factory=list)


class CalendarResult(ToolResult):
    """The only shape ``get_visit_calendar`` returns."""

    date_text: str
    place_text: str
    aspects: list[Aspect] = Field(default_factory=list)
    days: list[CalendarDay] = Field(default_factory=list)
    facts: list[FactsLine] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)  # the sources' excerpts, cited by chunk id
    sources: list[str] = Field(default_factory=list)
    language: str = "en"


class CalendarArguments(BaseModel):
    """Arguments the LLM fills in."""

    date: str | None = Field(
        None,
        description="The day as the visitor wrote it, in any language ('lundi prochain', 'this Sunday', "
        "'le 14 juillet', '来週の土曜日') or ISO 8601 ('2026-12-06'); leave empty when no day is named.",
    )
    place: str = Field(
        "palace", description="palace, trianon, gardens, park or coaches (the Gallery of Coaches); or 'all'."
    )
    aspects: list[Aspect] = Field(
        default_factory=lambda: list(ASPECTS), description="What is asked: hours, closed, free, price."
    )
    months: list[int] = Field(
        default_factory=list, description="With no date: the months asked about (1-12), e.g. [7] for July."
    )
    tickets: list[str] = Field(
        default_factory=list, description="The tickets asked about, if named: palace, trianon, passeport…"
    )
    reduced: bool = Field(False, description="Whether a reduced rate is asked (a group of visitors named).")
    visitor: Visitor | None = Field(
        None,
        description="Who the free entry or price is asked for, as the visitor said it: age, country or EU "
        "residence, disabled, companion of a disabled visitor, student, teacher, job seeker.",
    )
    until: str | None = Field(None, description=f"Last day of a short range (at most {MAX_RANGE_DAYS} days).")
    language: str = Field("en", description="The visitor's language, ISO 639-1, for the summary.")


class CalendarService:
    """Answers ``get_visit_calendar`` from the visit-facts file the index backs, its rules checked
    once against the index's documents (``agents.visit_calendar.choice``)."""

    def __init__(
        self,
        settings: ToolSettings | None = None,
        source_texts: SourceTexts | None = None,
        today: Callable[[], dt.date] | None = None,
    ) -> None:
        self.settings = settings or ToolSettings()
        self.source_texts = source_texts or (lambda: corpus_texts(PROJECT_ROOT / "data" / "corpus"))
        self.today = today or (lambda: dt.datetime.now(ZoneInfo(self.settings.timezone)).date())
        self._chosen: ChosenCalendar | None = None
        self._documents: Mapping[str, str] = {}
        self._lock = threading.Lock()

    @property
    def calendar(self) -> Calendar:
        return self.chosen().calendar

    def chosen(self) -> ChosenCalendar:
        """The file in use and its source check, settled on first use (the index is read once)."""
        with self._lock:
            if self._chosen is None:
                try:
                    self._documents = self.source_texts()
                except (KnowledgeBaseError, OSError) as error:  # no rule is used rather than a crash
                    logger.warning("The visit facts cannot read the index (%s): no rule is used.", error)
                    self._documents = {}
                explicit = self.settings.calendar_file
                self._chosen = choose_calendar(self._documents, [explicit] if explicit else None)
                logger.info(
                    "Visit facts: %s (%d rules backed by the index).", self._chosen.path, self._chosen.used
                )
                for problem in self._chosen.report.problems:
                    logger.warning("Visit fact not used: %s", problem)
            return self._chosen

    def check(self) -> CheckReport:
        """The source check of the file in use."""
        return self.chosen().report

    def get(
        self,
        date: str | None,
        place: str = DEFAULT_PLACE,
        language: str = "en",
        until: str | None = None,
        aspects: list[Aspect] | None = None,
        months: list[int] | None = None,
        tickets: list[str] | None = None,
        reduced: bool = False,
        visitor: Visitor | None = None,
    ) -> CalendarResult:
        """The facts of ``place`` on ``date`` (to ``until``), or on no day, in ``language``; with a
        ``visitor``, who enters free or at a reduced rate answers for them where a rule holds."""
        code = supported_language(language)
        asked = [a for a in ASPECTS if a in (aspects or ASPECTS)]
        base = CalendarResult(
            status="invalid", summary="", date_text=date or "", place_text=place, language=code, aspects=asked
        )
        try:
            calendar = self.calendar
        except CalendarFileError as error:  # the operator's problem, logged once: the visitor gets the KB
            logger.error("The visit facts are not available: %s", error)
            return base.model_copy(update={"status": "unavailable"})
        today = self.today()
        first = _day(date, today, code) if date else None
        last = _day(until, today, code) if until else first
        if date and (first is None or last is None):
            example = (today + dt.timedelta(days=1)).isoformat()
            return base.model_copy(
                update={"summary": f"Unreadable date {date!r}: ask for a day such as {example}."}
            )
        earliest, latest = today - HORIZON_BEFORE, today + HORIZON_AFTER
        if first and last and (first < earliest or last > latest):  # 1789 or 2099: not today's rules
            span = f"{earliest.isoformat()} to {latest.isoformat()}"
            return base.model_copy(
                update={
                    "summary": f"The visit facts cannot say for {first.isoformat()}: they hold from {span}."
                }
            )
        places = (
            list(calendar.places)
            if place.strip().casefold() in ("all", "*")
            else [calendar.place_named(place)]
        )
        if places == [None]:
            names = ", ".join(calendar.places)
            return base.model_copy(
                update={"status": "not_found", "summary": f"Unknown place {place!r}: one of {names}."}
            )
        keys = [key for key in places if key is not None]
        cited = _Citer(self.chosen(), self._documents, code)
        days = self._days(calendar, keys, first, last, cited, code, asked) if first and last else []
        facts = (
            []
            if days
            else self._facts(calendar, keys, asked, cited, code, months or [], tickets or [], reduced)
        )
        undecided = False
        if visitor is not None and {"free", "price"} & set(asked):
            facts = self._eligible(calendar, keys, visitor, cited, code, months or [], facts, asked)
            undecided = not any(f.visitor is not None for f in facts) and self._undecided(
                calendar, keys, visitor, months or []
            )
        lines = [d.line for d in days] + [f.text for f in facts]
        settled = not all(day.open == "unknown" for day in days) if days else _covers(facts, asked, months)
        settled = settled and not undecided  # what this visitor pays turns on what they did not say
        # the passages of the lines shown, not of those a visitor's line replaced
        shown = {c for day in days for c in day.cites} | {c for fact in facts for c in fact.cites}
        return base.model_copy(
            update={
                "status": "ok",
                "source": "calendar",
                "days": days,
                "facts": facts,
                "passages": [p for p in cited.passages() if p.chunk_id in shown],
                "sources": [source for source in cited.sources() if _chunk_id(source) in shown],
                "summary": "\n".join(lines) if settled else "",  # nothing settled: the knowledge base answers
            }
        )

    def _days(
        self,
        calendar: Calendar,
        keys: list[str],
        first: dt.date,
        last: dt.date,
        cited: _Citer,
        code: str,
        aspects: list[Aspect],
    ) -> list[CalendarDay]:
        withheld = self.check().withheld
        count = max(1, min((last - first).days + 1, MAX_RANGE_DAYS))
        reports = [
            day_at(calendar, key, first + dt.timedelta(days=n), withheld)
            for n in range(count)
            for key in keys
        ]
        priced = "price" in aspects
        return [
            _day_record(report, calendar, code, cited.cite(_shown_rules(report, priced)), priced)
            for report in reports
        ]

    def _facts(
        self,
        calendar: Calendar,
        keys: list[str],
        aspects: list[Aspect],
        cited: _Citer,
        code: str,
        months: list[int],
        tickets: list[str],
        reduced: bool,
    ) -> list[FactsLine]:
        withheld = self.check().withheld
        return [
            FactsLine(place=key, text=line.text, answers=line.answers, cites=cited.cite(line.rules))
            for key in keys
            for line in fact_lines(
                place_facts(calendar, key, withheld, months),
                calendar,
                aspects,
                code,
                tickets,
                reduced,
                months,
            )
        ]

    def _eligible(
        self,
        calendar: Calendar,
        keys: list[str],
        visitor: Visitor,
        cited: _Citer,
        code: str,
        months: list[int],
        facts: list[FactsLine],
        asked: list[Aspect],
    ) -> list[FactsLine]:
        """``facts`` headed, for each place, by the first rule that holds for ``visitor`` (free entry
        before a reduced rate); that line replaces the place's prices and free days for everyone,
        unless it holds on an event's days only (the Gardens on show days)."""
        withheld = self.check().withheld
        found: list[FactsLine] = []
        replaced: set[str] = set()
        for key in keys:
            for rule in eligible(calendar, key, visitor, withheld, months)[:1]:
                line = eligibility_line(rule, calendar, visitor, code, key)
                found.append(
                    FactsLine(
                        place=key,
                        text=line.text,
                        # free entry is the price asked for this visitor
                        answers=line.answers if line.answers in asked else "price",
                        visitor=line.visitor,
                        cites=cited.cite(line.rules),
                    )
                )
                replaced |= set() if rule.event else {key}
        kept = [f for f in facts if not (f.place in replaced and f.answers in ("free", "price"))]
        return found + kept

    def _undecided(self, calendar: Calendar, keys: list[str], visitor: Visitor, months: list[int]) -> bool:
        """Whether a rule of these places might hold for ``visitor`` but turns on what they did not say
        (a student's age, a 20-year-old's residence): the facts cannot tell what they pay."""
        withheld = self.check().withheld
        return any(
            verdict(rule, visitor, calendar) == "unknown"
            for rule in calendar.eligibility
            if set(rule.places) & set(keys) and rule.id not in withheld and not rule.event
        )


def _covers(facts: list[FactsLine], asked: list[Aspect], months: list[int] | None) -> bool:
    """Whether the lines answer every aspect asked: a closed day answers "closed" too, and so do
    the hours of the ``months`` asked (when it is open in July); hours asked are answered by hours,
    not by the weekly closing shown beside them."""
    answered = {line.answers for line in facts}
    closure = {"closed", "holidays", *(["hours"] if months else [])}
    return bool(facts) and all(
        aspect in answered or (aspect == "closed" and bool(closure & answered)) for aspect in asked
    )


class _Citer:
    """The passages citing the rules a result rests on: one per document, in the visitor's language
    where the calendar names a translation that states the same values."""

    def __init__(self, chosen: ChosenCalendar, documents: Mapping[str, str], language: str) -> None:
        self.support, self.language = chosen.report.support, language
        self.titles = getattr(documents, "titles", {})
        self.languages = getattr(documents, "languages", {})
        self.urls = getattr(documents, "urls", {})
        self.excerpts: dict[str, list[str]] = {}

    def cite(self, rules: list[str]) -> list[str]:
        ids = []
        for rule in rules:
            support = self.support.get((rule, self.language)) or self.support.get((rule, ""))
            if support is None:
                continue
            excerpts = self.excerpts.setdefault(support.source, [])
            if support.excerpt not in excerpts:
                excerpts.append(support.excerpt)
            ids.append(_chunk_id(support.source))
        return list(dict.fromkeys(ids))

    def passages(self) -> list[Passage]:
        return [
            Passage(
                chunk_id=_chunk_id(source),
                text="\n".join(excerpts),
                title=self.titles.get(source, source),
                source=source,
                url=self.urls.get(source, ""),
                sources=[source],
                language=self.languages.get(source, ""),
                collection=VISIT_FACTS_COLLECTION,
                score=1.0,
            )
            for source, excerpts in self.excerpts.items()
        ]

    def sources(self) -> list[str]:
        return list(self.excerpts)


def _chunk_id(source: str) -> str:
    return "visit-fact-" + hashlib.sha1(source.encode()).hexdigest()[:16]


def _day(text: str, today: dt.date, language: str) -> dt.date | None:
    parsed = parse_visit_date(text, today, (language, *(c for c in SUPPORTED_LANGUAGES if c != language)))
    return parsed.day  # a past day is answered too: what the rules said then


def _shown_rules(report: DayReport, priced: bool) -> list[str]:
    """The rules a day's line states: its prices' only when prices are asked."""
    prices = {price.id for price in report.prices}
    return [rule for rule in report.rules if priced or rule not in prices]


def _day_record(
    report: DayReport, calendar: Calendar, language: str, cites: list[str], priced: bool = True
) -> CalendarDay:
    return CalendarDay(
        date=report.date.isoformat(),
        date_label=day_label(report.date, language),
        place=report.place,
        open=report.status,
        closed_why=report.closed_why,
        season=report.season,
        opens=report.opens,
        closes=report.closes,
        last_admission=report.last_admission,
        free=report.free,
        free_why=report.free_why,
        prices_eur={p.ticket: p.full for p in report.prices},
        events=report.events,
        line=headline(report, calendar, language, prices=priced),
        cites=cites,
        sources=report.sources,
        withheld_rules=report.withheld,
    )


DESCRIPTION = (
    "The visit facts of the Palace of Versailles estate, checked against their sources: a place's "
    "(palace, trianon, gardens, park, coaches, or all) opening hours by season, last admission, weekly "
    "closures and closed days, free entry, ticket prices with the reduced rate; and, for a day or a short "
    "range, whether it is open or closed and why. Use it first for every question about hours, opening, "
    "closing, free entry or prices, with or without a date (pass the date exactly as the visitor wrote "
    "it, none when none is named). When free entry or a price is asked for someone, pass what the visitor "
    "said of them as `visitor` (age, country, disabled, companion of a disabled visitor, student…): the "
    "line then says whether they enter free or at a reduced rate. Quote its lines and cite their passages; "
    "when a day is 'unknown' or the summary is empty, search the knowledge base instead."
)


def build_calendar_tool(service: CalendarService) -> BaseTool:
    """The LangChain tool bound to ``service``: the model reads the JSON of a CalendarResult, the
    graph reads the result itself (the ToolMessage's artifact), its cited passages typed."""

    def run(
        date: str | None = None,
        place: str = DEFAULT_PLACE,
        aspects: list[Aspect] | None = None,
        months: list[int] | None = None,
        tickets: list[str] | None = None,
        reduced: bool = False,
        until: str | None = None,
        language: str = "en",
        visitor: Visitor | dict[str, Any] | None = None,
    ) -> tuple[str, CalendarResult]:
        who = Visitor.model_validate(visitor) if isinstance(visitor, dict) else visitor
        result = service.get(date, place, language, until, aspects, months, tickets, reduced, who)
        return result.to_json(), result

    return StructuredTool.from_function(
        func=run,
        name="get_visit_calendar",
        description=DESCRIPTION,
        args_schema=CalendarArguments,
        response_format="content_and_artifact",
    )
