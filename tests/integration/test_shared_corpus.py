"""The real project corpus in ../shared loads cleanly (no embedding: loading only)."""

from __future__ import annotations

import pytest

from rag.loaders import LoadResult, load_sources
from tests.conftest import SHARED_DIR

pytestmark = pytest.mark.shared

VERSAILLES = SHARED_DIR / "data" / "versailles"


@pytest.fixture(scope="module")
def loaded() -> LoadResult:
    return load_sources([VERSAILLES])


def test_loads_without_issues(loaded: LoadResult) -> None:
    # The trailing blank line of guides/versailles_concentrated_clean.jsonl is not an issue.
    assert [str(issue) for issue in loaded.issues] == []


def test_every_guide_markdown_file_is_loaded(loaded: LoadResult) -> None:
    guides = {path.relative_to(VERSAILLES).as_posix() for path in (VERSAILLES / "guides").rglob("*.md")}
    sources = {source for document in loaded.documents for source in document.sources}

    assert guides
    assert guides <= sources


def test_every_page_url_is_kept(loaded: LoadResult) -> None:
    sources = {source for document in loaded.documents for source in document.sources}

    assert any(source.startswith("https://") for source in sources)
    assert all(document.text for document in loaded.documents)


def test_duplicates_are_merged(loaded: LoadResult) -> None:
    assert len(loaded.documents) < loaded.records_read
    assert any(len(document.sources) > 1 for document in loaded.documents)
    sources = [source for document in loaded.documents for source in document.sources]
    assert len(sources) == len(set(sources))
