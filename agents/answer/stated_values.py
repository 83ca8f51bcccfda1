"""Values a text states (prices, times, dates, durations, phones, distances, ages, areas), typed.

A value is read whole ("1 670 mètres" is 1670 m, never "670 mètres": a thin or no-break space
between digit groups belongs to the number), normalised ("9h" = "9:00" = "9 am" = "9時", "21€" =
"€21", "8 mars 1876" = "March 8, 1876" = "1876年3月8日") and written the visitor's way with Babel
(CLDR). Numbers are read with the conventions of the text's language (Babel's decimal and group
symbols), units and month names with Babel's own tables in the nine visitor languages, so the
same reader compares a French passage with an answer written in any of them.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel import Locale
from babel.dates import format_date, format_interval, format_skeleton, get_month_names
from babel.numbers import format_currency, format_decimal, get_decimal_symbol, get_group_symbol
from babel.units import format_unit

from agents.answer.visitor_terms import concepts_named, visitor_term
from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language

KINDS = ("price", "hours", "date", "duration", "phone", "distance", "age", "area", "count")
_SPACES = " \u00a0\u202f\u2009"
_UNITS = {  # kind -> {CLDR unit: factor to the kind's base unit}
    "distance": {"length-kilometer": 1000, "length-meter": 1},
    "area": {"area-hectare": 10_000, "area-square-kilometer": 1_000_000, "area-square-meter": 1},
    "duration": {"duration-hour": 60, "duration-minute": 1},
    "age": {"duration-year": 1},
}
_SOURCE_UNITS = {  # how French and English passages write units that CLDR spells otherwise
    "length-meter": ("metres", "metre", "meters", "meter", "m"),
    "length-kilometer": ("kilometres", "kilometre", "km"),
    "area-square-meter": ("metres carres", "m2", "m²"),
    "area-square-kilometer": ("km2", "km²"),
    "area-hectare": ("hectares", "hectare", "ha"),
    "duration-hour": ("heures", "heure", "h", "hours", "hour"),
    "duration-minute": ("minutes", "minute", "min", "mn"),
    "duration-year": ("ans", "years old", "years", "year", "歳", "岁"),
}


@dataclass(frozen=True)
class StatedValue:
    """One value as a text states it: where it is, and its normalised key (comparable across
    languages: an amount in euros, minutes since midnight, (year, month, day), metres...)."""

    kind: str
    start: int
    end: int
    key: tuple[float | int | None, ...]
    source: str


def _fold(text: str) -> str:
    """Lower case without accents, one character for one, so that spans stay those of ``text``."""
    return "".join(f if len(f := fold_accents(c)) == 1 else c.lower() for c in text)


@lru_cache(maxsize=16)
def _number(language: str) -> str:
    """A number as ``language`` writes it: digit groups split by a space or the locale's group
    symbol ("1 670", "1,670", "1.670"), then the locale's decimal part."""
    locale = supported_language(language)
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    separators = re.escape(_SPACES + (group if group != decimal else ""))
    return rf"(?<![\d.,])(?:\d{{1,3}}(?:[{separators}]\d{{3}})+|\d+)(?:{re.escape(decimal)}\d+)?(?![\d])"


def parse_number(text: str, language: str) -> float | None:
    """The number ``text`` writes in ``language``'s conventions, or None."""
    locale = supported_language(language)
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    plain = re.sub(f"[{re.escape(_SPACES)}]", "", text).replace(group if group != decimal else "", "")
    try:
        return float(Decimal(plain.replace(decimal, ".")))
    except InvalidOperation:
        return None


@lru_cache(maxsize=1)
def _unit_words() -> dict[str, tuple[str, ...]]:
    """Every CLDR unit of ``_UNITS`` as the nine languages write it, folded, longest first."""
    words: dict[str, set[str]] = {}
    for unit in (u for units in _UNITS.values() for u in units):
        found = words.setdefault(unit, set(_SOURCE_UNITS.get(unit, ())))
        for language in SUPPORTED_LANGUAGES:
            for length in ("long", "short", "narrow"):
                for count in (1, 2, 5):
                    written = _fold(format_unit(count, unit, length=length, locale=language))
                    word = re.sub(r"[\d\s.,]+", " ", written).strip()
                    if word and "-" not in word:  # a unit CLDR lacks is written back as its id
                        found.add(word)
    return {unit: tuple(sorted(found, key=len, reverse=True)) for unit, found in words.items()}


@lru_cache(maxsize=16)
def _months() -> dict[str, int]:
    """Folded month names and abbreviations of the nine languages (Babel): "mars" -> 3."""
    names: dict[str, int] = {}
    for language in SUPPORTED_LANGUAGES:
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in get_month_names(width, context, locale=language).items():
                    if not re.search(r"\d", name) and len(name.strip(".")) > 2:
                        names.setdefault(_fold(name).strip("."), number)
    return names


