"""What the visit facts say of a place on no particular day: hours by season, closures, free entry,
prices (pure: no I/O, no clock). A question naming a day is answered by ``engine.day_at`` instead."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal, TypeVar

from pydantic import BaseModel, Field

from agents.visit_calendar.rules import (
    Calendar,
    ClosedDates,
    ClosedWeekdays,
    Event,
    FreeDays,
    Hours,
    Price,
    Rule,
    SpecialHours,
    month_day,
)
from rag.lexicon.calendar_names import months_between

R = TypeVar("R", bound=Rule)
CALENDAR_SEASONS = {"high season": "high", "low season": "low"}  # the glossary's concept -> a season
Aspect = Literal["hours", "closed", "holidays", "free", "price"]
ASPECTS: tuple[Aspect, ...] = ("hours", "closed", "holidays", "free", "price")


class PlaceFacts(BaseModel):
    """The rules of one place that the source check keeps, grouped by what a visitor asks."""

    place: str
    hours: list[Hours] = Field(default_factory=list)
    special_hours: list[SpecialHours] = Field(default_factory=list)
    closed_weekdays: list[ClosedWeekdays] = Field(default_factory=list)
    closed_dates: list[ClosedDates] = Field(default_factory=list)
    free_days: list[FreeDays] = Field(default_factory=list)
    prices: list[Price] = Field(default_factory=list)


def place_facts(
    calendar: Calendar, place: str, withheld: Collection[str] = (), months: Collection[int] = ()
) -> PlaceFacts:
    """Every usable rule of ``place``: those ``withheld`` by the source check are left out, and,
    when ``months`` are asked ("in July", "in winter"), those of seasons or months other than them."""

    def kept(rules: Sequence[R]) -> list[R]:
        return [
            rule
            for rule in rules
            if rule.id not in withheld and place in _places(rule) and _holds_in(rule, calendar, set(months))
        ]

    return PlaceFacts(
        place=place,
        hours=kept(calendar.hours),
        special_hours=kept(calendar.special_hours),
        closed_weekdays=kept(calendar.closed_weekdays),
        closed_dates=[
            rule for rule in (_dates_in(r, set(months)) for r in kept(calendar.closed_dates)) if rule.dates
        ],
        free_days=kept(calendar.free_days),
        prices=kept(calendar.prices),
    )


def _dates_in(rule: ClosedDates, months: set[int]) -> ClosedDates:
    """``rule`` with only its dates in ``months`` (all of them when none are asked): "closed on 25
    December" says nothing of a visit in August."""
    if not months:
        return rule
    return rule.model_copy(update={"dates": [day for day in rule.dates if month_day(day)[0] in months]})


def season_months(calendar: Calendar, name: str) -> frozenset[int]:
    """The months a season of ``calendar`` spans, whole or in part."""
    spans = [(month_day(s.starts)[0], month_day(s.ends)[0]) for s in calendar.seasons if s.name == name]
    return frozenset(month for first, last in spans for month in months_between(first, last))


def _holds_in(rule: Rule, calendar: Calendar, months: set[int]) -> bool:
    if not months:
        return True
    if isinstance(rule, SpecialHours):
        return bool(set(rule.months) & months)
    if isinstance(rule, FreeDays) and rule.first_sunday_of and not set(rule.first_sunday_of) & months:
        return False
    if isinstance(rule, Price) and rule.event:  # an event's ticket, in the months the event is held
        held = [event_months(e) for e in calendar.events if e.id == rule.event]
        return not held or any(months & held_in for held_in in held)
    season = getattr(rule, "season", None)
    seasons = [season] if season else list(getattr(rule, "seasons", []))
    return not seasons or any(season_months(calendar, name) & months for name in seasons)


def event_months(event: Event) -> set[int]:
    """The months an event is held in: its dates', else those from ``valid_from`` to
    ``valid_until`` (every month when it spans a year or has no bound)."""
    if event.dates:
        return {day.month for day in event.dates}
    first, last = event.valid_from, event.valid_until
    if first is None or last is None or (last - first).days >= 365:
        return set(range(1, 13))
    return set(months_between(first.month, last.month))


def free_throughout(rule: FreeDays, calendar: Calendar, months: Collection[int]) -> bool:
    """Whether ``rule`` makes its places free on every day of ``months`` (of the year when none)."""
    if rule.first_sunday_of or rule.except_events:
        return False
    if rule.every_day:
        return True
    seasons = set().union(*(season_months(calendar, name) for name in rule.seasons))
    return bool(months) and set(months) <= seasons


def _places(rule: Rule) -> list[str]:
    """The places a rule is about: its ``places``, or its one ``place``."""
    return list(getattr(rule, "places", None) or [getattr(rule, "place", "")])
