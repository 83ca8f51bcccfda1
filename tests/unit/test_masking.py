"""Visitors' emails, phone numbers and card-like numbers are masked before a question is stored."""

from __future__ import annotations

import pytest

from agents.insights.masking import luhn_valid, mask_personal


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write to jean.dupont+visit@example.co.uk please", "Write to [email] please"),
        ("Call me on +33 6 12 34 56 78 tomorrow", "Call me on [phone] tomorrow"),
        ("mon numéro 01.39.50.36.22", "mon numéro [phone]"),
        ("paid with 4111 1111 1111 1111 yesterday", "paid with [card] yesterday"),
        ("card 5500-0000-0000-0004", "card [card]"),
    ],
)
def test_personal_data_is_masked(text: str, expected: str) -> None:
    assert mask_personal(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Is the palace open on 2026-11-24 at 09:30?",
        "Tickets cost 21 euros in 2026, the Hall of Mirrors dates from 1678.",
        "ベルサイユ宮殿の開館時間は何時ですか？",
        "Booking reference 12345678",
    ],
)
def test_dates_prices_and_short_numbers_are_kept(text: str) -> None:
    assert mask_personal(text) == text


def test_a_long_number_failing_the_luhn_check_is_not_called_a_card() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    assert "[card]" not in mask_personal("4111 1111 1111 1112")
