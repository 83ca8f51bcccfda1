"""What the crawler knows of each page, beside the index: validators, text, hash, outcomes per run.

One SQLite file per collection. Each page's outcome is committed as soon as it is known, so a
killed crawl resumes its run where it stopped instead of fetching everything again.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from rag.config import RagSettings, location_of
from rag.errors import RagError

Outcome = Literal[
    "added",  # a new page, indexed
    "updated",  # its main text changed: its chunks are replaced
    "unchanged",  # fetched again (200), same main text: nothing to do
    "not_modified",  # 304 to a conditional request
    "missing",  # 404/410 once: its chunks are kept until it is missing again
    "removed",  # 404/410 again: its chunks are removed
    "failed",  # timeout, network error, 5xx, 429: kept, retried next run
    "deferred",  # not fetched: the site asked to wait (Retry-After) past this run
    "skipped",  # too large, not HTML, no main text, redirected outside the scope: kept as it was
    "suspect",  # changed to the same text as many other pages at once (maintenance?): kept as it was
]
CHANGES: tuple[Outcome, ...] = ("added", "updated", "removed", "missing", "failed", "skipped", "suspect")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    url TEXT PRIMARY KEY,
    live INTEGER NOT NULL DEFAULT 0,
    etag TEXT, last_modified TEXT, content_hash TEXT,
    text TEXT, title TEXT, language TEXT, date TEXT,
    fetched_at REAL, changed_at REAL, retry_at REAL,
    missing_count INTEGER NOT NULL DEFAULT 0,
    last_run INTEGER, last_outcome TEXT, last_reason TEXT,
    links TEXT
);
CREATE TABLE IF NOT EXISTS structured_data (
    url TEXT PRIMARY KEY,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL,
    requests INTEGER NOT NULL DEFAULT 0,
    details TEXT NOT NULL DEFAULT '{}'
);
"""


@dataclass
class PageRecord:
    """One page as the crawler last saw it; ``live`` pages have text in the index."""

    url: str
    live: bool = False
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None
    text: str | None = None
    title: str | None = None
    language: str | None = None
    date: str | None = None
    fetched_at: float | None = None  # last 200 or 304
    changed_at: float | None = None  # last time its text was added or changed
    retry_at: float | None = None
    missing_count: int = 0
    last_run: int | None = None
    last_outcome: str | None = None
    last_reason: str | None = None
    links: str | None = None  # JSON list of the in-scope links of its last 200, found again on a 304


_COLUMNS = [f.name for f in fields(PageRecord)]


