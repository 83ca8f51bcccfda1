"""Where a text names a day, and the words that name it: numeric dates, day words ("demain",
"Sunday"), days of a month in digits or words, holidays by their name. The weather and calendar
tools read the phrase (``agents.tools.dates``); the official answers and the offline model find it."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from agents.tools.dates import EXTRA_DAY_OFFSETS, WEEKEND_WORDS
from rag.lexicon.calendar_names import spelled_days
from rag.lexicon.folding import fold, folded_positions
from rag.lexicon.holidays import holiday_day
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.lexicon.terms import TermMatcher

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")  # fmt: skip
MIN_LATIN_DAY_NAME = 5  # dateparser also lists "lu", "mar", "do": words of their own elsewhere
_NUMERIC_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\d{1,2}月\d{1,2}[日号號]|\d{1,2}[日号號]"
)
_YEAR_AFTER = re.compile(r"(?:,?\s*(?:de\s+)?)?(?:\d{4}年|\d{4}\b)")
_YEAR_BEFORE = re.compile(r"\d{4}年$")
_NEXT_WEEK = re.compile(r"(?:下个|下個|下|来週の?)$")


@lru_cache(maxsize=1)
def _day_words() -> TermMatcher:
    """Day words of the nine languages: dateparser's relative days and weekday names, and the
    weather tool's additions (weekends, "ce soir", "dopodomani"...)."""
    from dateparser.languages.loader import default_loader

    words = [*EXTRA_DAY_OFFSETS, *WEEKEND_WORDS]
    weekdays = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    for language in SUPPORTED_LANGUAGES:
        info = default_loader.get_locale(language).info
        relative = info.get("relative-type", {})
        words += [w for key in ("0 day ago", "in 1 day", "in 2 day") for w in relative.get(key, [])]
        words += [w for day in weekdays for w in info.get(day, [])]
    return TermMatcher(
        w
        for w in words
        if (UNSPACED_CHARACTER.search(w) and len(w) > 1 and "(" not in w) or len(w) >= MIN_LATIN_DAY_NAME
    )


@lru_cache(maxsize=1)
def _month_names() -> str:
    """Dateparser's month names of the nine languages, folded, as one regex alternation."""
    from dateparser.languages.loader import default_loader

    names = {
        fold(name)
        for language in SUPPORTED_LANGUAGES
        for month in MONTHS
        for name in default_loader.get_locale(language).info.get(month, [])
        if len(name) >= 3 and not UNSPACED_CHARACTER.search(name)
    }
    return "|".join(sorted(map(re.escape, names), key=len, reverse=True))


@lru_cache(maxsize=1)
def _day_of_month() -> re.Pattern[str]:
    """ "14 juillet", "3rd of August", "July 14": a month name (dateparser's) with a day number."""
    months = _month_names()
    return re.compile(
        rf"\b\d{{1,2}}(?:er|st|nd|rd|th|\.|°|º)? (?:de |of )?(?:{months})\b|\b(?:{months}) \d{{1,2}}\b"
    )


@lru_cache(maxsize=1)
def _spelled_day_of_month() -> re.Pattern[str]:
    """ "le premier mai", "the first of May", "am ersten Mai", "May first": a month with its day in
    words (group ``day``); German ordinals take an ending ("ersten")."""
    months = _month_names()
    words = sorted(spelled_days(), key=len, reverse=True)
    days = "|".join(re.escape(word).replace(r"\ ", r"[\s-]+") for word in words)
    return re.compile(
        rf"\b(?P<day>(?:{days})(?:n|r|s|m)?) (?:de |of |the )?(?:{months})\b"
        rf"|\b(?:{months}),? (?:the )?(?P<after>{days})\b"
    )


def spelled_dates(text: str) -> list[tuple[int, int, str]]:
    """Each day of a month ``text`` writes in words: its span, and the phrase with the day in digits
    ("le premier mai" -> "1 mai"), which the date parser reads."""
    folded, starts = folded_positions(text)
    found = []
    for m in _spelled_day_of_month().finditer(folded):
        group = "day" if m.group("day") else "after"
        word = " ".join(re.split(r"[\s-]+", m.group(group)))
        number = spelled_days().get(word) or spelled_days()[word[:-1]]  # "ersten": "erste" + its ending
        start, end = starts[m.start()], starts[m.end() - 1] + 1
        word_start, word_end = starts[m.start(group)], starts[m.end(group) - 1] + 1
        phrase = text[start:word_start] + str(number) + text[word_end:end]
        found.append((start, end, phrase))
    return found


def day_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a day: numeric dates, day words ("demain", "Sunday"), days of a month (in
    digits or words)."""
    folded, starts = folded_positions(text)
    found = [(m.start(), m.end()) for m in _NUMERIC_DATE.finditer(text)]
    found += _day_words().find(text)
    found += [(start, end) for start, end, _ in spelled_dates(text)]
    return found + [(starts[m.start()], starts[m.end() - 1] + 1) for m in _day_of_month().finditer(folded)]


def day_in(text: str) -> str | None:
    """The first day the text names, as written ("demain", "next Saturday" -> "Saturday", "14 juillet"),
    its day of the month in digits when written in words ("am ersten Mai" -> "1 Mai")."""
    found = day_spans(text)
    if not found:
        return None
    start, end = min(found, key=lambda span: (span[0], -span[1]))
    if spelled := [phrase for a, b, phrase in spelled_dates(text) if (a, b) == (start, end)]:
        return spelled[0]  # "am ersten Mai" -> "am 1 Mai"
    if prefix := _NEXT_WEEK.search(text[:start]):  # "下周六": next week's Saturday, read by the tool
        start = prefix.start()
    return text[start:end]


def date_phrase_in(text: str) -> str | None:
    """The most precise date ``text`` names, for a calendar day: a day of the month with the year
    that follows it, rather than the weekday said with it ("Sunday 3 January 2027" -> "3 January
    2027"); else the first day it names ("next Monday", "demain")."""
    folded, starts = folded_positions(text)
    found = [(m.start(), m.end()) for m in _NUMERIC_DATE.finditer(text)]
    found += [(starts[m.start()], starts[m.end() - 1] + 1) for m in _day_of_month().finditer(folded)]
    if not found and (spelled := spelled_dates(text)):  # "le premier mai" -> "1 mai"
        _, end, phrase = spelled[0]
        year = _YEAR_AFTER.match(text[end:])
        return phrase + (text[end : end + year.end()] if year else "")
    if not found:  # a holiday by its name ("le jour de Noël", "lundi de Pâques", "元旦"), before a
        # weekday its name may hold: the date parser reads the holiday
        return text if holiday_day(text, dt.date.today()) is not None else day_in(text)
    start, end = min(found, key=lambda span: (span[0], -span[1]))
    if year := _YEAR_AFTER.match(text[end:]):
        end += year.end()
    if year_first := _YEAR_BEFORE.search(text[:start]):  # "2027年2月29日"
        start = year_first.start()
    return text[start:end]
