"""Visit dates as visitors write them, in nine languages, read with ``dateparser`` into one day.

The library does the reading. What it leaves out in dateparser 1.5 (checked against the nine
locales) is filled in by two small tables rather than by rules of our own:

- weekend words ("ce week-end", "this weekend", "周末"...): the weekend in progress, else the coming
  Saturday, since the forecast for one day is what the tool gives;
- a few everyday phrases it does not read ("ce soir", "después de mañana", "あした"...), matched
  without accents or hyphens.

Public holidays ("Noël", "Easter Monday", "le jour de l'an", "元日") are their next day, read by
:mod:`rag.lexicon.holidays` from the python-holidays calendars; "next weekend" during a weekend is
the following one (the "next" words come from dateparser's own data).

Conventions: dates are read day first (05/12/2026 is 5 December) except in Japanese and Chinese
text, which writes the month first (7月14日); a day without a year is its next occurrence (on
20 July, "le 14 juillet" is next year's); a weekday name is its next occurrence, today included (on
a Saturday, "samedi" and "next Saturday" both mean today); "下周六" and "来週の土曜日" are next
week's Saturday. A month or a year alone ("juillet", "2026") is not a day and is reported as vague.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dateparser.date import DateDataParser
from dateparser.languages.loader import default_loader
from dateparser.search import search_dates

from rag.lexicon.folding import fold_accents
from rag.lexicon.holidays import holiday_day
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.scripts import UNSPACED_CHARACTER

SATURDAY = 5

# Phrases dateparser 1.5 does not read, as days from today. Longest first when several match.
EXTRA_DAY_OFFSETS = {
    "ce soir": 0, "ce matin": 0, "cet après-midi": 0, "cette nuit": 0,
    "esta noche": 0, "esta tarde": 0, "esta mañana": 0, "pasado mañana": 2,
    "heute abend": 0, "heute nachmittag": 0, "heute morgen": 0,
    "stasera": 0, "stamattina": 0, "dopodomani": 2, "dopo domani": 2,
    "hoje à noite": 0, "hoje à tarde": 0, "esta noite": 0, "depois de amanhã": 2,
    "vanavond": 0, "vanmiddag": 0, "vanmorgen": 0,
    "きょう": 0, "今夜": 0, "今晩": 0, "あした": 1, "あさって": 2,
    "今晚": 0, "後天": 2,
    # the day after tomorrow, as dateparser 1.5 misses it (it reads "demain"/"mañana" alone: tomorrow)
    "après-demain": 2, "después de mañana": 2, "übermorgen": 2, "uebermorgen": 2, "dag na morgen": 2,
}  # fmt: skip
WEEKEND_WORDS = (
    "weekend", "week-end", "fin de semana", "wochenende", "fine settimana", "fim de semana", "週末", "周末",
)  # fmt: skip
# Chinese and Japanese "next week's <weekday>": the prefix is dropped and the weekday moved to next week.
_NEXT_WEEK_PREFIX = re.compile(r"^(?:下个|下個|下)(?=周|週|星期|礼拜|禮拜)|^来週の?")
# "12月25日", "2027年1月3日": read here, since dateparser 1.5 takes "12月25日" for 25 November 2112.
_CJK_MONTH_DAY = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号號]")
_TRAILING_PUNCTUATION = " .,;:!?？。！、"

DateStatus = Literal["ok", "past", "vague", "unreadable"]


@dataclass(frozen=True)
class ParsedDate:
    """What a visitor's date expression means: a day (``ok`` or ``past``), or why there is none."""

    text: str
    status: DateStatus
    day: dt.date | None = None


def parse_visit_date(text: str, today: dt.date, languages: Sequence[str] = SUPPORTED_LANGUAGES) -> ParsedDate:
    """Read ``text`` ("demain", "next Saturday", "le 14 juillet", "2026-12-05") relative to ``today``.

    Args:
        text: the date as the visitor wrote it.
        today: the current day where the visit takes place (Europe/Paris).
        languages: ISO 639-1 codes to try, the visitor's first; defaults to the nine visitor languages.
    """
    cleaned = _normalise(text)
    if not cleaned:
        return ParsedDate(text, "unreadable")
    languages = tuple(languages) or SUPPORTED_LANGUAGES
    found = _resolve(cleaned, today, languages)
    if found == "vague":
        return ParsedDate(text, "vague")
    if found is None:
        return ParsedDate(text, "unreadable")
    if (
        found == today + dt.timedelta(days=7)
        and _weekend(cleaned, today) is None  # "next weekend" on a Saturday: the one a week later
        and _resolve(cleaned, today - dt.timedelta(days=1), languages) == today
    ):
        found = today  # a weekday name on that weekday: today, not in a week
    return ParsedDate(text, "past" if found < today else "ok", found)


def _normalise(text: str) -> str:
    return " ".join(text.replace("’", "'").split()).strip(_TRAILING_PUNCTUATION).casefold()


def _loose(text: str) -> str:
    """Accents and hyphens dropped: "apres demain" and "pasado manana" are the phrases too."""
    return " ".join(fold_accents(text).replace("-", " ").split())


