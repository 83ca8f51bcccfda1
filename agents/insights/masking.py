"""Visitors' personal data masked before a question or comment is stored, and again when it is read:
emails (however the "@" and the dots are written), phone numbers and card-like numbers (those passing
the Luhn check), whatever separates their digits."""

from __future__ import annotations

import re
from functools import lru_cache

# "@" as visitors write it: ASCII, fullwidth, small, or spelt out in brackets ("[at]", "(arobase)").
_AT_WORDS = r"at|arobase|arroba|chiocciola|klammeraffe|apenstaartje"
_AT = rf"(?:\s*[@＠﹫]\s*|\s*[\[(\{{<]\s*(?:{_AT_WORDS})\s*[\])\}}>]\s*)"
_DOT = r"(?:[.．。]|\s*[\[(\{<]\s*(?:dot|point|punto|punkt|ponto)\s*[\])\}>]\s*)"
_LOCAL = r"[\w.+-]+"
_LABEL = r"[\w-]+"
EMAIL = re.compile(rf"{_LOCAL}{_AT}{_LABEL}(?:{_DOT}{_LABEL})+", re.UNICODE)
# "jean at example dot com": the spelt-out form needs both words, so plain prose is left alone.
SPELT_EMAIL = re.compile(
    rf"{_LOCAL}\s+(?:{_AT_WORDS})\s+{_LABEL}(?:\s+(?:dot|point|punto|punkt|ponto)\s+{_LABEL})+",
    re.IGNORECASE | re.UNICODE,
)
# What may stand between the digit groups of a number written for a person to read: runs of spaces of
# every width, dots, slashes, brackets, and dashes of every kind (every Unicode "Pd" character and the
# minus signs), as long as the run is: "06 - 12 - 34", "06 — 12", "06 / 12" alike.
DASHES = (
    "\\-\u058a\u05be\u1400\u1806\u2010-\u2015\u2e17\u2e1a\u2e3a\u2e3b\u2e40\u2e5d\u301c\u3030\u30a0"
    "\ufe31\ufe32\ufe58\ufe63\uff0d\U00010ead\u2212\u207b\u208b"
)
_SEPARATOR = rf"[\s./()\u00b7\uff0e\uff0f{DASHES}]"
_GAP = rf"{_SEPARATOR}*+"  # possessive: a separator is never a digit, so nothing to give back
# 13 to 19 digits, any run of separators between them: the shape of a payment card number.
CARD_LIKE = re.compile(rf"(?<!\d)(?:\d{_GAP}){{12,18}}\d(?!\d)")
# A phone number: an optional +, then 9 to 15 digits, any run of separators between them (fewer digits
# would take dates such as 2026-11-24).
PHONE = re.compile(rf"(?<![\w])[+＋]?\(?\d(?:{_GAP}\d){{8,14}}(?!\d)")
# A calendar date, possibly followed by a time, is not a phone number, however its parts are separated.
_DATE_MARK = rf"\s*[./{DASHES}]\s*"
_DATE_LIKE = re.compile(
    rf"\d{{4}}{_DATE_MARK}\d{{1,2}}{_DATE_MARK}\d{{1,2}}(?:\D|$)"
    rf"|\d{{1,2}}{_DATE_MARK}\d{{1,2}}{_DATE_MARK}\d{{4}}(?:\D|$)"
)
# Years side by side ("1661 - 1682 - 1789", "1789 / 1830") are dates, not a phone or a card.
_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_YEARS = re.compile(rf"{_YEAR}(?:{_SEPARATOR}+{_YEAR})+")

EMAIL_MASK = "[email]"
PHONE_MASK = "[phone]"
CARD_MASK = "[card]"


def luhn_valid(digits: str) -> bool:
    """Whether a string of digits passes the Luhn checksum that payment card numbers carry."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _dates(number: str) -> bool:
    """Whether digits that look like a phone or a card are a date, a date range or years side by side."""
    return bool(_DATE_LIKE.match(number) or _YEARS.fullmatch(number))


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group())
    return CARD_MASK if luhn_valid(digits) and not _dates(match.group()) else match.group()


def _phone(match: re.Match[str]) -> str:
    return match.group() if _dates(match.group()) else PHONE_MASK


@lru_cache(maxsize=65_536)
def mask_personal(text: str) -> str:
    """``text`` with emails, card-like numbers and phone numbers replaced by a placeholder.

    Cards come before phones so that a 16-digit card is named as a card; a long number failing the
    Luhn check is still masked as a phone (it may be one), never kept. Cached: the insights read the
    same few texts many times.
    """
    text = EMAIL.sub(EMAIL_MASK, text)
    text = SPELT_EMAIL.sub(EMAIL_MASK, text)
    text = CARD_LIKE.sub(_card, text)
    return PHONE.sub(_phone, text)
