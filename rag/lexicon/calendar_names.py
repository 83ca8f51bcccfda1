"""The months and weekdays a text names, in any of the nine languages (Babel's calendar names):
"d'avril à octobre" covers April to October, "fermé les lundis" names Monday."""

from __future__ import annotations

import re
from functools import lru_cache

from babel.dates import get_day_names, get_month_names
from num2words import num2words

from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import SPELLED_NUMBER_LANGUAGES, SUPPORTED_LANGUAGES
from rag.lexicon.scripts import UNSPACED_CHARACTER

_RANGE = re.compile(r"\s*(?:-|–|à|au|to|until|till|bis|al|a)\s*", re.IGNORECASE)


def months_covered(text: str) -> set[int]:
    """The months ``text`` names, a range ("d'avril à octobre", "novembre-mars") standing for all
    the months it spans."""
    folded = fold_accents(text)
    months, _ = _calendar_names()
    named = [
        (m, months[name])
        for m in _calendar_pattern().finditer(folded)
        if (name := _singular(m.group(), months)) in months
    ]
    covered: set[int] = set()
    index = 0
    while index < len(named):
        match, first = named[index]
        if index + 1 < len(named) and _RANGE.fullmatch(_between(folded, match, named[index + 1][0])):
            last = named[index + 1][1]
            covered |= months_between(first, last)
            index += 2
            continue
        covered.add(first)
        index += 1
    return covered


def months_between(first: int, last: int) -> set[int]:
    """The months from ``first`` to ``last`` included, across the new year if need be (11, 3: Nov-Mar)."""
    return {(first - 1 + step) % 12 + 1 for step in range((last - first) % 12 + 1)}


def _between(folded: str, first: re.Match[str], second: re.Match[str]) -> str:
    """The words between two month names, a day number before the second left out ("1er avril-31 octobre")."""
    return re.sub(r"\b\d{1,2}(?:er)?\b", "", folded[first.end() : second.start()])


_PLURAL_ENDINGS = ("en", "s")  # a weekday in the plural: "lundis", "maandagen", "segundas-feiras"


def _singular(name: str, *tables: dict[str, int]) -> str:
    """ "lundis" -> "lundi", "maandagen" -> "maandag", "segundas-feiras" -> "segunda-feira" (a
    weekday in the plural: "fermé les lundis")."""
    base = name.replace("s-", "-")
    candidates = [name, base, *(base[: -len(end)] for end in _PLURAL_ENDINGS if base.endswith(end))]
    return next((c for c in candidates if any(c in table for table in tables)), name)


@lru_cache(maxsize=1)
def _calendar_names() -> tuple[dict[str, int], dict[str, int]]:
    """Folded wide month and weekday names of the nine languages (Babel)."""
    months: dict[str, int] = {}
    days: dict[str, int] = {}
    for language in SUPPORTED_LANGUAGES:
        for number, name in get_month_names("wide", locale=language).items():
            if not re.search(r"\d", name):
                months.setdefault(fold_accents(name), number)
        for number, name in get_day_names("wide", locale=language).items():
            days.setdefault(fold_accents(name), number)
    return months, days


def month_names() -> frozenset[str]:
    """The months' names in the nine languages, folded ("may", "mai", "mayo")."""
    return frozenset(_calendar_names()[0])


@lru_cache(maxsize=1)
def _calendar_pattern() -> re.Pattern[str]:
    months, days = _calendar_names()
    month_names = "|".join(map(re.escape, sorted(months, key=len, reverse=True)))
    # a weekday's plural: an ending ("lundis", "maandagen"), each part's in a compound ("segundas-feiras")
    day_names = "|".join(
        re.escape(name).replace(r"\-", r"s?\-") for name in sorted(days, key=len, reverse=True)
    )
    return re.compile(rf"(?<!\w)(?:(?:{month_names})s?|(?:{day_names})(?:en|s)?)(?!\w)")


def weekdays_named(text: str) -> set[int]:
    """The weekdays ``text`` names, in any of the nine languages (0 is Monday); a Japanese or
    Chinese name needs no word boundary ("每月第一个星期日")."""
    days = _calendar_names()[1]
    folded = fold_accents(text)
    names = [_singular(m.group(), days) for m in _calendar_pattern().finditer(folded)]
    names += [name for name in days if UNSPACED_CHARACTER.search(name) and name in folded]
    return {days[name] for name in names if name in days}


DAYS_OF_MONTH = range(1, 32)


@lru_cache(maxsize=1)
def spelled_days() -> dict[str, int]:
    """Days of the month in words, folded -> their number: ordinals ("premier", "first", "ersten")
    and cardinals from two ("deux", "dos"; "one" is too often no day), from num2words."""
    table: dict[str, int] = {}
    for language in SPELLED_NUMBER_LANGUAGES:
        for day in DAYS_OF_MONTH:
            words = [num2words(day, lang=language, to="ordinal")]
            words += [num2words(day, lang=language)] if day > 1 else []
            for word in words:
                table.setdefault(" ".join(re.split(r"[\s-]+", fold_accents(word).strip())), day)
    return table
