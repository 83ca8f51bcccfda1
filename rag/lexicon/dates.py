"""Month and weekday names and dates written the visitor's way, all from Babel (CLDR).

Visitor-facing text shows "samedi 28 novembre 2026", "Saturday, November 28, 2026" or
"2026年11月28日土曜日"; machine fields (a tool result's ``date``) keep ISO 8601. A date quoted from a
passage ("3 mai 1802", "1er juillet", "May 1802") is re-written in the reply language by
``rewrite_passage_date``; month names are read from Babel's own tables, not from a list of ours.
"""

from __future__ import annotations

import datetime as dt
import functools
import re

from babel.dates import format_date, format_skeleton, get_day_names, get_month_names

from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import PASSAGE_LANGUAGES, supported_language


def month_names(language: str) -> tuple[str, ...]:
    """The twelve month names of ``language`` as a date writes them ("janvier"...), January first."""
    names = get_month_names("wide", locale=language)
    return tuple(names[month] for month in range(1, 13))


def weekday_names(language: str) -> tuple[str, ...]:
    """The seven weekday names of ``language`` ("lundi"...), Monday first."""
    names = get_day_names("wide", locale=language)
    return tuple(names[day] for day in range(7))


def day_label(day: dt.date, language: str | None) -> str:
    """The day with its weekday: "samedi 28 novembre 2026", "Saturday, November 28, 2026"."""
    return format_date(day, "full", locale=supported_language(language))


def rewrite_passage_date(text: str, language: str | None) -> str:
    """A date as a passage writes it, in ``language``: "3 mai 1802" -> "May 3, 1802" in English.

    Day-month-year, day-month and month-year in French or English are re-written; a date already in
    ``language`` and anything else (a year alone, "XVIIe siècle", an impossible day) is kept as written.
    """
    match = _passage_date().fullmatch(fold_accents(text.strip()))
    if match is None:
        return text
    day, year = match["day"], match["year"] or match["year_alone"]
    written_in, month = _months()[match["month"] or match["month_alone"]]
    locale = supported_language(language)
    if written_in == locale:  # already the visitor's way ("1er juillet" stays as the passage has it)
        return text
    try:
        if day and year:
            return format_date(dt.date(int(year), month, int(day)), "long", locale=locale)
        if day:  # a leap year, so that "29 février" is a day
            return format_skeleton("MMMMd", dt.date(2000, month, int(day)), locale=locale)
        if year:
            return format_skeleton("yMMMM", dt.date(int(year), month, 1), locale=locale)
    except ValueError:  # "31 avril"
        return text
    return text


@functools.lru_cache(maxsize=1)
def _months() -> dict[str, tuple[str, int]]:
    """Folded month names of the passage languages: "fevrier" -> ("fr", 2), "february" -> ("en", 2)."""
    return {
        fold_accents(name): (language, number)
        for language in PASSAGE_LANGUAGES
        for number, name in enumerate(month_names(language), start=1)
    }


@functools.lru_cache(maxsize=1)
def _passage_date() -> re.Pattern[str]:
    """The forms ``rag.answer_types`` quotes, folded: "3 mai 1802", "1er juillet", "mai 1802"."""
    months = "|".join(sorted(map(re.escape, _months()), key=len, reverse=True))
    return re.compile(
        rf"(?P<day>\d{{1,2}})(?:er|st|nd|rd|th)? (?P<month>{months})(?: (?P<year>\d{{4}}))?"
        rf"|(?P<month_alone>{months}) (?P<year_alone>\d{{4}})"
    )