@lru_cache(maxsize=16)
def _patterns(language: str) -> dict[str, re.Pattern[str]]:
    number = _number(language)
    months = "|".join(map(re.escape, sorted(_months(), key=len, reverse=True)))
    clock = (
        r"(?P<h>[01]?\d|2[0-4])(?:(?:[:h時时点點]|\s?h\s?)(?P<m>[0-5]\d)?分?)?"
        r"(?:\s?(?P<ampm>[ap])\.?\s?m\b\.?)?"
    )
    free = "|".join(map(re.escape, _free_words()))
    return {
        "price": re.compile(
            rf"(?:€|eur)\s?(?P<a>{number})|(?P<b>{number})\s?(?:€|euros?\b|eur\b)|(?<!\w)(?:{free})(?!\w)"
        ),
        "clock": re.compile(rf"(?<![\d:.,]){clock}"),
        "date": re.compile(
            rf"(?P<y1>\d{{4}})\s?年\s?(?P<m1>\d{{1,2}})\s?月(?:\s?(?P<d1>\d{{1,2}})\s?[日号])?"
            rf"|(?P<m2>\d{{1,2}})\s?月\s?(?P<d2>\d{{1,2}})\s?[日号]"
            rf"|(?<!\d)(?P<d3>\d{{1,2}})(?:\s?er|st|nd|rd|th|\.|º)?\s(?:de\s)?(?P<m3>{months})\.?"
            rf"(?:,?\s(?:de\s)?(?P<y3>\d{{4}}))?(?!\w)"
            rf"|(?<!\w)(?P<m4>{months})\.?\s(?:(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?,?\s?)?(?:(?:de\s)?(?P<y4>\d{{4}}))?(?!\w)"
            rf"|(?<![\d.,])(?P<y5>1[0-9]{{3}}|20[0-9]{{2}})(?![\d])"
        ),
        "phone": re.compile(r"(?:\+33[\s.]?\(?0?\)?|(?<!\d)0)[1-9](?:[\s.\-]?\d{2}){4}(?!\d)"),
        "count": re.compile(number),
        **{
            kind: re.compile(
                (r"(?<![\d:])(?P<hh>\d{1,2})\s?h\s?(?P<mm>[0-5]\d)(?!\d)|" if kind == "duration" else "")
                + rf"(?P<n>{number})\s?(?P<u>{'|'.join(re.escape(w) for w in _all_units(kind))})(?!\w)"
            )
            for kind in _UNITS
        },
    }


@lru_cache(maxsize=1)
def _free_words() -> list[str]:
    """ "Free" in the nine languages: the glossary's terms ("gratuit", "kostenlos", "無料")."""
    concepts = concepts_named(["free"])
    words = {term for concept in concepts for terms in concept.terms.values() for term in terms}
    return sorted(words, key=len, reverse=True)


def _all_units(kind: str) -> list[str]:
    return sorted({w for unit in _UNITS[kind] for w in _unit_words()[unit]}, key=len, reverse=True)


def stated_values(kind: str, text: str, language: str = "fr") -> list[StatedValue]:
    """The values of ``kind`` that ``text`` (written in ``language``) states, in order."""
    folded = _fold(text)
    patterns = _patterns(language)
    if kind == "hours":
        return _hours(folded, text, patterns["clock"])

    found: list[StatedValue] = []
    for match in patterns["date" if kind == "date" else kind].finditer(folded):
        key = _key(kind, match, language)
        if key is not None:
            found.append(StatedValue(kind, *match.span(), key, text[match.start() : match.end()].strip()))
    return found


def _key(kind: str, match: re.Match[str], language: str) -> tuple[float | int | None, ...] | None:
    groups = match.groupdict()
    if kind == "price":
        amount = groups["a"] or groups["b"]
        return (parse_number(amount, language) if amount else 0.0,)
    if kind == "date":
        year = next((groups[f"y{i}"] for i in (1, 3, 4, 5) if groups.get(f"y{i}")), None)
        month = next((groups[f"m{i}"] for i in (1, 2, 3, 4) if groups.get(f"m{i}")), None)
        day = next((groups[f"d{i}"] for i in (1, 2, 3, 4) if groups.get(f"d{i}")), None)
        number = int(month) if month and month.isdigit() else _months().get((month or "").strip("."))
        if not year and not (number and day):
            return None
        return (int(year) if year else None, number, int(day) if day else None)
    if kind == "phone":
        digits = re.sub(r"\D", "", match.group())
        return (int("0" + digits[2:].lstrip("0") if digits.startswith("33") else digits),)
    if kind == "count":
        return (parse_number(match.group(), language),)
    if groups.get("hh"):  # "1h30"
        return (int(groups["hh"]) * 60 + int(groups["mm"]),)
    value = parse_number(groups["n"], language)
    unit = next(u for u in _UNITS[kind] if groups["u"] in _unit_words()[u])
    return None if value is None else (value * _UNITS[kind][unit],)


