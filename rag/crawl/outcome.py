"""What a fetch means for a page's record: pure rules, so each case is easy to test."""

from __future__ import annotations

import json
from dataclasses import replace

from rag.cleaning import content_key
from rag.crawl.extraction import ExtractedPage
from rag.crawl.fetcher import FetchResult
from rag.crawl.state import PageRecord


def next_record(
    previous: PageRecord | None,
    result: FetchResult,
    page: ExtractedPage | None,
    *,
    links: list[str] | None = None,
    run_id: int,
    now: float,
    gone_after: int,
) -> PageRecord:
    """The page's record after ``result`` (and its extracted ``page`` when it answered 200).

    An unchanged text costs nothing; a changed one replaces the page's text; a page answering
    404/410 ``gone_after`` runs in a row stops being live; anything else keeps the text it had.
    """
    record = replace(previous) if previous else PageRecord(url=result.url)
    record.last_run, record.last_reason = run_id, result.reason or None
    if result.kind in ("ok", "not_modified"):
        record.fetched_at, record.missing_count, record.retry_at = now, 0, None
    if result.kind == "ok":
        record.links = json.dumps(links or [])
    if result.kind == "ok" and page is None:
        record.last_outcome, record.last_reason = "skipped", "no main text found"
        return record
    if result.kind == "ok" and page is not None:
        digest = content_key(page.text)
        record.etag, record.last_modified = result.etag, result.last_modified
        record.title, record.language, record.date = page.title, page.language, page.date
        if record.live and record.content_hash == digest:
            record.last_outcome = "unchanged"
            return record
        record.last_outcome = "updated" if record.live else "added"
        record.live, record.text, record.content_hash, record.changed_at = True, page.text, digest, now
        return record
    if result.kind == "not_modified":
        record.last_outcome = "not_modified" if record.live else "skipped"
        return record
    if result.kind == "missing":
        record.missing_count += 1
        if record.live and record.missing_count >= gone_after:
            record.live, record.text, record.changed_at = False, None, now
            record.etag = record.last_modified = None
            record.last_outcome = "removed"
        else:
            record.last_outcome = "missing"
        return record
    if result.kind == "failed":
        if result.retry_after is not None:  # the site said when to come back
            record.retry_at = now + result.retry_after
        record.last_outcome = "failed"
        return record
    record.last_outcome = "skipped"
    return record


def known_links(record: PageRecord) -> list[str]:
    """The links a page had when last fetched whole (a 304 or a resumed run has no body)."""
    return list(json.loads(record.links)) if record.links else []


def deferred(previous: PageRecord, run_id: int) -> PageRecord:
    """The record of a page not fetched this run because the site asked to wait longer."""
    record = replace(previous)
    record.last_run, record.last_outcome = run_id, "deferred"
    return record


def held_back(previous: PageRecord, current: PageRecord, reason: str) -> PageRecord:
    """The record of a page whose new text is not trusted: what it was before, with this visit noted."""
    record = replace(previous)
    record.last_run, record.fetched_at = current.last_run, current.fetched_at
    record.last_outcome, record.last_reason = "suspect", reason
    return record
