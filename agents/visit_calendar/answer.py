"""A day report as the line a visitor reads, in their language, then its sources."""

from __future__ import annotations

import datetime as dt
import functools
import tomllib
from pathlib import Path
from typing import Any

from babel.dates import format_skeleton, get_day_names
from babel.lists import format_list

from agents.visit_calendar.engine import DayReport
from agents.visit_calendar.rules import WEEKDAYS, Calendar, Hours
from rag.config import PROJECT_ROOT
from rag.lexicon.dates import day_label
from rag.lexicon.languages import supported_language

PHRASES_FILE = PROJECT_ROOT / "data" / "calendar" / "phrases.toml"
_SPACED_PERIOD = {"ja": "", "zh": ""}  # no space between sentences in Japanese and Chinese


@functools.lru_cache(maxsize=2)
def load_phrases(path: Path = PHRASES_FILE) -> dict[str, dict[str, Any]]:
    with path.open("rb") as file:
        return tomllib.load(file)


def headline(report: DayReport, calendar: Calendar, language: str | None) -> str:
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
    sentences += _free_and_prices(report, words, code)
    if report.events:
        names = [words["event_names"].get(name, name) for name in report.events]
        sentences.append(words["events"].format(events=format_list(names, locale=code)))
    return _SPACED_PERIOD.get(code, " ").join(sentences)


def sources_line(report: DayReport, language: str | None) -> str:
    return load_phrases()[supported_language(language)]["sources"].format(sources=", ".join(report.sources))


def render(report: DayReport, calendar: Calendar, language: str | None) -> str:
    """The headline, then the sources on their own line."""
    return f"{headline(report, calendar, language)}\n{sources_line(report, language)}"


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
        tickets = [f"{words['tickets'].get(p.ticket, p.ticket)} {p.full:g} €" for p in report.prices]
        found.append(words["prices"].format(prices=format_list(tickets, locale=code)))
    return found
