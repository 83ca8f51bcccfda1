"""Values a text states, each read into a canonical key so that equal values written differently match.

"9 h", "9:00", "9 am" and "9時" are hours "09:00"; "1er janvier", "January 1" and "1月1日" the date
"--01-01"; "1 670 m" and "1,670 m" the distance "1670 m"; "24€", "€24" and "24,00 €" the price
"24 EUR" ("US$21" is "21 USD"); percentages their number ("25 %" = "25 Prozent"); durations are
minutes ("1h30" = "90 minutes"); phone numbers their national digits;
ages and counts their number. A form that may mean two things keeps both readings: "1 h 30" is the
clock time 01:30 or a 90-minute duration, "2000" a year or a count. A range ("9:00–18:30",
"de 9 à 18 h 30") gives both ends, the bare end taking the other's unit.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict

from agents.answer import number_words
from agents.answer import value_grammar as grammar
from rag.lexicon.folding import fold_in_place

ValueKind = Literal[
    "date", "count", "price", "hours", "distance", "duration", "phone", "age", "area", "percent"
]
Reading = tuple[ValueKind, str]
Groups = dict[str, str]

_UNIT_FIRST = {"pricepre", "mdy"}  # "€10–12", "January 1–15": the bare end comes after
_AMBIGUOUS_HOURS = {"heure", "heures", "uur"}  # "à 9 heures" (a time), "2 heures" (a duration)
_WORDED_KINDS = frozenset({"price", "percent", "hours", "date", "age"})  # amounts, times, years
_LINK = re.compile(r"(?:https?://|www\.)[^\s)\]>]+")


class StatedValue(BaseModel):
    """A value as a text writes it, its kind and canonical key, and what else the same words may mean."""

    model_config = ConfigDict(frozen=True)

    kind: ValueKind
    text: str
    key: str
    alternatives: tuple[tuple[ValueKind, str], ...] = ()

    @property
    def readings(self) -> frozenset[Reading]:
        """Every (kind, key) the value may be read as."""
        return frozenset({(self.kind, self.key), *self.alternatives})


@dataclass(frozen=True)
class _Found:
    """A value found in folded text: its readings, its place, and the unit a range's bare end takes."""

    readings: tuple[Reading, ...]  # its own reading first
    start: int
    end: int
    form: str = ""
    unit: str = ""


def extract_values(text: str) -> list[StatedValue]:
    """Every value ``text`` states, in reading order."""
    found, _ = _scan(text)
    return [
        StatedValue(
            kind=f.readings[0][0],
            text=text[f.start : f.end],
            key=f.readings[0][1],
            alternatives=f.readings[1:],
        )
        for f in found
    ]


def value_spans(text: str) -> list[tuple[int, int]]:
    """Where each value of ``text`` starts and ends, so that a split never cuts one ("Am 11. Juni")."""
    found, _ = _scan(text)
    return [(value.start, value.end) for value in found]


@functools.lru_cache(maxsize=4096)
def text_readings(text: str) -> frozenset[Reading]:
    """What a passage or tool result supports: its values' readings, the month and year a full date
    holds ("2025-01-01" also supports "--01-01", "2025-01", "2025"), and every other number as a count."""
    found, lone_numbers = _scan(text)
    readings: set[Reading] = {("count", number) for number in lone_numbers}
    for value in found:
        readings.update(value.readings)
        readings.update(
            ("date", key) for kind, key in value.readings if kind == "date" for key in _coarser(key)
        )
    return frozenset(readings)


def _scan(text: str) -> tuple[list[_Found], list[str]]:
    """The values of ``text`` in order, and the numbers no value holds (as keys); numbers written
    in words are read as digits, and kept where they state an amount, a time or a year."""
    folded = _LINK.sub(_blank, fold_in_place(text))
    digitised = number_words.digitise(folded)
    scanned = digitised.text if digitised else folded
    found = [value for match in grammar.scan_pattern().finditer(scanned) if (value := _read(match))]
    if digitised:
        found = [value for value in found if _worded_value_kept(value, digitised)]
    taken = [(value.start, value.end) for value in found]
    lone_numbers: list[str] = []
    for match in grammar.lone_number().finditer(scanned):
        if any(start < match.end() and match.start() < end for start, end in taken):
            continue
        if end := _range_end(scanned, match, found):
            found.append(end)
        else:
            lone_numbers.append(_key(number(match["n"])))
    if digitised:
        found = [_in_original(value, digitised) for value in found]
    return sorted(found, key=lambda value: value.start), lone_numbers


