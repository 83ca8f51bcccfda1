"""Which URLs a crawl may fetch: http(s) only, the start URL's host, under an allowed prefix."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from rag.errors import RagError

SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


def is_web(url: str) -> bool:
    """Whether ``url`` is a web page a reader can open: http(s), a host, no white space inside."""
    text = str(url).strip()
    parts = urlsplit(text)
    return parts.scheme in SCHEMES and bool(parts.netloc) and not any(c.isspace() for c in text)


class CrawlInputError(RagError, ValueError):
    """The crawl's URL or options are unusable; nothing was fetched, indexed or removed."""


def normalise_url(url: str, base: str | None = None) -> str | None:
    """Absolute http(s) URL without fragment, dot segments or default port; None for anything else.

    Links in fetched pages are untrusted: ``javascript:``, ``mailto:``, ``file:`` and ``data:``
    links, credentials in the URL and malformed ports all give None.
    """
    try:
        parts = urlsplit(urljoin(base, url.strip()) if base else url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES or not parts.hostname or parts.username or parts.password:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = parts.path or "/"
    normalised = posixpath.normpath(path)
    if path.endswith("/") and not normalised.endswith("/"):
        normalised += "/"
    normalised = "/" + normalised.lstrip("/")  # normpath keeps a leading "//"
    return urlunsplit((scheme, netloc, normalised, parts.query, ""))


@dataclass(frozen=True)
class CrawlScope:
    """The host and URL prefixes one crawl keeps to."""

    origin: str
    prefixes: tuple[str, ...]

    @classmethod
    def build(cls, start_url: str, allow: Sequence[str] = ()) -> CrawlScope:
        """Scope of a crawl from ``start_url``; by default the start URL's folder and below."""
        start = normalise_url(start_url)
        if start is None:
            raise CrawlInputError(
                f"{start_url!r} is not an http(s) URL: give the site's full address, starting with https://."
            )
        parts = urlsplit(start)
        origin = f"{parts.scheme}://{parts.netloc}"
        prefixes = []
        for prefix in allow:
            normalised = normalise_url(prefix, base=start)
            if normalised is None or _host(normalised) != parts.netloc:
                raise CrawlInputError(
                    f"--allow {prefix!r} is not a URL prefix on {parts.netloc}: the crawler stays on "
                    "the start URL's host."
                )
            prefixes.append(normalised if prefix.endswith("/") or "?" in prefix else normalised.rstrip("/"))
        if not prefixes:
            prefixes.append(start[: start.rindex("/") + 1] if parts.path else f"{origin}/")
        return cls(origin, tuple(prefixes))

    @property
    def host(self) -> str:
        return _host(self.origin)

    def allows(self, url: str) -> bool:
        """Whether a normalised URL is on the scope's host and under one of its prefixes."""
        return _host(url) == self.host and any(url.startswith(prefix) for prefix in self.prefixes)

    def on_host(self, url: str) -> bool:
        """Whether a normalised URL is on the scope's host (sitemaps may sit outside the prefixes)."""
        return _host(url) == self.host


def _host(url: str) -> str:
    return urlsplit(url).netloc
