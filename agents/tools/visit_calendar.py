"""The ``get_visit_calendar`` tool: is a place open on a day, its hours, what is free, the prices.

The day is read with the weather tool's date parser ("lundi prochain", "le 14 juillet", "this
Sunday", "来週の土曜日"); the answer comes from the calendar file's rules, each checked once against
its source document in the index (``agents.visit_calendar.check``): a rule its source no longer
supports is not used, and the result sends the visitor to the knowledge base instead.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Literal
from zoneinfo import ZoneInfo

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from agents.tools.dates import parse_visit_date
from agents.tools.results import ToolResult
from agents.tools.settings import ToolSettings
from agents.visit_calendar.answer import headline, sources_line
from agents.visit_calendar.check import CheckReport, check_calendar, corpus_texts
from agents.visit_calendar.engine import MAX_RANGE_DAYS, DayReport, day_at
from agents.visit_calendar.rules import Calendar, load_calendar
from rag.config import PROJECT_ROOT
from rag.lexicon.dates import day_label
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language
from rag.store import KnowledgeBaseError

logger = logging.getLogger(__name__)
DEFAULT_PLACE = "palace"
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
    sources: list[str] = Field(default_factory=list)
    withheld_rules: list[str] = Field(default_factory=list)


class CalendarResult(ToolResult):
    """The only shape ``get_visit_calendar`` returns."""

    date_text: str
    place_text: str
    days: list[CalendarDay] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    language: str = "en"


class CalendarArguments(BaseModel):
    """Arguments the LLM fills in."""

    date: str = Field(
        description="The day as the visitor wrote it, in any language ('lundi prochain', 'this Sunday', "
        "'le 14 juillet', '来週の土曜日') or ISO 8601 ('2026-12-06')."
    )
    place: str = Field(
        "palace", description="palace, trianon, gardens, park or coaches (the Gallery of Coaches); or 'all'."
    )
    until: str | None = Field(None, description=f"Last day of a short range (at most {MAX_RANGE_DAYS} days).")
    language: str = Field("en", description="The visitor's language, ISO 639-1, for the summary.")


class CalendarService:
    """Answers ``get_visit_calendar`` from the calendar file, its rules checked once against the index."""

    def __init__(
        self,
        settings: ToolSettings | None = None,
        source_texts: SourceTexts | None = None,
        today: Callable[[], dt.date] | None = None,
    ) -> None:
        self.settings = settings or ToolSettings()
        self.source_texts = source_texts or (lambda: corpus_texts(PROJECT_ROOT / "data" / "corpus"))
        self.today = today or (lambda: dt.datetime.now(ZoneInfo(self.settings.timezone)).date())
        self._check: CheckReport | None = None
        self._lock = threading.Lock()

    @property
    def calendar(self) -> Calendar:
        return load_calendar(self.settings.calendar_file)

    def check(self) -> CheckReport:
        """The source check, run on first use (the index is read once per service)."""
        with self._lock:
            if self._check is None:
                try:
                    texts = self.source_texts()
                except (KnowledgeBaseError, OSError) as error:  # no rule is used rather than a crash
                    logger.warning("The visit calendar cannot read the index (%s): no rule is used.", error)
                    texts = {}
                self._check = check_calendar(self.calendar, texts)
                for problem in self._check.problems:
                    logger.warning("Visit calendar rule not used: %s", problem)
            return self._check

    def get(
        self, date: str, place: str = DEFAULT_PLACE, language: str = "en", until: str | None = None
    ) -> CalendarResult:
        """The calendar of ``place`` on ``date`` (to ``until``), summarised in ``language``."""
        code = supported_language(language)
        base = CalendarResult(status="invalid", summary="", date_text=date, place_text=place, language=code)
        calendar, today = self.calendar, self.today()
        first = _day(date, today, code)
        last = _day(until, today, code) if until else first
        if first is None or last is None:
            example = (today + dt.timedelta(days=1)).isoformat()
            return base.model_copy(
                update={"summary": f"Unreadable date {date!r}: ask for a day such as {example}."}
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
        withheld = self.check().withheld
        count = max(1, min((last - first).days + 1, MAX_RANGE_DAYS))
        reports = [
            day_at(calendar, key, first + dt.timedelta(days=n), withheld)
            for n in range(count)
            for key in places
            if key is not None
        ]
        days = [_day_record(report, calendar, code) for report in reports]
        sources = list(dict.fromkeys(s for d in days for s in d.sources))
        lines = [d.line for d in days]
        summary = "\n".join([*lines, sources_line(reports[0].model_copy(update={"sources": sources}), code)])
        return base.model_copy(
            update={
                "status": "ok",
                "source": "calendar",
                "days": days,
                "sources": sources,
                "summary": summary,
            }
        )


def _day(text: str, today: dt.date, language: str) -> dt.date | None:
    parsed = parse_visit_date(text, today, (language, *(c for c in SUPPORTED_LANGUAGES if c != language)))
    return parsed.day  # a past day is answered too: what the rules said then


def _day_record(report: DayReport, calendar: Calendar, language: str) -> CalendarDay:
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
        line=headline(report, calendar, language),
        sources=report.sources,
        withheld_rules=report.withheld,
    )


DESCRIPTION = (
    "The visit calendar of the Palace of Versailles estate for one day or a short range: whether a place "
    "(palace, trianon, gardens, park, coaches, or all) is open or closed and why, its hours and last "
    "admission, whether entry is free that day (first Sundays, low season), the full prices and the events "
    "(fountain shows), with the source of each rule. Use it for every question about opening, closing, "
    "'open on', 'free on' or the price on a given day; pass the date exactly as the visitor wrote it. "
    "Quote the summary's lines; when a day is 'unknown', search the knowledge base instead."
)


def build_calendar_tool(service: CalendarService) -> BaseTool:
    """The LangChain tool bound to ``service``; its result is the JSON of a CalendarResult."""

    def run(date: str, place: str = DEFAULT_PLACE, until: str | None = None, language: str = "en") -> str:
        return service.get(date, place, language, until).to_json()

    return StructuredTool.from_function(
        func=run, name="get_visit_calendar", description=DESCRIPTION, args_schema=CalendarArguments
    )