def _worded_value_kept(value: _Found, digitised: number_words.Digitised) -> bool:
    """Whether a value is kept: any value written in digits; one written in words only when it
    states an amount, a time or a year ("one of", "一緒" are no values)."""
    start, end = digitised.original(value.start, value.end)
    if not any(a < end and start < b for a, b in digitised.runs):
        return True
    return any(kind in _WORDED_KINDS for kind, _ in value.readings)


def _in_original(value: _Found, digitised: number_words.Digitised) -> _Found:
    """``value`` placed in the original text (the digits stood for words there)."""
    start, end = digitised.original(value.start, value.end)
    return replace(value, start=start, end=end)


def _blank(match: re.Match[str]) -> str:
    """Spaces in place of a link: its digits state nothing, and offsets stay."""
    return " " * len(match.group())


def _range_end(folded: str, bare: re.Match[str], found: list[_Found]) -> _Found | None:
    """The bare end of a range read with the other end's unit ("9" in "de 9 à 18 h 30"), or None."""
    connector = grammar.range_connector()
    after = min((v for v in found if v.start >= bare.end()), key=lambda v: v.start, default=None)
    before = max((v for v in found if v.end <= bare.start()), key=lambda v: v.end, default=None)
    if (
        after
        and after.unit
        and after.form not in _UNIT_FIRST
        and connector.fullmatch(folded[bare.end() : after.start])
    ):
        partner, value = after, _read_alone(f"{bare.group()} {after.unit}")
        if value and partner.unit.startswith("p") and value.readings[0][1] > partner.readings[0][1]:
            value = _read_alone(f"{bare.group()} am")  # "9–5 pm": a range starts before it ends
    elif before and before.form in _UNIT_FIRST and connector.fullmatch(folded[before.end : bare.start()]):
        partner, value = before, _read_alone(f"{before.unit} {bare.group()}")
    else:
        return None
    if value is None or value.readings[0][0] != partner.readings[0][0]:
        return None
    return _Found(value.readings, bare.start(), bare.end())


def _read_alone(text: str) -> _Found | None:
    """``text`` read as exactly one value, or None."""
    match = grammar.scan_pattern().fullmatch(text)
    return _read(match) if match else None


def _read(match: re.Match[str]) -> _Found | None:
    """The value a match of the scan pattern states; None when it is none (a 31 April, a 25:00)."""
    form = match.lastgroup or ""
    groups = {name: value for name in grammar.form_groups()[form] if (value := match[f"{form}_{name}"])}
    readings = _READERS[form](form, groups, match[form])
    if not readings:
        return None
    unit = groups.get("unit", "h" if readings[0][0] == "hours" else "")
    return _Found(tuple(readings), match.start(), match.end(), form, unit)


def number(text: str) -> Decimal:
    """A written number: "1 670", "1,670" and "1.670" are 1670; "24,00" and "1.5" are decimals."""
    digits = text.replace(" ", "").replace("'", "")
    if "," in digits and "." in digits:
        point = max(",", ".", key=digits.rfind)
        digits = digits.replace("." if point == "," else ",", "").replace(point, ".")
    elif separator := next((mark for mark in ",." if mark in digits), ""):
        parts = digits.split(separator)
        grouped = len(parts) > 2 or (len(parts[-1]) == 3 and 0 < len(parts[0]) <= 3 and parts[0] != "0")
        digits = "".join(parts) if grouped else ".".join(parts)
    return Decimal(digits)


