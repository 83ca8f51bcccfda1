"""Numbers as each language writes them (Babel's locale data): the decimal mark."""

from __future__ import annotations

from functools import lru_cache

from babel.numbers import get_decimal_symbol


@lru_cache(maxsize=32)
def decimal_mark(language: str) -> str:
    """ "," in French, German or Dutch; "." in English, Japanese or Chinese."""
    return get_decimal_symbol(locale=language)


def with_decimal_mark(digits: str, language: str) -> str:
    """``digits`` written with a point ("14.1") in ``language``'s decimal mark ("14,1" in French)."""
    return digits.replace(".", decimal_mark(language))
