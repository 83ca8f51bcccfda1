"""An answer as a visitor reads it: each source once, under the number the answer gives it.

The agent numbers its citations per source in reading order (``agents.answer``); here each source
gets a clean title (no numeric prefixes, underscores or file extensions), a link only for a web
page, and no file path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from agents.answer.model import Answer
from rag.cleaning import display_title
from rag.crawl.scope import is_web

_ONLY_NUMBER = re.compile(r"\d{1,4}\s*[-–—.)]?")


def clean_title(title: str) -> str:
    """A title as a visitor reads it: "134- FAQ Horaires + jours" -> "FAQ Horaires + jours".

    Each part of a "a › b" path is cleaned; file extensions, underscores and numeric ordering
    prefixes go, and a title left empty keeps its original text.
    """
    parts = [display_title(part) for part in str(title).split("›") if part.strip()]
    named = [part for part in parts if not _ONLY_NUMBER.fullmatch(part)]
    return " › ".join(named or parts) or " ".join(str(title).split())


def site_name(url: str) -> str:
    """The host a link goes to, without ``www.`` ("chateauversailles.fr")."""
    host = urlsplit(url).hostname or ""
    return host.removeprefix("www.")


@dataclass
class VisitorPassage:
    """One cited passage of a source: where it sits in the document and its text."""

    passage: int  # the agent's evidence number (the trace inspector shows it)
    section: str
    text: str
    chunk_id: str = ""


@dataclass
class VisitorSource:
    """One source as listed under the answer: its number, clean title, link (web only), passages."""

    number: int
    title: str
    url: str | None
    location: str = ""  # the URL or file path as indexed: for the operator console only
    passages: list[VisitorPassage] = field(default_factory=list)

    @property
    def site(self) -> str:
        return site_name(self.url) if self.url else ""


@dataclass
class VisitorAnswer:
    """The answer text with renumbered citations and the sources it cites, in citation order."""

    text: str
    sources: list[VisitorSource]
    numbers: dict[int, int]  # evidence number -> the number the visitor sees
    related: bool = False  # the sources are the closest passages of a declined answer, not its sources


def visitor_answer(reply: Answer) -> VisitorAnswer:
    """The answer as a visitor reads it: its text (already numbered per source) and each cited
    source once, with a clean title, a link for a web page only, and the passages cited from it."""
    sources = [
        VisitorSource(
            number=citation.number,
            title=clean_title(citation.title) or (site_name(citation.page) if is_web(citation.page) else ""),
            url=citation.page if is_web(citation.page) else None,
            location=citation.source,
            passages=[
                VisitorPassage(
                    passage=passage.number or 0,
                    section=clean_title(passage.headings),
                    text=passage.text,
                    chunk_id=passage.chunk_id,
                )
                for passage in citation.passages
            ],
        )
        for citation in reply.citations
    ]
    related = bool(sources) and {s.number for s in sources} <= set(reply.related)
    return VisitorAnswer(text=reply.text, sources=sources, numbers=reply.shown_numbers(), related=related)
