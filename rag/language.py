"""Language detection for documents (at indexing) and queries, restricted to likely languages."""

from __future__ import annotations

import copy
import unicodedata
from collections import Counter
from functools import cache
from typing import TYPE_CHECKING

from rag.language_model import load_identifier
from rag.lexicon.languages import SUPPORTED_LANGUAGES

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

MIN_SHARE = 0.1
# Scripts the supported languages are written in (Unicode character names begin with them).
SUPPORTED_SCRIPTS = frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"})


@cache  # two models at most; never evicted (``f()`` and ``f(True)`` are two keys)
def _identifier(restricted: bool) -> LanguageIdentifier:
    """py3langid's model, read once (``rag.language_model``); the restricted one is a copy of it
    (0.1 s) whose languages are set, as reading the file again would give."""
    if not restricted:
        return load_identifier()
    identifier = copy.deepcopy(_identifier(False))
    identifier.set_languages(list(SUPPORTED_LANGUAGES))
    return identifier


def identify(text: str, among_supported: bool = True) -> tuple[str, float]:
    """py3langid's language of ``text`` and its probability, among the supported languages or
    among all the languages it knows (97), to tell a question in Polish or Korean."""
    language, probability = _identifier(among_supported).classify(text[:2000])
    return str(language), float(probability)


def main_script(text: str) -> str:
    """The script most letters of ``text`` are written in ("LATIN", "CJK", "HANGUL", "ARABIC"...)."""
    scripts = Counter(unicodedata.name(char, "?").split()[0] for char in text if char.isalpha())
    return scripts.most_common(1)[0][0] if scripts else ""


def detect_language(text: str, default: str = "") -> str:
    """ISO 639-1 code of ``text``, or ``default`` when it is too short to tell."""
    sample = text[:2000].strip()
    if len(sample.split()) < 2 and len(sample) < 6:
        return default
    language, _ = _identifier(True).classify(sample)
    return str(language)


def main_languages(weighted: Counter[str]) -> list[str]:
    """Languages holding at least ``MIN_SHARE`` of the text, most frequent first."""
    total = sum(weighted.values())
    if not total:
        return []
    return [lang for lang, size in weighted.most_common() if lang and size / total >= MIN_SHARE]