def _key(value: Decimal) -> str:
    """A number as a key: no trailing zeros, no exponent ("24.00" -> "24", "1.67E+3" -> "1670")."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _coarser(key: str) -> list[str]:
    """The month-and-day, month and year a date key holds."""
    if len(key) == 10 and not key.startswith("--"):
        return [f"--{key[5:]}", key[:7], key[:4]]
    return [key[:4]] if len(key) == 7 else []


def _date_key(year: str | None, month: int, day: str | None) -> str | None:
    try:
        dt.date(int(year or 2000), month, int(day or 1))  # 2000: a leap year, so 29 February is a day
    except ValueError:
        return None
    if day:
        return f"{year}-{month:02d}-{int(day):02d}" if year else f"--{month:02d}-{int(day):02d}"
    return f"{year}-{month:02d}" if year else None


def _clock(hour: int, minute: int, meridiem: str = "") -> str | None:
    if meridiem:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem.startswith("p") else 0)
    return f"{hour % 24:02d}:{minute:02d}" if hour <= 24 and minute < 60 else None  # "24 h" is midnight


def _phone(form: str, groups: Groups, text: str) -> list[Reading]:
    digits = re.sub(r"[^0-9]", "", text)
    if form == "phoneintl":
        return [("phone", "+" + digits)] if len(digits) >= 8 else []
    return [("phone", "0" + digits[-9:])]  # "+33 (0)1 30 83 78 00" and "01 30 83 78 00" alike


def _price(form: str, groups: Groups, text: str) -> list[Reading]:
    if form == "free":
        return [("price", "free")]
    return _price_key(number(groups["n"]), grammar.units()[groups["unit"]].name)


def _price_key(amount: Decimal, currency: str) -> list[Reading]:
    return [("price", "free" if amount == 0 else f"{_key(amount)} {currency}")]


def _date(form: str, groups: Groups, text: str) -> list[Reading]:
    if form == "year":
        return [("date", groups["y"]), ("count", str(int(groups["y"])))]
    month_name = groups.get("m") or groups.get("unit", "")
    names = grammar.month_numbers()
    month = (
        int(month_name)
        if month_name.isdigit()
        else names.get(month_name, names.get(month_name.rstrip("."), 0))
    )
    if not 1 <= month <= 12:
        return []
    key = _date_key(groups.get("y"), month, groups.get("d"))
    readings: list[Reading] = [("date", key)] if key else []
    swapped = form == "datenum" and key and groups["d"] != groups["m"] and int(groups["d"]) <= 12
    if swapped and (other := _date_key(groups["y"], int(groups["d"]), groups["m"])):  # "05/12": either way
        readings.append(("date", other))
    return readings


def _hours_and_minutes(form: str, groups: Groups, text: str) -> list[Reading]:
    minutes = number(groups["h"]) * 60 + int(groups["m"])
    return [("duration", _key(minutes))] if int(groups["m"]) < 60 else []


def _hours(form: str, groups: Groups, text: str) -> list[Reading]:
    hour, unit = int(groups["h"]), groups.get("unit", "")
    minute = 30 if groups.get("half") else int(groups.get("m", "0"))
    meridiem = (grammar.cjk_meridiem().get(groups.get("ap", ""), "") if form == "clockcjkap" else unit)[:1]
    if meridiem not in {"a", "p"} or (form == "clockcjkap" and hour > 12):  # "下午13点" says it twice
        meridiem = ""
    clock = _clock(hour, minute, meridiem)
    readings: list[Reading] = [("hours", clock)] if clock else []  # "48 h" is a duration only
    if form == "clockh" and minute < 60:
        readings.append(("duration", str(hour * 60 + minute)))
    return readings


def _measure(form: str, groups: Groups, text: str) -> list[Reading]:
    """A number and its unit word: a price, a duration, a distance, an area or an age."""
    amount, unit = number(groups["n"]), grammar.units()[groups["unit"]]
    if unit.kind == "price":
        return _price_key(amount, unit.name)
    if unit.kind == "duration":
        minutes_part = int(groups.get("m", "0"))
        readings: list[Reading] = [("duration", _key(amount * unit.factor + minutes_part))]
        if (
            groups["unit"] in _AMBIGUOUS_HOURS
            and amount % 1 == 0
            and (clock := _clock(int(amount), minutes_part))
        ):
            readings.append(("hours", clock))
        return readings
    if unit.kind == "age":
        return [("age", _key(amount))]
    if unit.kind == "percent":
        return [("percent", _key(amount))]
    kind: ValueKind = "area" if unit.kind == "area" else "distance"
    return [(kind, f"{_key(amount * unit.factor)} {unit.name}")]


def _count(form: str, groups: Groups, text: str) -> list[Reading]:
    return [("count", _key(number(groups["n"])))]


_READERS: dict[str, Callable[[str, Groups, str], list[Reading]]] = {
    "phonefr": _phone, "phoneplus": _phone, "phoneintl": _phone, "pricepre": _price, "free": _price,
    "dateiso": _date, "datenum": _date, "dmy": _date, "mdy": _date, "my": _date, "datecjk": _date,
    "year": _date, "durhm": _hours_and_minutes, "clock": _hours, "clockdot": _hours, "clockh": _hours,
    "clockampm": _hours, "clockuhr": _hours, "clockore": _hours, "clockcjk": _hours, "clockcjkap": _hours,
    "measure": _measure, "count": _count,
}  # fmt: skip
