"""Remove extraction debris from document text without dropping real content."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_EMPTY_HEADING = re.compile(r"^\s*#{1,6}\s*$", re.MULTILINE)
_EXTRACTOR_BANNER = re.compile(r"^\s*\*?Extracted with [^\n]*\*?\s*$", re.MULTILINE | re.IGNORECASE)
_HORIZONTAL_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$", re.MULTILINE)
_EMPTY_BULLET = re.compile(r"^\s*[-*+]\s*[^\w\s]?\s*$", re.MULTILINE)
_INLINE_LINK_TARGET = re.compile(r"\s*\((?:https?://|www\.)[^)\s]*\)")
_MARKDOWN_LINK = re.compile(r"\[([^\]\n]+)\]\((?:https?://|www\.|/|#)[^)\s]*\)")
_EMPTY_PARENTHESES = re.compile(r"\s*\(\s*\)")
_TRAILING_SPACES = re.compile(r"[ \t]+$", re.MULTILINE)
_BLANK_RUNS = re.compile(r"\n{3,}")


def clean_text(text: str) -> str:
    """Strip image placeholders, link targets, empty headings and bullets, banners and rules.

    A scraped page writes every link as ``anchor (https://...)``: the anchor text is content, the
    target is not (the page's own URL is the citation), and it took a fifth of the corpus.
    """
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u00a0", " ")
    text = _MARKDOWN_LINK.sub(r"\1", text)
    for pattern in (
        _HTML_COMMENT,
        _INLINE_LINK_TARGET,
        _EMPTY_PARENTHESES,
        _EXTRACTOR_BANNER,
        _EMPTY_HEADING,
        _HORIZONTAL_RULE,
    ):
        text = pattern.sub("", text)
    text = _EMPTY_BULLET.sub("", text)
    text = _TRAILING_SPACES.sub("", text)
    return _BLANK_RUNS.sub("\n\n", text).strip()


def content_key(text: str) -> str:
    """Hash of the text with case and white space folded: equal keys mean identical content."""
    folded = " ".join(text.casefold().split())
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()


# An ordering prefix of a file or heading name: "134- ", "7-", "2) ", "1. ", "02 " (zero-padded);
# "14 juillet", "1789 Revolution" and "3.5 hectares" keep their numbers.
_ORDERING_PREFIX = re.compile(r"^\s*(?:\d{1,4}\s*(?:[-–—)]|\.(?!\d))|0\d{0,3}(?=\s))\s*(?=\S)")
_FILE_SUFFIX = re.compile(r"\.(?:md|markdown|txt|jsonl|ndjson|html?)$", re.IGNORECASE)


def display_title(text: str) -> str:
    """A file or heading name as a reader sees it: "134- FAQ_Horaires.md" -> "FAQ Horaires"."""
    cleaned = _FILE_SUFFIX.sub("", " ".join(str(text).split())).replace("_", " ")
    cleaned = " ".join(_ORDERING_PREFIX.sub("", cleaned).split())
    return cleaned or " ".join(str(text).split())