@dataclass
class RunSummary:
    """One crawl run: when, how many requests, what each page came to, what changed."""

    run_id: int
    started_at: float
    finished_at: float | None
    requests: int
    outcomes: dict[str, int] = field(default_factory=dict)
    changes: dict[str, list[str]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


def state_path(index_dir: Path, location: str, collection: str) -> Path:
    """Where the crawl state of a collection lives: beside its index."""
    return index_dir / "crawl" / location / f"{collection}.sqlite3"


class CrawlStateError(RagError, RuntimeError):
    """The crawl state cannot be used (unreadable, or another crawl holds it); nothing was changed."""


class CrawlState:
    """Pages and runs of one collection's crawls, in SQLite."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path)
        try:
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM pages LIMIT 1").fetchall()
            self.db.execute("SELECT id, key, started_at, finished_at, requests, details FROM runs LIMIT 1")
            check = self.db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {check[0] if check else 'no answer'}")
        except sqlite3.DatabaseError as error:
            self.db.close()
            raise CrawlStateError(
                f"The crawl state {path} is unreadable ({error}): move it aside (mv {path} {path}.bad) and "
                "crawl again; the index keeps its chunks and the next crawl fetches every page afresh."
            ) from error

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> CrawlState:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_run(self, key: str) -> tuple[int, bool]:
        """Resume the unfinished run of the same crawl (same key), else start one; (id, resumed)."""
        row = self.db.execute("SELECT id, key, finished_at FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if row and row["finished_at"] is None and row["key"] == key:
            return int(row["id"]), True
        with self.db:
            if row and row["finished_at"] is None:  # another crawl was interrupted: close it as it was
                self.db.execute("UPDATE runs SET finished_at = ? WHERE id = ?", (time.time(), row["id"]))
            cursor = self.db.execute("INSERT INTO runs (key, started_at) VALUES (?, ?)", (key, time.time()))
        return int(cursor.lastrowid or 0), False

    def add_requests(self, run_id: int, requests: int) -> None:
        with self.db:
            self.db.execute("UPDATE runs SET requests = requests + ? WHERE id = ?", (requests, run_id))

    def finish_run(self, run_id: int, details: dict[str, Any]) -> None:
        with self.db:
            self.db.execute(
                "UPDATE runs SET finished_at = ?, details = ? WHERE id = ?",
                (time.time(), json.dumps(details), run_id),
            )

    def pages(self) -> dict[str, PageRecord]:
        """Every page ever seen, by URL."""
        rows = self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM pages")
        return {row["url"]: _record(row) for row in rows}

    def save(self, page: PageRecord) -> None:
        """Write one page's record and commit (what makes a killed run resumable)."""
        values = [getattr(page, name) for name in _COLUMNS]
        placeholders = ", ".join("?" for _ in _COLUMNS)
        with self.db:
            self.db.execute(
                f"INSERT OR REPLACE INTO pages ({', '.join(_COLUMNS)}) VALUES ({placeholders})", values
            )

    def save_structured(self, url: str, items: list[dict[str, Any]]) -> None:
        """Keep a page's JSON-LD objects (none: forget those it had)."""
        with self.db:
            if items:
                row = (url, json.dumps(items))
                self.db.execute("INSERT OR REPLACE INTO structured_data (url, json) VALUES (?, ?)", row)
            else:
                self.db.execute("DELETE FROM structured_data WHERE url = ?", (url,))

    def structured(self) -> dict[str, list[dict[str, Any]]]:
        """The JSON-LD objects of every live page, by URL."""
        rows = self.db.execute(
            "SELECT s.url, s.json FROM structured_data s JOIN pages p ON p.url = s.url WHERE p.live = 1"
        )
        return {row["url"]: json.loads(row["json"]) for row in rows}

    def live_pages(self) -> Iterator[PageRecord]:
        """Pages whose text belongs in the index, by URL."""
        rows = self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM pages WHERE live = 1 ORDER BY url")
        return (_record(row) for row in rows)

    def gone_urls(self) -> list[str]:
        """Pages once indexed and now gone (their chunks must not stay in the index)."""
        rows = self.db.execute("SELECT url FROM pages WHERE live = 0 AND content_hash IS NOT NULL")
        return [row["url"] for row in rows]

    def run_summary(self, run_id: int | None = None) -> RunSummary | None:
        """The given run, or the last one; None before the first crawl."""
        query = "SELECT * FROM runs " + ("WHERE id = ?" if run_id else "ORDER BY id DESC LIMIT 1")
        row = self.db.execute(query, (run_id,) if run_id else ()).fetchone()
        if row is None:
            return None
        outcomes: Counter[str] = Counter()
        changes: dict[str, list[str]] = {}
        pages = self.db.execute(
            "SELECT url, last_outcome FROM pages WHERE last_run = ? ORDER BY url", (row["id"],)
        )
        for page in pages:
            outcomes[page["last_outcome"]] += 1
            if page["last_outcome"] in CHANGES:
                changes.setdefault(page["last_outcome"], []).append(page["url"])
        return RunSummary(
            run_id=int(row["id"]),
            started_at=float(row["started_at"]),
            finished_at=row["finished_at"],
            requests=int(row["requests"]),
            outcomes=dict(outcomes),
            changes=changes,
            details=json.loads(row["details"] or "{}"),
        )


def _record(row: sqlite3.Row) -> PageRecord:
    values = {name: row[name] for name in _COLUMNS}
    values["live"] = bool(values["live"])
    return PageRecord(**values)


@contextmanager
def crawl_lock(path: Path) -> Iterator[None]:
    """Hold the crawl lock of a collection (a file beside its state): one crawl at a time, or the
    polite request rate doubles. The lock goes with the process, so a killed crawl leaves none."""
    from filelock import FileLock, Timeout

    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(path.with_name(f"{path.name}.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout as error:
        raise CrawlStateError(
            f"Another crawl of this collection is running (lock {lock.lock_file}): wait for it to "
            "finish, then crawl again."
        ) from error
    try:
        yield
    finally:
        lock.release()


def last_checked(settings: RagSettings) -> dict[str, float]:
    """URL -> when the crawler last fetched it (200 or 304); empty when the collection was never crawled."""
    path = state_path(settings.index_dir, location_of(settings), settings.collection)
    if not path.exists():
        return {}
    with CrawlState(path) as state:
        return {url: page.fetched_at for url, page in state.pages().items() if page.fetched_at is not None}
