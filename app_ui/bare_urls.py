"""Bare URLs in an answer turned into explicit links that end where the URL ends, in every script.

Streamlit's Markdown links a bare ``https://…`` up to the next space, so in Chinese or Japanese
(no spaces) the full stop and the words after it joined the link: ``https://www.chateauversailles.fr。``
led nowhere. A URL here stops at whitespace, at CJK text or punctuation, and drops the sentence
punctuation that follows it; what remains is written as ``<url>``, which ends exactly there.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Links already written by the caller (inline, explicit) are left as they are.
_WRITTEN_LINK = re.compile(r"\[[^\]]*\]\(<[^>]*>\)|\[[^\]]*\]\([^)\s]*\)|<[a-zA-Z][\w+.-]*:[^>\s]*>")
_BARE_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_TRAILING = ".,;:!?*_~'\"…"  # ASCII sentence punctuation after a URL belongs to the sentence


def _ends_url(char: str) -> bool:
    """A character no URL written in an answer contains: CJK text, non-ASCII punctuation or symbols."""
    if ord(char) < 128:
        return False
    return (
        unicodedata.category(char)[0] in "PSZ"
        or "\u2e80" <= char <= "\u9fff"  # CJK radicals, punctuation, kana, ideographs
        or "\uac00" <= char <= "\ud7af"  # Hangul
        or "\uff00" <= char <= "\uffef"  # full-width forms (，！？（）)
    )


def url_end(candidate: str) -> int:
    """How much of ``candidate`` (a bare ``http…`` run without spaces) is the URL."""
    end = next((i for i, char in enumerate(candidate) if _ends_url(char)), len(candidate))
    while end and (
        candidate[end - 1] in _TRAILING
        or (candidate[end - 1] == ")" and candidate[:end].count("(") < candidate[:end].count(")"))
    ):
        end -= 1
    return end


def link_bare_urls(text: str, link: Callable[[str], str]) -> str:
    """``text`` with each bare URL replaced by ``link(url)`` and what followed it kept as text."""

    def bare(segment: str) -> str:
        def one(match: re.Match[str]) -> str:
            end = url_end(match.group(0))
            return link(match.group(0)[:end]) + match.group(0)[end:]

        return _BARE_URL.sub(one, segment)

    parts, last = [], 0
    for written in _WRITTEN_LINK.finditer(text):
        parts += [bare(text[last : written.start()]), written.group(0)]
        last = written.end()
    return "".join([*parts, bare(text[last:])])
