"""The visit calendar against a real Chroma index of the bundled corpus: every rule is supported."""

from __future__ import annotations

from typing import Any

import pytest

from agents.visit_calendar.check import check_calendar, index_texts
from agents.visit_calendar.rules import load_calendar
from rag.store import ChunkStore, open_client

pytestmark = pytest.mark.slow


def test_every_rule_is_written_in_its_source_as_the_index_stores_it(bundled_index: Any) -> None:
    settings = bundled_index.settings
    store = ChunkStore.open(open_client(settings), settings.collection, settings)
    texts = index_texts(store.iter_records())
    report = check_calendar(load_calendar(), texts)
    assert report.problems == (), [str(p) for p in report.problems]
    assert "plan-your-visit/opening-hours.en.md" in texts
