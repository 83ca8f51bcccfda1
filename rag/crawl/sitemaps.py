"""Read sitemaps (and sitemap indexes) and robots.txt, both untrusted input from the crawled site."""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass, field
from urllib.robotparser import RobotFileParser

GZIP_MAGIC = b"\x1f\x8b"


class SitemapError(ValueError):
    """A sitemap could not be read; the crawl goes on with the other sources of URLs."""


@dataclass
class Sitemap:
    """The page URLs a sitemap lists, or the child sitemaps a sitemap index lists."""

    pages: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)


def parse_sitemap(content: bytes, max_bytes: int) -> Sitemap:
    """Parse a ``urlset`` or ``sitemapindex`` document, gzip-compressed or not.

    The parser resolves no entity and loads no DTD or network resource (XML bombs, XXE), and a
    compressed sitemap may not expand past ``max_bytes``.
    """
    from lxml import etree

    if content.startswith(GZIP_MAGIC):
        content = _gunzip(content, max_bytes)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(content, parser=parser)
    except etree.XMLSyntaxError as error:
        raise SitemapError(f"not a valid XML sitemap ({error.msg})") from error
    if root is None:
        raise SitemapError("empty sitemap")
    kind = etree.QName(root).localname
    if kind not in ("urlset", "sitemapindex"):
        raise SitemapError(f"root element <{kind}> is neither <urlset> nor <sitemapindex>")
    locations = [
        (element.text or "").strip()
        for element in root.iter("{*}loc", "loc")
        if isinstance(element.tag, str) and (element.text or "").strip()
    ]
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
    rules.parse(text.splitlines())
    return rules


def allow_everything() -> RobotFileParser:
    """Rules for a site without robots.txt (404): every path may be fetched."""
    return robots_rules("")


def robot_token(user_agent: str) -> str:
    """The product token robots.txt groups are matched against (the User-Agent's first word)."""
    return user_agent.split("/", 1)[0].split()[0]
