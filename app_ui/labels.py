"""The visitor page's words in the visitor's language (``data/app/labels.toml``).

The page speaks the browser's language at first, then the language of the visitor's last
question; anything else falls back to English. A table named for a region (``[pt-BR]``) holds only
the words that differ there; a browser of that region reads it over its language's table, while the
language itself (the reply language) stays ``pt``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rag.config import PROJECT_ROOT
from rag.lexicon.languages import locale_parts
from rag.lexicon.stores import read_store

LABELS_FILE = PROJECT_ROOT / "data" / "app" / "labels.toml"
# A local file: a ":material/…" page icon makes the browser fetch it from fonts.gstatic.com.
APP_ICON = PROJECT_ROOT / "data" / "app" / "favicon.png"
FALLBACK = "en"


@cache
def _tables() -> dict[str, dict[str, Any]]:
    return read_store(LABELS_FILE)


def label_tables() -> dict[str, dict[str, Any]]:
    """Every table of the file, languages and regional variants, as read (the widget copies them)."""
    return _tables()


def ui_languages() -> list[str]:
    """The languages the page can be shown in (the assistant's nine reply languages)."""
    return [name for name in _tables() if "-" not in name]


def regional_variants() -> list[str]:
    """The regional tables (``pt-BR``): a region's words where they differ from its language's."""
    return [name for name in _tables() if "-" in name]


def ui_language(browser_locale: str | None, last_question_language: str | None = None) -> str:
    """The page's language: the last question's when known, else the browser's, else English."""
    for candidate in (last_question_language, browser_locale):
        code = locale_parts(candidate)[0]
        if code in ui_languages():
            return code
    return FALLBACK


def ui_locale(language: str, browser_locale: str | None) -> str:
    """The labels' locale: the browser's region when it speaks ``language`` and a table exists for
    that region (``pt`` in a ``pt-BR`` browser reads ``pt-BR``), else the language itself."""
    code, region = locale_parts(browser_locale)
    variant = f"{language}-{region}"
    return variant if code == language and region and variant in regional_variants() else language


class Labels:
    """Labels of one language (and region); ``labels["title"]`` or ``labels.say("open_page", site=…)``.

    ``language`` is the reply language (``pt``); ``locale`` names the table read first (``pt-BR``),
    for the document's ``lang`` and local date formats.
    """

    def __init__(self, language: str, browser_locale: str | None = None) -> None:
        self.language = language if language in ui_languages() else FALLBACK
        self.locale = ui_locale(self.language, browser_locale)
        self._own = _tables()[self.language]
        self._regional = _tables()[self.locale] if self.locale != self.language else {}
        self._fallback = _tables()[FALLBACK]

    def __getitem__(self, key: str) -> Any:
        for table in (self._regional, self._own):
            if key in table:
                return table[key]
        return self._fallback[key]

    def say(self, key: str, **values: str) -> str:
        """The label ``key`` with its ``{placeholders}`` filled in."""
        return str(self[key]).format(**values)

    def error(self, kind: str) -> str:
        """The visitor's sentence for an error of ``kind`` (see :class:`agents.events.ErrorOccurred`)."""
        key = f"error_{kind}"
        return str(self[key] if key in self._fallback else self["error_other"])
