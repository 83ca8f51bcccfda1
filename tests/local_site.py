"""A website on 127.0.0.1 for crawler tests and the crawl benchmark: routes the test writes and edits.

Pages answer conditional requests (ETag, Last-Modified) as a real server does; a route can also
answer any status with any headers, or wait before answering (a page that times out). Every
request is recorded, so a test can assert what was fetched and how.
"""

from __future__ import annotations

import hashlib
import html
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HTML = "text/html; charset=utf-8"


@dataclass
class Route:
    """How one path answers."""

    body: bytes = b""
    status: int = 200
    content_type: str = HTML
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    validators: bool = True  # ETag and Last-Modified, and 304 to a matching conditional request
    modified: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Request:
    """One request the site received."""

    path: str
    headers: dict[str, str]
    status: int
    at: float = 0.0  # time.monotonic() when it arrived


class LocalSite:
    """Serve ``routes`` on 127.0.0.1 (a free port) while the ``with`` block runs."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.origin}{path}"

    def __enter__(self) -> LocalSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def page(self, path: str, text: str | bytes, **route: Any) -> None:
        """Serve ``text`` (HTML) at ``path``; replacing it changes its ETag and Last-Modified."""
        body = text.encode("utf-8") if isinstance(text, str) else text
        self.routes[path] = Route(body=body, **route)

    def paths_requested(self) -> list[str]:
        with self._lock:
            return [request.path for request in self.requests]

    def clear_requests(self) -> None:
        with self._lock:
            self.requests.clear()

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)


def _handler_for(site: LocalSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            route = site.routes.get(self.path.split("#", 1)[0])
            if route is None:
                route = Route(body=b"not found", status=404, content_type="text/plain", validators=False)
            arrived = time.monotonic()
            if route.delay:
                time.sleep(route.delay)
            etag = f'"{hashlib.sha256(route.body).hexdigest()[:16]}"'
            status = route.status
            if route.validators and status == 200 and self.headers.get("If-None-Match") == etag:
                status = 304
            site.record(Request(self.path, dict(self.headers.items()), status, arrived))
            self._answer(route, status, etag)

        def _answer(self, route: Route, status: int, etag: str) -> None:
            body = b"" if status == 304 else route.body
            try:
                self.send_response(status)
                self.send_header("Content-Type", route.content_type)
                self.send_header("Content-Length", str(len(body)))
                if route.validators:
                    self.send_header("ETag", etag)
                    self.send_header("Last-Modified", formatdate(route.modified, usegmt=True))
                for name, value in route.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the crawler gave up waiting (a page that times out)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler


def visitor_page(title: str, paragraphs: Sequence[str], links: Sequence[str] = (), lang: str = "en") -> str:
    """A page as a museum site serves it: a navigation menu and a footer around the main text."""
    menu = "".join(f'<li><a href="{html.escape(link)}">Menu {i}</a></li>' for i, link in enumerate(links))
    body = "".join(f"<p>{html.escape(paragraph)}</p>" for paragraph in paragraphs)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{html.escape(title)} | '
        f'Estate</title><meta name="date" content="2026-11-01"></head><body>'
        f'<header><nav class="menu"><ul>{menu}<li><a href="javascript:void(0)">Menu</a></li>'
        f'<li><a href="mailto:info@example.org">Write to us</a></li></ul></nav></header>'
        f"<main><article><h1>{html.escape(title)}</h1>{body}</article></main>"
        "<footer><p>Legal notice · Cookies · Sitemap · Newsletter sign-up · Follow us</p>"
        "<p>Copyright the Estate. All rights reserved.</p></footer></body></html>"
    )


def sitemap(urls: Sequence[str]) -> str:
    entries = "".join(f"<url><loc>{html.escape(url)}</loc></url>" for url in urls)
    return (
        f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
    )


def sitemap_index(urls: Sequence[str]) -> str:
    entries = "".join(f"<sitemap><loc>{html.escape(url)}</loc></sitemap>" for url in urls)
    return (
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{entries}</sitemapindex>"
    )


def generated_paragraphs(number: int, version: int = 0) -> list[str]:
    """Three distinct paragraphs for page ``number`` (``version`` changes their facts)."""
    return [
        f"Room {number} of the north wing shows {number * 7 % 31 + 2} paintings restored in "
        f"{1990 + number % 30}, with a guided tour every {number % 5 + 1} hours at version {version}.",
        f"The gallery {number} opens at {8 + number % 3} o'clock and admission costs {10 + number % 9} euros "
        f"for adults; children under {12 + number % 6} enter free of charge.",
        f"Curators describe item {number} as a rare piece of furniture made of oak and gilded bronze, "
        f"delivered to the court in {1680 + number % 90} for the apartment of the queen.",
    ]


def serve_generated_site(site: LocalSite, pages: int, per_sitemap: int = 100) -> list[str]:
    """``pages`` generated pages under /collection/, a sitemap index and robots.txt; their paths."""
    paths = [f"/collection/item-{number}.html" for number in range(pages)]
    for number, path in enumerate(paths):
        links = [paths[(number + step) % pages] for step in (1, 2, 3)]
        site.page(path, visitor_page(f"Collection item {number}", generated_paragraphs(number), links))
    children = []
    for start in range(0, pages, per_sitemap):
        child = f"/sitemaps/collection-{start // per_sitemap}.xml"
        site.page(
            child,
            sitemap([site.url(p) for p in paths[start : start + per_sitemap]]),
            content_type="application/xml",
        )
        children.append(site.url(child))
    site.page("/sitemap_index.xml", sitemap_index(children), content_type="application/xml")
    site.page(
        "/robots.txt",
        f"User-agent: *\nDisallow: /private/\nSitemap: {site.url('/sitemap_index.xml')}\n",
        content_type="text/plain",
    )
    return paths