@functools.lru_cache(maxsize=1)
def next_markers() -> tuple[str, ...]:
    """How the nine languages say "next" before or after a period ("next", "prochain", "nächst",
    "próxim", "volgend", "来", "下"), taken from dateparser's own "next week" phrases: the words of
    "next week" that neither "this week", "last week" nor the word "week" holds."""
    markers: set[str] = set()
    for language in SUPPORTED_LANGUAGES:
        info = default_loader.get_locale(language).info
        relative = info.get("relative-type", {})
        week_words = sorted((_loose(word) for word in info.get("week", [])), key=len, reverse=True)
        other = {
            w
            for key in ("0 week ago", "1 week ago")
            for p in relative.get(key, [])
            for w in _loose(p).split()
        }
        for phrase in relative.get("in 1 week", []):
            rest = _loose(phrase)
            for word in week_words:
                rest = rest.replace(word, " ")
            for word in rest.split():
                if word not in other and word not in week_words:
                    markers.add(word[:-1] if len(word) > 4 else word)  # "prochaine" -> "prochain"
    return tuple(sorted(markers))


def _says_next(text: str, weekend: str) -> bool:
    """Whether the weekend asked for is the next one ("next weekend", "le week-end prochain",
    "下周末"): a "next" word of the nine languages at a word's start, or just before the weekend word
    in Chinese and Japanese."""
    loose = _loose(text)
    before = loose[: loose.find(weekend)] if weekend in loose else ""
    for marker in next_markers():
        if UNSPACED_CHARACTER.search(marker):
            if marker in before[-3:]:
                return True
        elif re.search(rf"(?<!\w){re.escape(marker)}", loose):
            return True
    return False


def _weekend(text: str, today: dt.date) -> dt.date | None:
    """The Saturday of the weekend ``text`` names: the one in progress, else the coming one; the
    following one when the visitor says "next" during a weekend."""
    weekend = next((_loose(word) for word in WEEKEND_WORDS if _loose(word) in _loose(text)), None)
    if weekend is None:
        return None
    coming = today + dt.timedelta(days=(SATURDAY - today.weekday()) % 7)
    if today.weekday() >= SATURDAY:
        in_progress = today - dt.timedelta(days=today.weekday() - SATURDAY)
        return in_progress + dt.timedelta(days=7) if _says_next(text, weekend) else today
    return coming


def _resolve(text: str, today: dt.date, languages: tuple[str, ...]) -> dt.date | Literal["vague"] | None:
    """The day ``text`` names seen from ``today``; ``"vague"`` for a month or year; None if unread."""
    if (saturday := _weekend(text, today)) is not None:
        return saturday
    offset = _extra_offset(text)
    if offset is not None:
        return today + dt.timedelta(days=offset)
    if (holiday := holiday_day(text, today)) is not None:  # "Noël", "Easter Monday", "元日"
        return holiday
    if cjk := _CJK_MONTH_DAY.search(text):
        return _month_day(today, int(cjk[2]), int(cjk[3]), int(cjk[1]) if cjk[1] else None)
    if _NEXT_WEEK_PREFIX.match(text):
        weekday = _library_day(_NEXT_WEEK_PREFIX.sub("", text), today, languages)
        if isinstance(weekday, dt.date) and 0 <= (weekday - today).days < 7:
            return today + dt.timedelta(days=7 - today.weekday() + weekday.weekday())
    return _library_day(text, today, languages)


def _month_day(today: dt.date, month: int, day: int, year: int | None) -> dt.date | None:
    """That day of ``year``, else its next occurrence from ``today`` (29 February: the next leap year's)."""
    for candidate in [year] if year else range(today.year, today.year + 9):
        try:
            found = dt.date(candidate, month, day)
        except ValueError:
            continue
        if year or found >= today:
            return found
    return None


def _extra_offset(text: str) -> int | None:
    loose = _loose(text)
    for phrase in sorted(EXTRA_DAY_OFFSETS, key=len, reverse=True):
        written = _loose(phrase)
        pattern = (
            re.escape(written) if UNSPACED_CHARACTER.search(phrase) else rf"(?<!\w){re.escape(written)}(?!\w)"
        )
        if re.search(pattern, loose):
            return EXTRA_DAY_OFFSETS[phrase]
    return None


def _library_day(text: str, today: dt.date, languages: tuple[str, ...]) -> dt.date | Literal["vague"] | None:
    """dateparser on the whole text, else on the date it finds inside ("samedi prochain" -> "samedi")."""
    parser = _parser(languages, today, month_first=bool(UNSPACED_CHARACTER.search(text)))
    data = parser.get_date_data(text)
    if data.date_obj is None:
        found = search_dates(
            text, languages=list(languages), settings=_settings(today, bool(UNSPACED_CHARACTER.search(text)))
        )
        for fragment, _ in found or []:
            data = parser.get_date_data(fragment)
            if data.date_obj is not None and data.period == "day":
                break
        else:
            return None
    if data.date_obj is None:
        return None
    if data.period in ("month", "year"):
        return "vague"
    return data.date_obj.date()


def _settings(today: dt.date, month_first: bool) -> dict[str, object]:
    settings: dict[str, object] = {
        "PREFER_DATES_FROM": "future",
        "RELATIVE_BASE": dt.datetime.combine(today, dt.time(12)),
    }
    if not month_first:
        settings["DATE_ORDER"] = "DMY"
    return settings


@functools.lru_cache(maxsize=32)
def _parser(languages: tuple[str, ...], today: dt.date, month_first: bool) -> DateDataParser:
    """One parser per language list and day: dateparser loads its locales once, on first use."""
    return DateDataParser(languages=list(languages), settings=_settings(today, month_first))
