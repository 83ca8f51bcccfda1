"""The calendar arithmetic, pure: what a place's rules say about one day (no I/O, no clock)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Collection
from typing import Literal
from zoneinfo import ZoneInfo

from dateutil.easter import easter
from pydantic import BaseModel, Field

from agents.visit_calendar.rules import WEEKDAYS, Calendar, Price, Rule, SeasonName, month_day

MAX_RANGE_DAYS = 31
DayStatus = Literal["open", "closed", "unknown"]
ClosedWhy = Literal["weekly", "date", "not_an_opening_day"]
FreeWhy = Literal["first_sunday", "every_day", "season"]


class DayReport(BaseModel):
    """A place on a day: open or closed and why, its hours, what is free, what applies."""

    date: dt.date
    place: str
    season: SeasonName | None = None
    status: DayStatus = "unknown"
    closed_why: ClosedWhy | None = None
    opens: str | None = None
    closes: str | None = None
    last_admission: str | None = None
    ticket_office_closes: str | None = None
    free: bool | None = None  # None: not known here
    free_why: FreeWhy | None = None
    prices: list[Price] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)  # ids of the rules this report rests on
    sources: list[str] = Field(default_factory=list)
    withheld: list[str] = Field(default_factory=list)  # rules that apply but failed the source check

    def rest_on(self, rule: Rule) -> None:
        self.rules.append(rule.id)
        if rule.source not in self.sources:
            self.sources.append(rule.source)


@functools.lru_cache(maxsize=64)
def french_public_holidays(year: int) -> frozenset[dt.date]:
    """The eleven French public holidays of ``year`` (Easter Monday, Ascension, Whit Monday from Easter)."""
    sunday = easter(year)
    fixed = [(1, 1), (5, 1), (5, 8), (7, 14), (8, 15), (11, 1), (11, 11), (12, 25)]
    moving = [sunday + dt.timedelta(days=n) for n in (1, 39, 50)]
    return frozenset([dt.date(year, m, d) for m, d in fixed] + moving)


def paris_today(now: dt.datetime, timezone: str = "Europe/Paris") -> dt.date:
    """The day it is at the Palace at ``now`` (an aware datetime): 23:30 UTC on Sunday is Monday in summer."""
    return now.astimezone(ZoneInfo(timezone)).date()


def is_first_sunday(day: dt.date) -> bool:
    return day.weekday() == 6 and day.day <= 7


def day_at(calendar: Calendar, place: str, day: dt.date, withheld: Collection[str] = ()) -> DayReport:
    """What ``calendar`` says about ``place`` on ``day``; rules in ``withheld`` are not used, and a day
    one of them would settle is reported ``unknown`` (the visitor is sent to the knowledge base)."""
    report = DayReport(date=day, place=place)

    def usable(rule: Rule) -> bool:
        if rule.id in withheld:
            report.withheld.append(rule.id)
            return False
        return True

    seasons = [s for s in calendar.seasons if s.valid_on(day) and s.holds(day)]
    if calendar.seasons and (not seasons or not usable(seasons[0])):
        return report
    if seasons:
        report.season = seasons[0].name
        report.rest_on(seasons[0])
    for closed in calendar.closed_dates:
        if place in closed.places and closed.valid_on(day) and _month_day(day) in closed.dates:
            if usable(closed):
                report.rest_on(closed)
                return _closed(report, "date")
            return report
    for weekly in calendar.closed_weekdays:
        if place in weekly.places and weekly.valid_on(day) and WEEKDAYS[day.weekday()] in weekly.weekdays:
            if usable(weekly):
                report.rest_on(weekly)
                return _closed(report, "weekly")
            return report
    seasonal = [h for h in calendar.hours if h.season in (None, report.season)]
    hours = [h for h in seasonal if h.place == place and h.valid_on(day)]
    if not hours or not usable(hours[0]):
        return report
    rule = hours[0]
    report.rest_on(rule)
    named_day = rule.weekdays is None or WEEKDAYS[day.weekday()] in rule.weekdays
    if not named_day and not (rule.public_holidays and day in french_public_holidays(day.year)):
        return _closed(report, "not_an_opening_day") if rule.other_days == "closed" else report
    report.status = "open"
    report.opens, report.closes, report.last_admission = rule.opens, rule.closes, rule.last_admission
    report.ticket_office_closes = rule.ticket_office_closes
    for special in calendar.special_hours:
        if (
            special.place == place
            and day.month in special.months
            and special.valid_on(day)
            and usable(special)
        ):
            report.opens, report.closes = special.opens or report.opens, special.closes or report.closes
            report.rest_on(special)
    report.events = [e.name for e in calendar.events if place in e.places and e.on(day) and usable(e)]
    for event in calendar.events:
        if event.name in report.events:
            report.rest_on(event)
    _free(calendar, report, usable)
    _prices(calendar, report, usable)
    return report


def days_at(
    calendar: Calendar, place: str, first: dt.date, last: dt.date, withheld: Collection[str] = ()
) -> list[DayReport]:
    """One report per day from ``first`` to ``last`` (included), at most ``MAX_RANGE_DAYS``."""
    count = min((last - first).days + 1, MAX_RANGE_DAYS)
    return [day_at(calendar, place, first + dt.timedelta(days=n), withheld) for n in range(max(count, 0))]


def _month_day(day: dt.date) -> str:
    return f"{day.month:02d}-{day.day:02d}"


def _closed(report: DayReport, why: ClosedWhy) -> DayReport:
    report.status, report.closed_why = "closed", why
    return report


def _free(calendar: Calendar, report: DayReport, usable: Callable[[Rule], bool]) -> None:
    """Whether the place is free that day; None when it hangs on show days not on file for that year."""
    day = report.date
    for rule in calendar.free_days:
        if report.place not in rule.places or not rule.valid_on(day):
            continue
        why: FreeWhy | None = None
        if rule.every_day:
            why = "every_day"
        elif rule.first_sunday_of and is_first_sunday(day) and day.month in rule.first_sunday_of:
            why = "first_sunday"
        elif rule.seasons and report.season in rule.seasons:
            why = "season"
        if why is None or not usable(rule):
            continue
        events = [e for e in calendar.events if e.id in rule.except_events]
        if any(e.on(day) for e in events):
            continue  # a paid show day
        if any(not e.valid_on(day) for e in events):
            report.free = None  # show days of that year are not on file
            return
        report.free, report.free_why = True, why
        report.rest_on(rule)
        return
    report.free = False if not any(r.id in report.withheld for r in calendar.free_days) else None


def _prices(calendar: Calendar, report: DayReport, usable: Callable[[Rule], bool]) -> None:
    event_ids = {e.id for e in calendar.events if e.name in report.events}
    for price in calendar.prices:
        if report.place not in price.places or not price.valid_on(report.date):
            continue
        if price.season not in (None, report.season) or (price.event and price.event not in event_ids):
            continue
        if usable(price):
            report.prices.append(price)
            report.rest_on(price)


__all__ = ["DayReport", "day_at", "days_at", "french_public_holidays", "month_day", "paris_today"]