def _hours(folded: str, text: str, clock: re.Pattern[str]) -> list[StatedValue]:
    """Times of day, a range ("de 9h à 17h30", "9:00–18:30", "9時～18時") as one value keyed by
    its two times in minutes; "9h" alone is 9:00, but a bare number is no time."""
    times = []
    for match in clock.finditer(folded):
        hours, minutes, ampm = int(match["h"]), int(match["m"] or 0), match["ampm"]
        if match.group() == match["h"] or hours > 24:
            continue  # "17" alone is a number, not a time
        hours += 12 if ampm == "p" and hours < 12 else 0
        times.append((match.start(), match.end(), hours * 60 + minutes))
    values: list[StatedValue] = []
    index = 0
    while index < len(times):
        start, end, minutes = times[index]
        if index + 1 < len(times) and _joins(folded[end : times[index + 1][0]]):
            close = times[index + 1]
            values.append(StatedValue("hours", start, close[1], (minutes, close[2]), text[start : close[1]]))
            index += 2
            continue
        previous = values[-1] if values else None
        if previous and previous.key[1] is not None and _aside(folded[previous.end : start]):
            opens = int(previous.key[0] or 0)  # "de 9h à 17h30 (18h30 en haute saison)": a later closing
            key = (opens, minutes) if minutes > opens else (minutes, None)
        else:
            key = (minutes, None)
        values.append(StatedValue("hours", start, end, key, text[start:end]))
        index += 1
    return values


def _aside(between: str) -> bool:
    """Whether a time follows a range as an alternative to it: "(18h30 en haute saison)"."""
    return bool(re.fullmatch(r"\s*[(,]\s*(?:jusqu'a|until|till)?\s*", between))


def _joins(between: str) -> bool:
    """Whether the words between two times make them a range ("à", "-", "to", "bis", "～"...)."""
    return bool(
        re.fullmatch(r"\s*(?:-|–|—|~|～|〜|a|au|to|until|till|bis|al|alle|ate|tot|至|到)?\s*", between)
    )


# --- written the visitor's way ---------------------------------------------------------------


def written(value: StatedValue, language: str) -> str:
    """``value`` as the visitor's language writes it (Babel): "21 €" -> "€21", "9h à 18h30" ->
    "09:00 – 18:30", "1 670 mètres" -> "1,670 m", "8 mars 1876" -> "March 8, 1876"."""
    locale = supported_language(language)
    key = value.key
    if value.kind == "price":
        return _free(locale) if key[0] == 0 else _euros(float(key[0] or 0), locale)
    if value.kind == "hours":
        opens = _time(int(key[0] or 0))
        if key[1] is None:
            return format_skeleton("Hm", opens, locale=locale)
        return format_interval(opens, _time(int(key[1])), "Hm", locale=locale)
    if value.kind == "date":
        year, month, day = key
        try:
            if year and month and day:
                return format_date(dt.date(int(year), int(month), int(day)), "long", locale=locale)
            if month and day:
                return format_skeleton("MMMMd", dt.date(2000, int(month), int(day)), locale=locale)
            if year and month:
                return format_skeleton("yMMMM", dt.date(int(year), int(month), 1), locale=locale)
        except ValueError:
            return value.source
        return value.source
    if value.kind in ("distance", "area", "duration"):
        return _measure(value.kind, float(key[0] or 0), locale)
    return value.source  # phones, ages and counts as the source writes them


def _time(minutes: int) -> dt.time:
    return dt.time(min(minutes // 60, 23), minutes % 60)


def _euros(amount: float, locale: str) -> str:
    pattern = Locale.parse(locale).currency_formats["standard"].pattern.split(";")[0]
    if amount == int(amount):
        pattern = re.sub(r"\.0+", "", pattern)
    return format_currency(_plain(amount), "EUR", format=pattern, locale=locale, currency_digits=False)


def _free(locale: str) -> str:
    """ "Free" in the visitor's language, from the glossary ("gratuit", "free", "無料")."""
    concept = next(iter(concepts_named(["free"])), None)
    return visitor_term(concept, locale) if concept else _euros(0, locale)


def _measure(kind: str, amount: float, locale: str) -> str:
    """The largest unit of ``kind`` the amount reaches whole or in tenths (1670 m stays metres)."""
    for unit, factor in _UNITS[kind].items():
        if amount >= factor and (amount / factor * 10) == int(amount / factor * 10):
            count = amount / factor
            if kind == "duration" and unit == "duration-hour" and count != int(count):
                hours, minutes = int(count), round((count - int(count)) * 60)
                return f"{_measure(kind, hours * 60, locale)} {_measure(kind, minutes, locale)}"
            return format_unit(_plain(count), unit, length="short", locale=locale)
    return format_decimal(_plain(amount), locale=locale)


def _plain(number: float) -> float | int:
    return int(number) if number == int(number) else number
