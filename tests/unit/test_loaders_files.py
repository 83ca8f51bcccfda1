"""Markdown and text files: title, category and source come from the file and its folders."""

from __future__ import annotations

from pathlib import Path

from rag.loaders import load_sources


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_title_is_the_first_markdown_heading(tmp_path: Path) -> None:
    _write(tmp_path / "guide.md", "Intro line.\n\n## Opening hours ##\n\nNine to six.\n\n# Later heading\n")

    [document] = load_sources([tmp_path]).documents

    assert document.title == "Opening hours"


def test_title_falls_back_to_the_file_name(tmp_path: Path) -> None:
    _write(tmp_path / "opening_hours.txt", "Nine to six.")

    [document] = load_sources([tmp_path]).documents

    assert document.title == "opening hours"


def test_category_is_the_folder_path_below_the_root(tmp_path: Path) -> None:
    _write(tmp_path / "visit" / "tickets" / "prices.md", "# Prices\n\nTwenty euros.")
    _write(tmp_path / "top.md", "# Top\n\nAt the root.")

    documents = {doc.source: doc for doc in load_sources([tmp_path]).documents}

    assert documents["visit/tickets/prices.md"].category == "visit/tickets"
    assert documents["top.md"].category == ""


def test_names_with_spaces_and_accents_load(tmp_path: Path) -> None:
    relative = "1- Préparer ma visite/2-_Préparer_ma_visite_(horaires).md"
    _write(tmp_path / relative, "# Horaires du château\n\nOuvert de 9 h à 18 h 30.")

    result = load_sources([tmp_path])

    assert result.issues == []
    [document] = result.documents
    assert document.source == relative
    assert document.category == "1- Préparer ma visite"
    assert document.title == "Horaires du château"


def test_hidden_folders_and_other_suffixes_are_skipped(tmp_path: Path) -> None:
    _write(tmp_path / ".cache" / "old.md", "# Old\n\nStale copy.")
    _write(tmp_path / "notes.pdf", "not text")
    _write(tmp_path / "kept.md", "# Kept\n\nReal page.")

    result = load_sources([tmp_path])

    assert [doc.source for doc in result.documents] == ["kept.md"]
    assert result.issues == []


def test_undecodable_file_is_reported_and_skipped(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.md"
    bad.write_bytes("# Château\n\nCafé fermé.".encode("latin-1"))
    _write(tmp_path / "good.md", "# Good\n\nReadable.")

    result = load_sources([tmp_path])

    assert [doc.source for doc in result.documents] == ["good.md"]
    assert len(result.issues) == 1
    assert result.issues[0].path == str(bad)
    assert "unreadable" in result.issues[0].message


def test_file_empty_after_cleaning_is_reported(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.md", "<!-- image -->\n\n##\n")

    result = load_sources([tmp_path])

    assert result.documents == []
    assert [(issue.path, issue.message) for issue in result.issues] == [
        (str(empty), "no text after cleaning")
    ]


def test_missing_path_is_reported(tmp_path: Path) -> None:
    result = load_sources([tmp_path / "nowhere"])

    assert result.documents == []
    assert result.issues[0].message == "path does not exist"


def test_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "windows.md").write_bytes("\ufeff# Horaires\n\nOuvert à 9 h.".encode())

    [document] = load_sources([tmp_path]).documents

    assert document.title == "Horaires"
    assert not document.text.startswith("\ufeff")
