"""Visit facts as the lines a visitor reads, in their language: a day's report, or a place's facts."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection
from pathlib import Path
from typing import Any

from babel.dates import format_skeleton, get_day_names, get_month_names
from babel.lists import format_list
from pydantic import BaseModel

from agents.visit_calendar.engine import DayReport
from agents.visit_calendar.facts import Aspect, PlaceFacts, free_throughout
from agents.visit_calendar.rules import WEEKDAYS, Calendar, FreeDays, Hours, Price, SpecialHours, month_day
from rag.config import PROJECT_ROOT
from rag.lexicon.dates import day_label
from rag.lexicon.languages import supported_language
from rag.lexicon.stores import read_store

PHRASES_FILE = PROJECT_ROOT / "data" / "calendar" / "phrases.toml"
_SPACED_PERIOD = {"ja": "", "zh": ""}  # no space between sentences in Japanese and Chinese


@functools.lru_cache(maxsize=2)
def load_phrases(path: Path = PHRASES_FILE) -> dict[str, dict[str, Any]]:
    """Every language's calendar phrases (read once per file)."""
    return read_store(path)


def headline(report: DayReport, calendar: Calendar, language: str | None, prices: bool = True) -> str:
    """The day's line: open with its hours and last admission, or closed and why, then what is free,
    the prices and the events ("Monday, November 30, 2026: the Palace is closed (closed every Monday).")."""
    code = supported_language(language)
    words = load_phrases()[code]
    spot = calendar.places[report.place]
    said = {
        "date": day_label(report.date, code),
        "place": spot.names.get(code) or spot.names["en"],
        "is": "are" if spot.plural else "is",  # English only: the other templates need no verb
    }
    if report.status == "unknown":
        return str(words["unknown"].format(**said))
    if report.status == "closed":
        return _closed(report, calendar, words, code, said)
    line = str(words["open"].format(**said, opens=report.opens, closes=report.closes))
    if report.last_admission:
        line += words["last_admission"].format(time=report.last_admission)
    sentences = [line + ("" if code in _SPACED_PERIOD else ".")]
    if code in _SPACED_PERIOD:
        sentences[0] += "。"
    sentences += _free_and_prices(report if prices else report.model_copy(update={"prices": []}), words, code)
    if report.events:
        names = [words["event_names"].get(name, name) for name in report.events]
        sentences.append(words["events"].format(events=format_list(names, locale=code)))
    return _SPACED_PERIOD.get(code, " ").join(sentences)


def _closed(
    report: DayReport, calendar: Calendar, words: dict[str, Any], code: str, said: dict[str, str]
) -> str:
    names = get_day_names("wide", locale=code)
    if report.closed_why == "weekly":
        return str(words["closed_weekly"].format(**said, weekday=names[report.date.weekday()]))
    if report.closed_why == "date":
        day = format_skeleton("MMMMd", dt.date(2024, report.date.month, report.date.day), locale=code)
        return str(words["closed_date"].format(**said, day=day))
    rule = next(h for h in calendar.hours if h.id in report.rules and isinstance(h, Hours))
    days = format_list([str(names[WEEKDAYS.index(d)]) for d in rule.weekdays or []], locale=code)
    return str(words["closed_not_an_opening_day"].format(**said, days=days))


def _free_and_prices(report: DayReport, words: dict[str, Any], code: str) -> list[str]:
    if report.free:
        return [str(words[f"free_{report.free_why}"])]
    found = [] if report.free is False else [str(words["free_unknown"])]
    if report.prices:
        tickets = [
            f"{words['tickets'].get(p.ticket, p.ticket)} {p.full:g} €"
            + (words["reduced"].format(reduced=f"{p.reduced:g}") if p.reduced is not None else "")
            for p in report.prices
        ]
        found.append(words["prices"].format(prices=format_list(tickets, locale=code)))
    return found


