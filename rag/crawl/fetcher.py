"""Polite HTTP for the crawler: paced requests, conditional GETs, redirects checked hop by hop, caps.

Everything a site sends is untrusted: redirects are followed only within the crawl's scope, bodies
are read up to a size cap, and a slow server is cut off by an overall deadline per request.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_result, stop_after_attempt

from rag.crawl.decoding import BodyEncodingError, BodyTooLarge, BoundedDecoder
from rag.crawl.scope import normalise_url

logger = logging.getLogger(__name__)

FetchKind = Literal["ok", "not_modified", "missing", "failed", "skipped"]
REDIRECTS = {301, 302, 303, 307, 308}
MAX_REDIRECTS = 5
HTML_TYPES = ("text/html", "application/xhtml+xml")
BACKOFF_SECONDS = 1.0
DRAIN_BYTES = 64 * 1024  # the body of a redirect or an error page, read to keep the connection
_SECONDS = re.compile(r"[0-9]{1,12}")  # ASCII digits only


@dataclass
class FetchResult:
    """How one URL answered, after redirects and in-run retries."""

    url: str
    kind: FetchKind
    status: int | None = None
    body: bytes = b""
    etag: str | None = None
    last_modified: str | None = None
    retry_after: float | None = None
    reason: str = ""


class RequestPacer:
    """Start requests at least ``interval`` seconds apart; hold every request after a 429."""

    def __init__(
        self,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Return when the next request may start."""
        async with self._lock:
            delay = self._next - self.clock()
            if delay > 0:
                await self.sleep(delay)
            self._next = max(self.clock(), self._next) + self.interval

    def hold(self, seconds: float) -> None:
        """No request starts in the next ``seconds`` (the site asked to slow down)."""
        self._next = max(self._next, self.clock() + seconds)


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds asked by a Retry-After header (ASCII digits or an HTTP date); None if absent or
    unreadable (``²`` is a digit to Python but no number to HTTP)."""
    if not value:
        return None
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
        return max(0.0, moment.timestamp() - (time.time() if now is None else now))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


class PoliteFetcher:
    """GETs within a crawl's scope and caps; ``requests`` counts every request sent."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        pacer: RequestPacer,
        refusal: Callable[[str], str | None],
        *,
        timeout: float,
        retries: int,
        max_retry_wait: float,
        max_delay: float = float("inf"),
    ) -> None:
        self.client = client
        self.pacer = pacer
        self.refusal = refusal
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self.max_delay = max_delay
        self.requests = 0
        self.warnings: list[str] = []  # each once, for the run's report

    async def fetch(
        self,
        url: str,
        max_bytes: int,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        html: bool = True,
    ) -> FetchResult:
        """Fetch ``url``; transient failures are retried ``retries`` times, waiting as the site asks."""
        retrying = AsyncRetrying(
            stop=stop_after_attempt(1 + self.retries),
            wait=self._wait,
            retry=retry_if_result(self._worth_retrying),
            retry_error_callback=lambda state: state.outcome.result() if state.outcome else None,
        )
        result: FetchResult = await retrying(self._follow, url, max_bytes, etag, last_modified, html)
        return result

    def _capped_retry_after(self, header: str | None) -> float | None:
        wait = retry_after_seconds(header)
        if wait is None or wait <= self.max_delay:
            return wait
        self.warn(
            f"the site asked to wait {wait:.0f} s (Retry-After); waiting at most "
            f"RAG_CRAWL_MAX_DELAY_SECONDS={self.max_delay:g} s"
        )
        return self.max_delay

    def warn(self, message: str) -> None:
        """Note ``message`` once for the run's report (and the log)."""
        if message not in self.warnings:
            logger.warning("%s", message)
            self.warnings.append(message)

    def _worth_retrying(self, result: FetchResult) -> bool:
        return result.kind == "failed" and (result.retry_after or 0.0) <= self.max_retry_wait

    def _wait(self, state: RetryCallState) -> float:
        result = state.outcome.result() if state.outcome else None
        if isinstance(result, FetchResult) and result.retry_after is not None:
            return result.retry_after
        return BACKOFF_SECONDS * 2 ** (state.attempt_number - 1)

    async def _follow(
        self, url: str, max_bytes: int, etag: str | None, last_modified: str | None, html: bool
    ) -> FetchResult:
        """One attempt: the request, then each redirect hop if the scope allows it."""
        headers = {}
        if etag := _validator(etag):  # a state saved by an older version may hold any text
            headers["If-None-Match"] = etag
        if last_modified := _validator(last_modified):
            headers["If-Modified-Since"] = last_modified
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            if reason := self.refusal(current):
                where = "" if current == url else f" (redirected to {current})"
                return FetchResult(url, "skipped", reason=f"{reason}{where}")
            await self.pacer.wait()
            self.requests += 1
            try:
                answer = await asyncio.wait_for(self._get(current, headers, max_bytes, html), self.timeout)
            except (TimeoutError, httpx.TimeoutException):
                return FetchResult(url, "failed", reason=f"no answer within {self.timeout:g} s")
            except httpx.InvalidURL:  # httpx reads a redirect's Location even when not following it
                return FetchResult(url, "skipped", reason="redirect to an unusable address")
            except httpx.HTTPError as error:
                return FetchResult(url, "failed", reason=f"network error ({type(error).__name__})")
            if isinstance(answer, FetchResult):
                answer.url = url
                if answer.status == 429 and answer.retry_after is not None:
                    self.pacer.hold(min(answer.retry_after, self.max_retry_wait))
                return answer
            if answer is None:
                return FetchResult(url, "skipped", reason="redirect to an unusable address")
            current, headers = answer, {}
        return FetchResult(url, "skipped", reason=f"more than {MAX_REDIRECTS} redirects")

    async def _get(
        self, url: str, headers: dict[str, str], max_bytes: int, html: bool
    ) -> FetchResult | str | None:
        """A result, or the next URL of a redirect (None when its Location is unusable)."""
        async with self.client.stream("GET", url, headers=headers) as response:
            status = response.status_code
            if status != 200:
                await _drain(response)
            if status in REDIRECTS:
                return normalise_url(response.headers.get("location", ""), base=url)
            if status == 304:
                return FetchResult(url, "not_modified", status)
            if status in (404, 410):
                return FetchResult(url, "missing", status, reason=f"HTTP {status}")
            if status == 429 or status >= 500:
                wait = self._capped_retry_after(response.headers.get("retry-after"))
                return FetchResult(url, "failed", status, retry_after=wait, reason=f"HTTP {status}")
            if not 200 <= status < 300:
                return FetchResult(url, "skipped", status, reason=f"HTTP {status}")
            content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if html and content_type not in HTML_TYPES:
                return FetchResult(url, "skipped", status, reason=f"not HTML ({content_type or 'no type'})")
            declared = response.headers.get("content-length", "")
            if declared.isascii() and declared.isdigit() and int(declared) > max_bytes:
                return FetchResult(url, "skipped", status, reason=f"larger than {max_bytes} bytes")
            try:
                body = await read_bounded(response, max_bytes)
            except BodyTooLarge:
                return FetchResult(url, "skipped", status, reason=f"larger than {max_bytes} bytes")
            except BodyEncodingError as error:
                return FetchResult(url, "skipped", status, reason=str(error))
            return FetchResult(
                url,
                "ok",
                status,
                body,
                etag=_validator(response.headers.get("etag")),
                last_modified=_validator(response.headers.get("last-modified")),
            )


