"""What the index holds, how it was built, and how fresh its crawled pages are (CLI, app sidebar)."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rag.config import RagSettings, location_of
from rag.crawl.state import CrawlState, RunSummary, state_path
from rag.store import ChunkStore, KnowledgeBaseError, open_client

REPLACEMENT = "\ufffd"


def printable(text: object) -> str:
    """``text`` with control and format characters (terminal escapes, line breaks, bidi overrides)
    shown as U+FFFD: a crawled link or a stored name must not drive the terminal that prints it."""
    return "".join(
        REPLACEMENT if unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp"} else char for char in str(text)
    )


def knowledge_base_stats(
    settings: RagSettings, collections: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Chunks, documents, embedding model and dimension, languages and completeness per collection.

    Raises :class:`KnowledgeBaseError` (with the command to run) when there is no index.
    """
    client = open_client(settings)
    names = list(collections or [c.name for c in client.list_collections()])
    if not names:
        raise KnowledgeBaseError("The index holds no collection. Build it with: python -m rag index")
    rows = []
    for name in names:
        store = ChunkStore.open(client, name, settings)
        info = store.info
        model = info.get("embedding_model")
        rows.append(
            {
                "collection": printable(name),
                "chunks": store.count(),
                "documents": info.get("documents"),
                "embedding_model": printable(model) if model is not None else None,
                "embedding_dimension": info.get("embedding_dimension"),
                "languages": [printable(code) for code in str(info.get("languages", "")).split(",") if code],
                "complete": bool(info.get("complete")),
            }
        )
    return rows


@dataclass
class SourceFreshness:
    """When one crawled page was last fetched and last changed, and how its last visit went."""

    url: str
    live: bool
    last_fetched: datetime | None
    last_changed: datetime | None
    last_outcome: str | None
    reason: str | None


@dataclass
class CrawlFreshness:
    """What the operator console shows of a collection's crawls: every page, and the last run."""

    collection: str
    sources: list[SourceFreshness] = field(default_factory=list)
    last_run: RunSummary | None = None

    @property
    def oldest_fetch(self) -> datetime | None:
        """The live page fetched longest ago (what a schedule should keep recent)."""
        fetched = [source.last_fetched for source in self.sources if source.live and source.last_fetched]
        return min(fetched) if fetched else None


def crawl_freshness(settings: RagSettings, collection: str | None = None) -> CrawlFreshness | None:
    """Last fetch per crawled source and the changes of the last crawl run; None if never crawled.

    The operator console calls this (one collection); ``python -m rag stats`` prints it.
    """
    name = collection or settings.collection
    path = state_path(settings.index_dir, location_of(settings), name)
    if not path.exists():
        return None
    with CrawlState(path) as state:
        sources = [
            SourceFreshness(
                url=printable(page.url),
                live=page.live,
                last_fetched=_moment(page.fetched_at),
                last_changed=_moment(page.changed_at),
                last_outcome=_printable_or_none(page.last_outcome),
                reason=_printable_or_none(page.last_reason),
            )
            for page in sorted(state.pages().values(), key=lambda page: page.url)
        ]
        return CrawlFreshness(name, sources, _printable_run(state.run_summary()))


def _printable_or_none(text: str | None) -> str | None:
    return printable(text) if text is not None else None


def _printable_run(run: RunSummary | None) -> RunSummary | None:
    """The run's changed URLs and outcome names as they may be printed."""
    if run is None:
        return None
    return dataclasses.replace(
        run,
        outcomes={printable(name): count for name, count in run.outcomes.items()},
        changes={printable(name): [printable(url) for url in urls] for name, urls in run.changes.items()},
    )


def _moment(timestamp: float | None) -> datetime | None:
    return datetime.fromtimestamp(timestamp, tz=UTC) if timestamp is not None else None