def fact_lines(
    facts: PlaceFacts,
    calendar: Calendar,
    aspects: list[Aspect],
    language: str | None,
    tickets: Collection[str] = (),
    reduced: bool = False,
    months: Collection[int] = (),
) -> list[FactLine]:
    """The place's facts for ``aspects`` as lines in ``language``, each with the rules it rests on;
    the prices of the ``tickets`` named, else of the place's own tickets, else of every ticket
    opening it; with ``reduced``, only prices that have a reduced rate. A price asked of a place
    free on every day of ``months`` (of the year when none) is that it is free; for ``months`` when
    it is free on some of their days, the prices and those days. Closures asked of ``months`` come with
    their hours: whether a place is open in August is also when."""
    code = supported_language(language)
    words = load_phrases()[code]
    spot = calendar.places[facts.place]
    place = spot.names.get(code) or spot.names["en"]
    lines: list[FactLine] = []
    hours = [_hours_line(rule, calendar, words, code, place) for rule in facts.hours]
    hours += [_special_line(rule, words, code, place) for rule in facts.special_hours]
    if "hours" in aspects:
        lines += hours
    if ("hours" in aspects or "closed" in aspects) and "holidays" not in aspects:
        names = get_day_names("wide", locale=code)
        for weekly in facts.closed_weekdays:
            days = format_list([str(names[WEEKDAYS.index(d)]) for d in weekly.weekdays], locale=code)
            text = words["closed_weekly_rule"].format(place=place, weekdays=days)
            lines.append(FactLine(text=text, rules=[weekly.id], answers="closed"))
    if "closed" in aspects or "holidays" in aspects:
        for closed in facts.closed_dates:
            days = format_list([_month_day_label(d, code) for d in closed.dates], locale=code)
            lines.append(
                FactLine(
                    text=words["closed_dates_rule"].format(place=place, days=days),
                    rules=[closed.id],
                    answers="holidays",
                )
            )
    if "closed" in aspects and "hours" not in aspects and months:  # "is it open in August?": when, too
        lines += hours
    free = [_free_line(rule, calendar, words, place) for rule in facts.free_days]
    if "free" in aspects:
        lines += free
    if "price" in aspects:
        always = [rule.id for rule in facts.free_days if free_throughout(rule, calendar, months)]
        if always and not tickets:
            lines += [
                line.model_copy(update={"answers": "price"}) for line in free if set(line.rules) & set(always)
            ]
        else:
            priced = _priced(facts, tickets)
            lines += [_price_line(rule, words) for rule in priced if not reduced or rule.reduced is not None]
            lines += free if months and not ("free" in aspects or reduced) else []
    end = "。" if code in _SPACED_PERIOD else "."
    return [line.model_copy(update={"text": _capitalised(line.text) + end}) for line in lines]


class FactLine(BaseModel):
    """One line of visit facts, what it answers, and the ids of the rules it states."""

    text: str
    rules: list[str]
    answers: Aspect = "hours"
    visitor: dict[str, Any] | None = None  # the visitor's facts it answers for (None: any visitor)


def _priced(facts: PlaceFacts, tickets: Collection[str]) -> list[Price]:
    named = [price for price in facts.prices if price.ticket in tickets]
    own = [price for price in facts.prices if price.places == [facts.place]]
    return named or own or facts.prices


def _hours_line(rule: Hours, calendar: Calendar, words: dict[str, Any], code: str, place: str) -> FactLine:
    season = next((s for s in calendar.seasons if s.name == rule.season), None)
    if season is None:
        text = words["hours_line"].format(place=place, opens=rule.opens, closes=rule.closes)
    else:
        text = words["hours_season"].format(
            place=place,
            season=words[f"season_{season.name}"],
            months=_months_label(season.starts, season.ends, code),
            opens=rule.opens,
            closes=rule.closes,
        )
    if rule.weekdays:
        names = get_day_names("wide", locale=code)
        text += words["open_days"].format(
            days=format_list([str(names[WEEKDAYS.index(d)]) for d in rule.weekdays], locale=code)
        )
    if rule.last_admission:
        text += words["last_admission"].format(time=rule.last_admission)
    if rule.ticket_office_closes:
        text += words["ticket_office"].format(time=rule.ticket_office_closes)
    return FactLine(text=text, rules=[rule.id, *([season.id] if season else [])])


def _special_line(rule: SpecialHours, words: dict[str, Any], code: str, place: str) -> FactLine:
    names = get_month_names("wide", locale=code)
    months = format_list([str(names[m]) for m in rule.months], locale=code)
    return FactLine(
        text=words["special_opens"].format(place=place, months=months, time=rule.opens), rules=[rule.id]
    )


def _free_line(rule: FreeDays, calendar: Calendar, words: dict[str, Any], place: str) -> FactLine:
    if rule.every_day:
        free = words["free_every_day"]
    elif rule.first_sunday_of:
        free = words["free_first_sunday"]
    else:
        free = words["free_in_season"].format(season=" / ".join(words[f"season_{s}"] for s in rule.seasons))
    free = free.rstrip(".。")
    if rule.except_events:
        events = [e for e in calendar.events if e.id in rule.except_events]
        names = ", ".join(words["event_names"].get(e.name, e.name) for e in events)
        free += words["free_except"].format(events=names)
    text = words["free_place"].format(place=place, free=free[:1].lower() + free[1:])
    return FactLine(text=text, rules=[rule.id], answers="free")


def _price_line(rule: Price, words: dict[str, Any]) -> FactLine:
    ticket = words["tickets"].get(rule.ticket, rule.ticket)
    if rule.season:
        text = words["price_season"].format(
            ticket=ticket, season=words[f"season_{rule.season}"], full=f"{rule.full:g}"
        )
    else:
        text = words["price_line"].format(ticket=ticket, full=f"{rule.full:g}")
    if rule.reduced is not None:
        text += words["reduced"].format(reduced=f"{rule.reduced:g}")
    return FactLine(text=text, rules=[rule.id], answers="price")


def _months_label(starts: str, ends: str, code: str) -> str:
    names = get_month_names("wide", locale=code)
    return f"{names[month_day(starts)[0]]}–{names[month_day(ends)[0]]}"


def _month_day_label(text: str, code: str) -> str:
    month, day = month_day(text)
    return format_skeleton("MMMMd", dt.date(2024, month, day), locale=code)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
