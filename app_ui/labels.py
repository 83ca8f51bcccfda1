"""The visitor page's words in the visitor's language (``data/app/labels.toml``).

The page speaks the browser's language at first, then the language of the visitor's last
question; anything else falls back to English.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from rag.config import PROJECT_ROOT

LABELS_FILE = PROJECT_ROOT / "data" / "app" / "labels.toml"
# A local file: a ":material/…" page icon makes the browser fetch it from fonts.gstatic.com.
APP_ICON = PROJECT_ROOT / "data" / "app" / "favicon.png"
FALLBACK = "en"


@cache
def _tables() -> dict[str, dict[str, Any]]:
    with LABELS_FILE.open("rb") as handle:
        return tomllib.load(handle)


def ui_languages() -> list[str]:
    """The languages the page can be shown in (the assistant's nine reply languages)."""
    return list(_tables())


def ui_language(browser_locale: str | None, last_question_language: str | None = None) -> str:
    """The page's language: the last question's when known, else the browser's, else English."""
    for candidate in (last_question_language, browser_locale):
        code = str(candidate or "").replace("_", "-").split("-")[0].lower()
        if code in _tables():
            return code
    return FALLBACK


class Labels:
    """Labels of one language; ``labels["title"]`` or ``labels.say("open_page", site=…)``."""

    def __init__(self, language: str) -> None:
        self.language = language if language in _tables() else FALLBACK
        self._own = _tables()[self.language]
        self._fallback = _tables()[FALLBACK]

    def __getitem__(self, key: str) -> Any:
        return self._own.get(key, self._fallback[key])

    def say(self, key: str, **values: str) -> str:
        """The label ``key`` with its ``{placeholders}`` filled in."""
        return str(self[key]).format(**values)

    def error(self, kind: str) -> str:
        """The visitor's sentence for an error of ``kind`` (see :class:`agents.events.ErrorOccurred`)."""
        key = f"error_{kind}"
        return str(self[key] if key in self._fallback else self["error_other"])
