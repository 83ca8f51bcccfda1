"""De-duplication: one document per page version and per distinct content."""

from __future__ import annotations

import json
from pathlib import Path

from rag.loaders import load_sources


def _jsonl(path: Path, records: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def test_same_url_twice_keeps_the_longest_text(tmp_path: Path) -> None:
    pages = _jsonl(
        tmp_path / "pages.jsonl",
        [
            {"url": "https://x.test/a", "text": "Short version."},
            {"url": "https://x.test/a", "text": "Short version, with the full second half."},
            {"url": "https://x.test/a", "text": "Mid version here."},
        ],
    )

    result = load_sources([pages])

    assert result.records_read == 3
    [document] = result.documents
    assert document.text == "Short version, with the full second half."
    assert document.sources == ["https://x.test/a"]


def test_same_text_under_two_urls_is_one_document_with_both_urls(tmp_path: Path) -> None:
    pages = _jsonl(
        tmp_path / "pages.jsonl",
        [
            {"url": "https://x.test/fr/a", "text": "The same page."},
            {"url": "https://x.test/en/a", "text": "The  same\npage."},
        ],
    )

    [document] = load_sources([pages]).documents

    assert document.source == "https://x.test/fr/a"
    assert document.sources == ["https://x.test/fr/a", "https://x.test/en/a"]


def test_same_text_in_a_page_and_a_file_is_merged(tmp_path: Path) -> None:
    pages = _jsonl(tmp_path / "pages.jsonl", [{"url": "https://x.test/a", "text": "Shared content."}])
    guide = tmp_path / "guides" / "a.md"
    guide.parent.mkdir()
    guide.write_text("Shared content.", encoding="utf-8")

    [document] = load_sources([pages, tmp_path / "guides"]).documents

    assert sorted(document.sources) == ["a.md", "https://x.test/a"]


def test_different_texts_stay_separate(tmp_path: Path) -> None:
    pages = _jsonl(
        tmp_path / "pages.jsonl",
        [{"url": "https://x.test/a", "text": "One."}, {"url": "https://x.test/b", "text": "Two."}],
    )

    assert len(load_sources([pages]).documents) == 2
