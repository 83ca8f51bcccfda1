"""Read sitemaps (and sitemap indexes) and robots.txt, both untrusted input from the crawled site."""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass, field
from urllib.robotparser import RobotFileParser

from rag.errors import RagError

GZIP_MAGIC = b"\x1f\x8b"


class SitemapError(RagError, ValueError):
    """A sitemap could not be read; the crawl goes on with the other sources of URLs."""


@dataclass
class Sitemap:
    """The page URLs a sitemap lists, or the child sitemaps a sitemap index lists."""

    pages: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)


def parse_sitemap(content: bytes, max_bytes: int, max_urls: int | None = None) -> Sitemap:
    """Parse a ``urlset`` or ``sitemapindex`` document, gzip-compressed or not.

    The parser resolves no entity and loads no DTD or network resource (XML bombs, XXE), a
    compressed sitemap may not expand past ``max_bytes``, and the document is read as a stream
    (no tree is kept) up to ``max_urls`` locations.
    """
    from lxml import etree

    if content.startswith(GZIP_MAGIC):
        content = _gunzip(content, max_bytes)
    events = etree.iterparse(
        io.BytesIO(content),
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    kind = ""
    locations: list[str] = []
    try:
        for event, element in events:
            if not isinstance(element.tag, str):
                continue
            name = etree.QName(element).localname
            if event == "start":
                if not kind:
                    kind = name
                    if kind not in ("urlset", "sitemapindex"):
                        raise SitemapError(f"root element <{kind}> is neither <urlset> nor <sitemapindex>")
                continue
            if name == "loc" and (element.text or "").strip():
                locations.append((element.text or "").strip())
                if max_urls is not None and len(locations) >= max_urls:
                    break
            if name in ("url", "sitemap"):
                element.clear(keep_tail=False)  # a streamed sitemap keeps no tree
                while element.getprevious() is not None:
                    del element.getparent()[0]
    except etree.XMLSyntaxError as error:
        raise SitemapError(f"not a valid XML sitemap ({error.msg})") from error
    if not kind:
        raise SitemapError("empty sitemap")
    return Sitemap(children=locations) if kind == "sitemapindex" else Sitemap(pages=locations)


def _gunzip(content: bytes, max_bytes: int) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(content)) as handle:
            expanded = handle.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise SitemapError(f"not a valid gzip file ({error})") from error
    if len(expanded) > max_bytes:
        raise SitemapError(f"expands past {max_bytes} bytes")
    return expanded


def robots_rules(text: str) -> RobotFileParser:
    """Rules of a robots.txt body (an empty body allows everything)."""
    rules = RobotFileParser()
    rules.parse([line for line in text.splitlines() if _readable_rule(line)])
    return rules


def _readable_rule(line: str) -> bool:
    """False for a rate line the stdlib parser would crash on (``Crawl-delay: ²``, 5000 digits)."""
    name, _, value = line.partition(":")
    if name.strip().lower() not in ("crawl-delay", "request-rate"):
        return True
    value = value.split("#", 1)[0].strip()
    return value.isascii() and len(value) <= 20


def allow_everything() -> RobotFileParser:
    """Rules for a site without robots.txt (404): every path may be fetched."""
    return robots_rules("")


def robot_token(user_agent: str) -> str:
    """The product token robots.txt groups are matched against (the User-Agent's first word)."""
    return user_agent.split("/", 1)[0].split()[0]
