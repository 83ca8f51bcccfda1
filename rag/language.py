"""Language detection for documents (at indexing) and queries, restricted to likely languages."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from rag.lexicon.languages import SUPPORTED_LANGUAGES

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

MIN_SHARE = 0.1


@lru_cache(maxsize=1)
def _identifier() -> LanguageIdentifier:
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(SUPPORTED_LANGUAGES))
    return identifier


def detect_language(text: str, default: str = "") -> str:
    """ISO 639-1 code of ``text``, or ``default`` when it is too short to tell."""
    sample = text[:2000].strip()
    if len(sample.split()) < 2 and len(sample) < 6:
        return default
    language, _ = _identifier().classify(sample)
    return str(language)


def main_languages(weighted: Counter[str]) -> list[str]:
    """Languages holding at least ``MIN_SHARE`` of the text, most frequent first."""
    total = sum(weighted.values())
    if not total:
        return []
    return [lang for lang, size in weighted.most_common() if lang and size / total >= MIN_SHARE]
