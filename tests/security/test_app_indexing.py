"""Indexing from the app: confined to configured roots (links resolved), uploads bounded and removable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.config import RagSettings
from rag.confine import AllowedRoots, PathNotAllowedError
from rag.indexer import index_corpus
from rag.store import ChunkStore, open_client
from rag.uploads import (
    UploadError,
    app_roots,
    index_with_uploads,
    list_uploads,
    remove_upload,
    save_uploads,
    uploads_folder,
)
from tests.conftest import HashingEmbedder, make_settings, write_corpus

SECRET = "DATABASE_PASSWORD=hunter2-do-not-index"


def _no_progress(fraction: float, text: str) -> None:
    return None


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """An allowed root with a guide, a private folder beside it holding a secret, and an index."""
    root = write_corpus(tmp_path / "allowed", {"guide.md": "# Guide\n\nThe palace opens at nine.\n"})
    private = write_corpus(tmp_path / "private", {"config.md": f"# Config\n\n{SECRET}\n"})
    return {"root": root, "private": private, "index": tmp_path / "index"}


def _settings(layout: dict[str, Path], **overrides: object) -> RagSettings:
    return make_settings(layout["index"], app_index_roots=[layout["root"]], **overrides)


def _all_text(settings: RagSettings) -> str:
    store = ChunkStore.open(open_client(settings), settings.collection)
    return " ".join(text for _, text, _ in store.iter_records())


def test_a_folder_outside_the_roots_is_refused_and_nothing_is_indexed(layout: dict[str, Path]) -> None:
    settings = _settings(layout)

    for attempt in (layout["private"], layout["root"] / ".." / "private", Path("/etc")):
        with pytest.raises(PathNotAllowedError, match="outside the folders the app may index"):
            index_with_uploads([attempt], settings, _no_progress, embedder=HashingEmbedder())

    assert not (layout["index"] / "chroma.sqlite3").exists()


def test_a_symbolic_link_inside_a_root_pointing_outside_is_refused_or_skipped(
    layout: dict[str, Path],
) -> None:
    settings = _settings(layout)
    (layout["root"] / "linked-folder").symlink_to(layout["private"], target_is_directory=True)
    (layout["root"] / "linked-file.md").symlink_to(layout["private"] / "config.md")

    with pytest.raises(PathNotAllowedError):
        index_with_uploads(
            [layout["root"] / "linked-folder"], settings, _no_progress, embedder=HashingEmbedder()
        )

    report = index_with_uploads([layout["root"]], settings, _no_progress, embedder=HashingEmbedder())

    assert report.documents == 1
    skipped = {Path(issue.path).name for issue in report.issues}
    assert "linked-file.md" in skipped
    assert "hunter2" not in _all_text(settings)
    assert "opens at nine" in _all_text(settings)


def test_the_command_line_is_not_confined(layout: dict[str, Path]) -> None:
    settings = _settings(layout)
    report = index_corpus([layout["private"]], settings, embedder=HashingEmbedder())
    assert report.documents == 1


def test_uploads_are_always_allowed(layout: dict[str, Path]) -> None:
    settings = _settings(layout)
    assert app_roots(settings).contains(uploads_folder(settings) / "notes.md")
    assert not AllowedRoots([layout["root"]]).contains(layout["private"] / "config.md")


def test_an_upload_over_the_size_limit_is_refused_and_nothing_is_written(layout: dict[str, Path]) -> None:
    settings = _settings(layout, upload_max_mb=1)
    small = ("small.md", b"# Small\n\nFine.\n")
    big = ("big.jsonl", b"x" * (1024 * 1024 + 1))

    with pytest.raises(UploadError, match=r"'big.jsonl' is 1.0 MB, more than the 1 MB .*RAG_UPLOAD_MAX_MB"):
        save_uploads([small, big], settings)

    assert list_uploads(settings) == []


def test_uploads_beyond_the_count_limit_are_refused_until_some_are_removed(layout: dict[str, Path]) -> None:
    settings = _settings(layout, upload_max_files=2)
    save_uploads([("a.md", b"# A\n\nAlpha.\n"), ("b.md", b"# B\n\nBeta.\n")], settings)

    with pytest.raises(UploadError, match=r"3 uploaded files .*RAG_UPLOAD_MAX_FILES"):
        save_uploads([("c.md", b"# C\n\nGamma.\n")], settings)
    save_uploads([("a.md", b"# A\n\nAlpha again.\n")], settings)  # replacing one is fine

    assert [upload.name for upload in list_uploads(settings)] == ["a.md", "b.md"]


def test_removing_an_upload_removes_its_chunks_and_only_them(layout: dict[str, Path]) -> None:
    settings = _settings(layout)
    pages = [
        {"url": f"https://example.org/{i}", "text": f"Exhibition {i} runs until June."} for i in range(3)
    ]
    save_uploads(
        [
            ("expo.jsonl", "\n".join(json.dumps(p) for p in pages).encode()),
            ("faq.md", b"# FAQ\n\nDogs stay out.\n"),
        ],
        settings,
    )
    index_with_uploads([layout["root"]], settings, _no_progress, embedder=HashingEmbedder())
    store = ChunkStore.open(open_client(settings), settings.collection)
    before = store.count()

    removed = remove_upload("expo.jsonl", settings)

    assert removed == 3
    assert store.count() == before - 3
    assert [upload.name for upload in list_uploads(settings)] == ["faq.md"]
    text = _all_text(settings)
    assert "Exhibition" not in text and "Dogs stay out" in text and "opens at nine" in text


@pytest.mark.parametrize("name", ["missing.md", "../allowed/guide.md", ""])
def test_removing_an_unknown_upload_is_refused_and_removes_nothing(
    layout: dict[str, Path], name: str
) -> None:
    settings = _settings(layout)
    save_uploads([("faq.md", b"# FAQ\n\nDogs stay out.\n")], settings)

    with pytest.raises(UploadError, match="nothing was removed"):
        remove_upload(name, settings)

    assert (layout["root"] / "guide.md").exists()
    assert [upload.name for upload in list_uploads(settings)] == ["faq.md"]


@pytest.mark.parametrize(
    "second",
    [
        ("x" * 300 + ".md", "too long for the file system"),
        ("bad\x00name.md", "a NUL byte"),
        ("line\nbreak.md", "a line break"),
        ("sub.md", "the name of a folder already there"),
    ],
    ids=["long-name", "nul", "newline", "folder"],
)
def test_a_batch_refused_at_its_second_file_writes_not_even_its_first(
    layout: dict[str, Path], second: tuple[str, str]
) -> None:
    settings = _settings(layout)
    (uploads_folder(settings) / "sub.md").mkdir(parents=True)

    with pytest.raises(UploadError, match="nothing was uploaded"):
        save_uploads([("first.md", b"# First\n\nKept?\n"), (second[0], b"# Second\n\nText.\n")], settings)

    assert list_uploads(settings) == []
    assert sorted(path.name for path in uploads_folder(settings).iterdir()) == ["sub.md"]
