"""The travel tool's words: its summary templates (``data/travel/phrases.toml``), durations,
distances and sentences as each of the nine languages writes them."""

from __future__ import annotations

from rag.config import PROJECT_ROOT
from rag.lexicon.languages import UNSPACED_LANGUAGES
from rag.lexicon.numbers import with_decimal_mark
from rag.lexicon.stores import language_table, read_store

PHRASES_FILE = PROJECT_ROOT / "data" / "travel" / "phrases.toml"

# How numbers and lists read in each language: minutes, hours and minutes, list separator, end mark.
_UNITS: dict[str, tuple[str, str]] = {
    "de": ("{m} min", "{h} Std. {m} min"),
    "ja": ("{m}分", "{h}時間{m}分"),
    "zh": ("{m}分钟", "{h}小时{m}分钟"),
}
_DEFAULT_UNITS = ("{m} min", "{h} h {m:02d}")


def phrase(language: str, key: str, **values: object) -> str:
    """One template of ``language`` (English when missing), filled in."""
    store = read_store(PHRASES_FILE)
    return language_table(store, language).get(key, store["en"][key]).format(**values)


def minutes(language: str, value: int | tuple[int, int]) -> str:
    """'45 min', '1 h 20', '30–40 min' or '1 h 15 – 1 h 40', in the units of ``language``."""
    short, long = _UNITS.get(language, _DEFAULT_UNITS)
    low, high = (value, value) if isinstance(value, int) else value
    if high < 60:
        return short.format(m=str(low) if low == high else f"{low}–{high}")

    def one(total: int) -> str:
        return short.format(m=str(total)) if total < 60 else long.format(h=total // 60, m=total % 60)

    return one(low) if low == high else f"{one(low)} – {one(high)}"


def kilometres(language: str, value: float) -> str:
    """'14.1' or '14,1' as the language writes decimals."""
    text = f"{value:.1f}"
    return with_decimal_mark(text, language)


def sentence(language: str, fragments: list[str]) -> str:
    """Fragments joined into one sentence: 'By car about 45 min; by bike about 1 h 15.'"""
    if language in UNSPACED_LANGUAGES:
        return "；".join(fragments) + "。" if language == "zh" else "、".join(fragments) + "。"
    text = (" ; " if language == "fr" else "; ").join(fragments)
    return text[:1].upper() + text[1:] + "."
