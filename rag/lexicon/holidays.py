"""Public holidays named the visitors' way ("Noël", "Christmas Day", "le jour de l'an", "Ostermontag",
"元日"), read into a day from the python-holidays calendars and their translations, never a list of ours.

A name is recognised when the text holds it whole, or holds its distinctive words: those that fewer
than three holidays of the same calendar share ("Christmas" for "Christmas Day", since "Day" is in
many names). Days a calendar only observes in lieu ("Christmas Day (observed)") are left out.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections import Counter

from rag.lexicon.calendar_names import month_names
from rag.lexicon.folding import fold

# (country, language) calendars whose names are read: France in French and English, and a country
# writing each other visitor language (Mexico too: "Navidad", where Spain says "Natividad del Señor").
CALENDARS = (
    ("FR", "fr"), ("FR", "en_US"), ("GB", "en_GB"), ("DE", "de"), ("ES", "es"), ("MX", "es"),
    ("IT", None), ("PT", "pt_PT"), ("NL", "nl"), ("JP", "ja"), ("CN", "zh_CN"), ("CN", "zh_TW"),
)  # fmt: skip
_SHARED_BY = 3  # a word in this many names of one calendar is generic ("day", "de", "tag")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _words(text: str) -> list[str]:
    return [word.removesuffix("'s") for word in re.findall(r"[\w']+", fold(text))]


@functools.lru_cache(maxsize=8)
def named_days(year: int) -> tuple[tuple[str, frozenset[str], dt.date], ...]:
    """(folded name, its distinctive words, day) of every holiday of ``year`` in the calendars."""
    import holidays

    found: list[tuple[str, frozenset[str], dt.date]] = []
    months = month_names()  # "May" of "May Day" is any day in May: only the whole name says the holiday
    for country, language in CALENDARS:
        calendar = holidays.country_holidays(country, years=year, language=language)
        names = [
            (name, day)
            for day, joined in sorted(calendar.items())
            for name in joined.split("; ")
            if "(" not in name and "（" not in name
        ]
        shared = Counter(word for name in {n for n, _ in names} for word in set(_words(name)))
        for name, day in names:
            distinctive = frozenset(
                w for w in _words(name) if shared[w] < _SHARED_BY and len(w) > 2 and w not in months
            )
            found.append((fold(name), distinctive, day))
    return tuple(found)


def _whole(holiday: str, text: str) -> bool:
    if _UNSPACED.search(holiday):
        return holiday in text
    return bool(re.search(rf"(?<!\w){re.escape(holiday)}(?!\w)", text))


def holiday_day(text: str, today: dt.date) -> dt.date | None:
    """The next day (today included) of the holiday ``text`` names (in the year it writes, if any), or
    None when it names none or
    names several that fall on different days. A name written whole wins over distinctive words
    ("Tweede paasdag" is not "Eerste paasdag")."""
    folded, text_words = fold(text), set(_words(text))
    written = re.search(r"(?<!\d)(?:19|20)\d{2}(?!\d)", folded)  # "Noël 2027": that year's, past or not
    years = (int(written.group()),) if written else (today.year, today.year + 1)
    for year in years:
        coming = [(name, words, day) for name, words, day in named_days(year) if written or day >= today]
        whole = [(name, day) for name, _, day in coming if _whole(name, folded)]
        matched = whole or [(name, day) for name, words, day in coming if words and words <= text_words]
        first = {name: day for name, day in reversed(matched)}  # a festival of several days: its first
        if len(set(first.values())) == 1:
            return next(iter(first.values()))
        if first:
            return None
    return None


def holiday_spans(text: str, today: dt.date) -> list[tuple[int, int]]:
    """Where ``text`` writes the words of the holiday it names ("New Year's Day", "Hemelvaartsdag"),
    as :func:`holiday_day` reads it; none when it names none."""
    if holiday_day(text, today) is None:
        return []
    folded, text_words = fold(text), set(_words(text))
    years = (today.year, today.year + 1)
    named = {
        word
        for year in years
        for name, words, _ in named_days(year)
        if _whole(name, folded) or (words and words <= text_words)
        for word in _words(name)
    }
    return [
        (m.start(), m.end())
        for m in re.finditer(r"[\w']+", text)
        if _words(m.group())[:1] and _words(m.group())[0] in named
    ]
