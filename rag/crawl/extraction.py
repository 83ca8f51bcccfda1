"""Main text, title, language and date of a fetched HTML page (trafilatura drops menus and footers)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.cleaning import clean_text
from rag.language import detect_language

_HTML_LANG = re.compile(rb"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})\b", re.IGNORECASE)


@dataclass(frozen=True)
class ExtractedPage:
    """What the knowledge base keeps of a page: its cleaned main text and a few facts about it."""

    title: str
    text: str
    language: str
    date: str | None


def extract_page(html: bytes, url: str) -> ExtractedPage | None:
    """The page's main content as Markdown (headings kept for chunking), or None if it has none.

    The bytes go to trafilatura as fetched, so it reads the page's own charset declaration.
    """
    import trafilatura
    from trafilatura.utils import decode_file

    text = trafilatura.extract(
        html,
        url=url,
        favor_precision=True,  # a page of menus alone gives nothing rather than its menu
        output_format="markdown",
        include_formatting=True,
        include_comments=False,
        include_links=False,
        include_images=False,
        include_tables=True,
        with_metadata=False,
    )
    text = clean_text(text or "")
    if not text:
        return None
    metadata = trafilatura.extract_metadata(decode_file(html), default_url=url)
    declared = _HTML_LANG.search(html[:4096])
    language = declared.group(1).decode("ascii").lower() if declared else detect_language(text)
    return ExtractedPage(
        title=(metadata.title or "").strip() if metadata else "",
        text=text,
        language=language,
        date=metadata.date if metadata else None,
    )
