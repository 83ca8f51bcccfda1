"""Visitors' personal data masked before a question or comment is stored: emails, phone numbers and
card-like numbers (those passing the Luhn check)."""

from __future__ import annotations

import re

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
# 13 to 19 digits, spaces or dashes allowed between groups: the shape of a payment card number.
CARD_LIKE = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
# A phone number: an optional +, then 9 to 15 digits with spaces, dots, dashes or brackets between
# (fewer digits would take dates such as 2026-11-24).
PHONE = re.compile(r"(?<![\w])\+?\(?\d(?:[\s.\-()]{0,2}\d){8,14}(?!\d)")

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


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group())
    return CARD_MASK if luhn_valid(digits) else match.group()


def mask_personal(text: str) -> str:
    """``text`` with emails, card-like numbers and phone numbers replaced by a placeholder.

    Cards come before phones so that a 16-digit card is named as a card; a long number failing the
    Luhn check is still masked as a phone (it may be one), never kept.
    """
    text = EMAIL.sub(EMAIL_MASK, text)
    text = CARD_LIKE.sub(_card, text)
    return PHONE.sub(PHONE_MASK, text)
