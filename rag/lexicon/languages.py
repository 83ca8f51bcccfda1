"""The languages the assistant replies in, their names, and reading a locale tag as one of them."""

from __future__ import annotations

from functools import lru_cache

from babel import Locale, UnknownLocaleError

SUPPORTED_LANGUAGES = ("fr", "en", "es", "de", "it", "pt", "nl", "ja", "zh")
# The visitor languages num2words spells numbers in; Japanese and Chinese write them in digits or
# read them from their characters' Unicode values.
SPELLED_NUMBER_LANGUAGES = ("en", "fr", "es", "de", "it", "pt", "nl")
DEFAULT_LANGUAGE = "en"
UNSPACED_LANGUAGES = frozenset({"ja", "zh"})  # written without spaces between words
PASSAGE_LANGUAGES = (
    "fr",
    "en",
)  # the knowledge base's languages: dates and values in passages are read in them
LANGUAGE_NAMES = {
    "fr": "French", "en": "English", "es": "Spanish", "de": "German", "it": "Italian",
    "pt": "Portuguese", "nl": "Dutch", "ja": "Japanese", "zh": "Chinese",
}  # fmt: skip


def locale_parts(tag: str | None) -> tuple[str, str]:
    """A locale tag's language and region: "pt_br" -> ("pt", "BR"); a script subtag
    ("zh-Hans-CN") is skipped, and a tag without a region has "" there."""
    parts = str(tag or "").strip().replace("_", "-").split("-")
    regions = [part for part in parts[1:] if len(part) == 2 or part.isdigit()]
    return parts[0].lower(), (regions[-1].upper() if regions else "")


def supported_language(tag: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The supported language a locale tag names ("pt-BR" -> "pt", "zh_Hant" -> "zh"), else ``default``."""
    code = locale_parts(tag)[0]
    return code if code in SUPPORTED_LANGUAGES else default


@lru_cache(maxsize=128)
def language_named_in(code: str, language: str) -> str:
    """The name of language ``code`` written in ``language``, from Babel's CLDR data ("fr" in German:
    "Französisch"); ``code`` itself when either is unknown."""
    try:
        return str(Locale.parse(supported_language(language)).languages.get(code, code))
    except (ValueError, UnknownLocaleError):
        return code
