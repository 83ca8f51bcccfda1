"""JSON Lines pages: one record per line, problems reported with their line number."""

from __future__ import annotations

import json
from pathlib import Path

from rag.loaders import load_sources


def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _page(url: str, text: str, **extra: object) -> str:
    return json.dumps({"url": url, "text": text, **extra}, ensure_ascii=False)


def test_broken_line_is_reported_with_file_and_line_and_the_rest_loads(tmp_path: Path) -> None:
    pages = _write_lines(
        tmp_path / "pages.jsonl",
        [
            _page("https://x.test/a", "First page."),
            '{"url": "https://x.test/b", "text": ',
            _page("https://x.test/c", "Third page."),
        ],
    )

    result = load_sources([pages])

    assert [doc.source for doc in result.documents] == ["https://x.test/a", "https://x.test/c"]
    assert len(result.issues) == 1
    assert result.issues[0].path == str(pages)
    assert result.issues[0].line == 2
    assert f"{pages}:2" in str(result.issues[0])


def test_record_without_url_is_an_issue_not_a_document(tmp_path: Path) -> None:
    pages = _write_lines(tmp_path / "pages.jsonl", [json.dumps({"text": "No address."})])

    result = load_sources([pages])

    assert result.documents == []
    assert [(issue.line, issue.message) for issue in result.issues] == [(1, "missing 'url'")]


def test_blank_lines_are_ignored(tmp_path: Path) -> None:
    pages = _write_lines(
        tmp_path / "pages.jsonl",
        ["", _page("https://x.test/a", "Page."), "   ", "", _page("https://x.test/b", "Other.")],
    )

    result = load_sources([pages])

    assert result.issues == []
    assert result.records_read == 2
    assert len(result.documents) == 2


def test_extra_scalar_fields_become_metadata(tmp_path: Path) -> None:
    pages = _write_lines(
        tmp_path / "pages.jsonl",
        [_page("https://x.test/a", "Page.", lang="fr", crawled=2025, nested={"no": 1}, title="A page")],
    )

    [document] = load_sources([pages]).documents

    assert document.metadata == {"lang": "fr", "crawled": 2025}
    assert document.title == "A page"


def test_page_title_and_category_come_from_the_text_and_url(tmp_path: Path) -> None:
    pages = _write_lines(
        tmp_path / "pages.jsonl",
        [_page("https://x.test/visit/opening-hours", "Hours | Site name. Open at nine.")],
    )

    [document] = load_sources([pages]).documents

    assert document.title == "Hours"
    assert document.category == "visit"


def test_utf8_byte_order_mark_does_not_break_the_first_line(tmp_path: Path) -> None:
    pages = tmp_path / "pages.jsonl"
    pages.write_bytes(("\ufeff" + _page("https://x.test/a", "First page.") + "\n").encode())

    result = load_sources([pages])

    assert result.issues == []
    assert [doc.source for doc in result.documents] == ["https://x.test/a"]


def test_a_line_that_is_not_utf8_is_reported_with_its_line_and_the_rest_is_read(tmp_path: Path) -> None:
    lines = [
        json.dumps({"url": f"https://example.org/{n}", "text": f"Page {n} about the gardens."})
        for n in range(4)
    ]
    raw = "\n".join(lines).encode("utf-8").replace(b"Page 1", b"Page \xff1")
    (tmp_path / "pages.jsonl").write_bytes(raw)

    result = load_sources([tmp_path / "pages.jsonl"])

    assert result.records_read == 3 and len(result.documents) == 3
    assert [(issue.line, issue.message) for issue in result.issues] == [
        (2, "not UTF-8 (byte 48 of the line)")
    ]
