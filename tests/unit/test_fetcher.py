"""The crawler's HTTP: conditional requests, redirects checked hop by hop, caps, retries, pacing."""

from __future__ import annotations

import asyncio
import email.utils
from collections.abc import Callable

import httpx
import pytest

from rag.crawl.fetcher import FetchResult, PoliteFetcher, RequestPacer, retry_after_seconds
from rag.crawl.scope import CrawlScope

SCOPE = CrawlScope.build("https://site.example/visit/")
Handler = Callable[[httpx.Request], httpx.Response]


def _fetch(
    handler: Handler, url: str, *, retries: int = 0, max_bytes: int = 10_000, **kwargs: str
) -> tuple[FetchResult, list[httpx.Request], int]:
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler(request)

    async def run() -> tuple[FetchResult, int]:
        async with httpx.AsyncClient(transport=httpx.MockTransport(record)) as client:
            fetcher = PoliteFetcher(
                client,
                RequestPacer(0.0),
                lambda u: None if SCOPE.allows(u) else "outside the allowed prefixes",
                timeout=2.0,
                retries=retries,
                max_retry_wait=5.0,
            )
            result = await fetcher.fetch(url, max_bytes, **kwargs)
            return result, fetcher.requests

    result, requests = asyncio.run(run())
    return result, seen, requests


def _html(text: str = "<p>hello</p>", **headers: str) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/html; charset=utf-8", **headers}, text=text)


def test_validators_are_sent_and_a_304_is_not_modified() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(304) if request.headers.get("if-none-match") == '"v1"' else _html()

    result, seen, _ = _fetch(
        handler,
        "https://site.example/visit/a.html",
        etag='"v1"',
        last_modified="Sun, 01 Nov 2026 10:00:00 GMT",
    )

    assert result.kind == "not_modified"
    assert seen[0].headers["if-modified-since"] == "Sun, 01 Nov 2026 10:00:00 GMT"


def test_a_200_returns_the_body_and_its_validators() -> None:
    result, _, _ = _fetch(lambda r: _html("<p>x</p>", etag='"v2"'), "https://site.example/visit/a.html")

    assert (result.kind, result.body, result.etag) == ("ok", b"<p>x</p>", '"v2"')


def test_a_redirect_within_the_scope_is_followed() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/visit/old.html":
            return httpx.Response(301, headers={"location": "/visit/new.html"})
        return _html("<p>new</p>")

    result, seen, requests = _fetch(handler, "https://site.example/visit/old.html")

    assert result.kind == "ok" and result.url == "https://site.example/visit/old.html"
    assert [r.url.path for r in seen] == ["/visit/old.html", "/visit/new.html"] and requests == 2


@pytest.mark.parametrize("location", ["https://evil.example/visit/x.html", "/admin/", "javascript:alert(1)"])
def test_a_redirect_outside_the_scope_is_never_requested(location: str) -> None:
    result, seen, _ = _fetch(
        lambda r: httpx.Response(302, headers={"location": location}), "https://site.example/visit/a.html"
    )

    assert result.kind == "skipped" and len(seen) == 1


def test_endless_redirects_stop() -> None:
    result, seen, _ = _fetch(
        lambda r: httpx.Response(302, headers={"location": f"{r.url.path}x"}), "https://site.example/visit/a"
    )

    assert result.kind == "skipped" and "redirects" in result.reason and len(seen) == 6


@pytest.mark.parametrize("declare_length", [True, False])
def test_a_page_over_the_size_cap_is_skipped(declare_length: bool) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        body = b"<p>" + b"x" * 50_000 + b"</p>"
        if declare_length:
            return httpx.Response(200, headers={"content-type": "text/html"}, content=body)

        async def stream() -> object:  # no Content-Length: the cap applies while reading
            for start in range(0, len(body), 4096):
                yield body[start : start + 4096]

        return httpx.Response(200, headers={"content-type": "text/html"}, content=stream())

    result, _, _ = _fetch(handler, "https://site.example/visit/big.html", max_bytes=10_000)

    assert result.kind == "skipped" and "larger than 10000 bytes" in result.reason


def test_a_page_that_is_not_html_is_skipped() -> None:
    pdf = httpx.Response(200, headers={"content-type": "application/pdf"}, content=b"%PDF")

    result, _, _ = _fetch(lambda r: pdf, "https://site.example/visit/plan.pdf")

    assert result.kind == "skipped" and "application/pdf" in result.reason


@pytest.mark.parametrize(
    ("status", "kind"), [(404, "missing"), (410, "missing"), (500, "failed"), (403, "skipped")]
)
def test_statuses_are_classified(status: int, kind: str) -> None:
    result, _, _ = _fetch(lambda r: httpx.Response(status), "https://site.example/visit/a.html")

    assert result.kind == kind and result.status == status


def test_a_429_is_retried_after_the_wait_the_site_asks_for() -> None:
    answers = iter([httpx.Response(429, headers={"retry-after": "0"}), _html("<p>ok</p>")])

    result, seen, _ = _fetch(lambda r: next(answers), "https://site.example/visit/a.html", retries=1)

    assert result.kind == "ok" and len(seen) == 2


def test_a_retry_after_longer_than_allowed_is_left_for_a_later_run() -> None:
    result, seen, _ = _fetch(
        lambda r: httpx.Response(429, headers={"retry-after": "3600"}),
        "https://site.example/visit/a.html",
        retries=3,
    )

    assert result.kind == "failed" and result.retry_after == 3600 and len(seen) == 1


def test_a_network_error_is_a_transient_failure() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    result, _, _ = _fetch(handler, "https://site.example/visit/a.html")

    assert result.kind == "failed" and "ConnectError" in result.reason


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_seconds("120") == 120
    in_a_minute = email.utils.formatdate(1_000_060, usegmt=True)
    assert retry_after_seconds(in_a_minute, now=1_000_000) == pytest.approx(60)
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


def test_the_pacer_spaces_requests_and_holds_after_a_429() -> None:
    now = [0.0]
    starts: list[float] = []

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    async def run() -> None:
        pacer = RequestPacer(0.5, clock=lambda: now[0], sleep=sleep)
        for _ in range(3):
            await pacer.wait()
            starts.append(now[0])
        pacer.hold(10.0)
        await pacer.wait()
        starts.append(now[0])

    asyncio.run(run())

    assert starts == [0.0, 0.5, 1.0, 11.0]
