"""An answer as a visitor reads it: one citation number per source, numbered in reading order.

The agent cites passages by their evidence number ([4], [9], [10]…), and several passages may come
from one page. A visitor sees each source once, numbered 1..n in the order the answer first cites
it, with a clean title (no numeric prefixes, underscores or file extensions) and no file path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from rag.cleaning import display_title

_ONLY_NUMBER = re.compile(r"\d{1,4}\s*[-–—.)]?")
_CITATION_GROUP = re.compile(r"(?:\[\d{1,3}\])+")
_NUMBER = re.compile(r"\[(\d{1,3})\]")


def clean_title(title: str) -> str:
    """A title as a visitor reads it: "134- FAQ Horaires + jours" -> "FAQ Horaires + jours".

    Each part of a "a › b" path is cleaned; file extensions, underscores and numeric ordering
    prefixes go, and a title left empty keeps its original text.
    """
    parts = [display_title(part) for part in str(title).split("›") if part.strip()]
    named = [part for part in parts if not _ONLY_NUMBER.fullmatch(part)]
    return " › ".join(named or parts) or " ".join(str(title).split())


def is_web(url: str) -> bool:
    """Whether ``url`` is a web page a visitor can open (http or https, with a host)."""
    parts = urlsplit(str(url).strip())
    return parts.scheme in {"http", "https"} and bool(parts.netloc)


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


def _source_key(url: str, title: str) -> str:
    return url.strip() or title.strip()


def visitor_answer(
    answer: str, sources: list[dict[str, Any]], evidence: list[dict[str, Any]]
) -> VisitorAnswer:
    """Renumber ``answer``'s citations per source (1..n by first citation) and group the passages.

    ``sources`` are the cited passages' sources (``number``, ``title``, ``url``) and ``evidence``
    the cited passages (``number``, ``title``, ``headings``, ``url``, ``text``), as a
    :class:`~agents.events.FinalAnswer` carries them. A citation of no known source is dropped.
    """
    passages = {int(item["number"]): item for item in evidence}
    known = {int(source["number"]): source for source in sources}
    for number, item in passages.items():
        known.setdefault(
            number, {"number": number, "title": item.get("title", ""), "url": item.get("url", "")}
        )
    numbers: dict[int, int] = {}
    listed: dict[str, VisitorSource] = {}
    for match in _NUMBER.finditer(answer):
        number = int(match.group(1))
        if number in numbers or number not in known:
            continue
        source = known[number]
        url, title = str(source.get("url", "")), str(source.get("title", ""))
        key = _source_key(url, title)
        if key not in listed:
            listed[key] = VisitorSource(
                number=len(listed) + 1,
                title=clean_title(title) or (site_name(url) if is_web(url) else ""),
                url=url if is_web(url) else None,
                location=url,
            )
        numbers[number] = listed[key].number
        if number in passages:
            item = passages[number]
            listed[key].passages.append(
                VisitorPassage(
                    passage=number,
                    section=clean_title(str(item.get("headings", ""))),
                    text=str(item.get("text", "")),
                    chunk_id=str(item.get("chunk_id", "")),
                )
            )

    def renumber(match: re.Match[str]) -> str:
        shown = dict.fromkeys(numbers[int(n)] for n in _NUMBER.findall(match.group(0)) if int(n) in numbers)
        return "".join(f"[{n}]" for n in shown)

    text = _CITATION_GROUP.sub(renumber, answer)
    return VisitorAnswer(text=text, sources=list(listed.values()), numbers=numbers)
