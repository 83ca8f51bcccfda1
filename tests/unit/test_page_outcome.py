"""What each answer does to a page's record: the rules behind an incremental crawl."""

from __future__ import annotations

from rag.crawl.extraction import ExtractedPage
from rag.crawl.fetcher import FetchResult
from rag.crawl.outcome import next_record
from rag.crawl.state import PageRecord

URL = "https://site.example/visit/hours.html"
PAGE = ExtractedPage(title="Hours", text="The palace opens at nine.", language="en", date=None)


def _next(previous: PageRecord | None, result: FetchResult, page: ExtractedPage | None = None) -> PageRecord:
    return next_record(previous, result, page, run_id=7, now=1000.0, gone_after=2)


def _live() -> PageRecord:
    return _next(None, FetchResult(URL, "ok", 200, etag='"v1"'), PAGE)


def test_a_new_page_is_added_with_its_validators() -> None:
    record = _live()

    assert (record.last_outcome, record.live, record.etag, record.text) == ("added", True, '"v1"', PAGE.text)
    assert record.fetched_at == record.changed_at == 1000.0 and record.last_run == 7


def test_the_same_text_in_new_html_is_unchanged() -> None:
    record = _next(_live(), FetchResult(URL, "ok", 200, etag='"v2"'), PAGE)

    assert record.last_outcome == "unchanged" and record.etag == '"v2"'


def test_new_text_updates_the_page() -> None:
    edited = ExtractedPage("Hours", "The palace opens at ten.", "en", None)

    record = _next(_live(), FetchResult(URL, "ok", 200), edited)

    assert record.last_outcome == "updated" and record.text == edited.text


def test_a_page_missing_once_is_kept_and_removed_the_second_time() -> None:
    once = _next(_live(), FetchResult(URL, "missing", 404))
    twice = _next(once, FetchResult(URL, "missing", 410))

    assert (once.last_outcome, once.live, once.text) == ("missing", True, PAGE.text)
    assert (twice.last_outcome, twice.live, twice.text) == ("removed", False, None)


def test_a_page_back_between_two_404s_starts_counting_again() -> None:
    once = _next(_live(), FetchResult(URL, "missing", 404))
    back = _next(once, FetchResult(URL, "not_modified", 304))

    assert _next(back, FetchResult(URL, "missing", 404)).last_outcome == "missing"


def test_a_transient_failure_keeps_the_text_and_remembers_retry_after() -> None:
    record = _next(_live(), FetchResult(URL, "failed", 429, retry_after=60.0, reason="HTTP 429"))

    assert (record.last_outcome, record.live, record.text) == ("failed", True, PAGE.text)
    assert record.retry_at == 1060.0


def test_a_page_without_main_text_keeps_what_it_had() -> None:
    record = _next(_live(), FetchResult(URL, "ok", 200), None)

    assert (record.last_outcome, record.live, record.text) == ("skipped", True, PAGE.text)
