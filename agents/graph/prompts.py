"""Prompts live in ``prompts/*.md``, one per node, with ``{language}``-style slots."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rag.lexicon.languages import LANGUAGE_NAMES

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"


@lru_cache(maxsize=16)
def _read(name: str) -> str:
    return (PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8").strip()


def language_name(code: str) -> str:
    """English name of a language code, for prompts ("fr" → "French")."""
    return LANGUAGE_NAMES.get(code, code or "the visitor's language")


def render(name: str, **slots: str) -> str:
    """The prompt ``name`` with its ``{slot}`` markers replaced (other braces are left alone)."""
    text = _read(name)
    for key, value in slots.items():
        text = text.replace("{" + key + "}", value)
    return text