async def read_bounded(response: httpx.Response, max_bytes: int) -> bytes:
    """The decoded body, read raw and decoded here piece by piece so no more than ``max_bytes``
    decoded bytes (plus one piece) are ever held; raises BodyTooLarge past the cap."""
    if response.is_stream_consumed:  # a transport that read the body already (httpx.MockTransport)
        if len(response.content) > max_bytes:
            raise BodyTooLarge
        return response.content
    decoder = BoundedDecoder(response.headers.get("content-encoding", ""), max_bytes)
    raw = 0
    async for piece in response.aiter_raw():
        raw += len(piece)
        if raw > max_bytes:  # a compressed form larger than the page is no page
            raise BodyTooLarge
        decoder.feed(piece)
    return decoder.body


def _validator(value: str | None) -> str | None:
    """An ETag or Last-Modified worth sending back: printable ASCII only (httpx refuses the rest,
    which once failed every later request of the page)."""
    if value and value.isascii() and value.isprintable():
        return value
    return None


async def _drain(response: httpx.Response, limit: int = DRAIN_BYTES) -> None:
    """Read a small unwanted body so the connection can be reused; a larger one closes it.

    Raw bytes: an error page is never decompressed (it could be a bomb)."""
    if response.is_stream_consumed:
        return
    read = 0
    async for piece in response.aiter_raw():
        read += len(piece)
        if read > limit:
            return
