"""What one input may cost: a huge record is cut and reported, a huge run is refused unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rag.indexer
from rag import cli
from rag.config import RagSettings
from rag.indexer import IndexInputError, index_corpus
from rag.store import ChunkStore, open_client
from tests.conftest import HashingEmbedder, make_settings


def _pages(root: Path, texts: list[str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"url": f"https://example.org/p{i}", "text": text}) for i, text in enumerate(texts)]
    (root / "pages.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _stored(settings: RagSettings) -> dict[str, dict[str, object]]:
    return ChunkStore.open(open_client(settings), settings.collection).all_metadata()


def test_a_huge_record_is_cut_at_the_cap_reported_with_its_line_and_the_rest_indexed(
    tmp_path: Path, fake_embedder: HashingEmbedder
) -> None:
    paragraph = "The Hall of Mirrors has seventeen arches facing the gardens. " * 10
    huge = "\n\n".join(f"Part {i}. {paragraph}" for i in range(8_000))  # about 5 MB
    corpus = _pages(tmp_path / "site", ["Tickets cost 21 euros at the desk.", huge, "The park opens at 8."])
    settings = make_settings(tmp_path / "index", max_record_chars=20_000)

    report = index_corpus([corpus], settings, embedder=fake_embedder)

    [cut] = report.cut
    assert (cut.path, cut.line) == (str(corpus / "pages.jsonl"), 2)
    kept, size = (int(n.replace(",", "")) for n in re.findall(r"[\d,]{4,}", cut.message))
    assert "RAG_MAX_RECORD_CHARS" in cut.message and kept <= 20_000 < 4_900_000 < size <= len(huge)
    assert report.documents == 3 and not report.issues
    stored_text = sum(len(c.text) for c in rag.indexer.plan_chunks([corpus], settings).chunks.values())
    assert stored_text < 40_000  # the cut record, with overlap, plus the two short ones
    assert report.chunks < 120


def test_a_run_above_the_chunk_cap_is_refused_before_anything_changes(
    tmp_path: Path, fake_embedder: HashingEmbedder
) -> None:
    corpus = _pages(tmp_path / "site", [f"Room {i} of the north wing." for i in range(30)])
    settings = make_settings(tmp_path / "index", max_run_chunks=40)
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = _stored(settings)
    _pages(tmp_path / "site", [f"Room {i} of the south wing, renamed." for i in range(60)])

    for rebuild in (False, True):
        with pytest.raises(IndexInputError, match="RAG_MAX_RUN_CHUNKS=40: nothing was indexed or removed"):
            index_corpus([corpus], settings, embedder=fake_embedder, rebuild=rebuild, prune=True)
        assert _stored(settings) == before


def test_the_cli_names_the_cap_in_one_sentence_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(rag.indexer, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setattr(rag.indexer, "embedder_name", lambda settings: "fake/hashing-64")
    monkeypatch.setenv("RAG_MAX_RUN_CHUNKS", "5")
    corpus = _pages(tmp_path / "site", [f"Room {i} of the north wing." for i in range(30)])

    code = cli.main(["index", str(corpus), "--index", str(tmp_path / "index"), "--quiet"])

    err = " ".join(capsys.readouterr().err.split())
    assert code == 2
    assert err.startswith("error: This run would embed 30 chunks") and "Traceback" not in err
    assert not (tmp_path / "index" / "chroma.sqlite3").exists()


def test_a_huge_markdown_file_is_read_only_as_far_as_the_cap_needs_and_reported_cut(tmp_path: Path) -> None:
    import tracemalloc

    from rag.loaders import load_sources

    corpus = tmp_path / "guides"
    corpus.mkdir()
    paragraph = "The Grand Trianon was built in pink marble for Louis XIV in 1687. " * 8
    with (corpus / "huge.md").open("w", encoding="utf-8") as handle:
        handle.write("# Trianon\n\n")
        for part in range(60_000):  # about 32 MB, written in pieces
            handle.write(f"Part {part}. {paragraph}\n\n")
    size = (corpus / "huge.md").stat().st_size

    tracemalloc.start()
    result = load_sources([corpus], max_record_chars=20_000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    [document] = result.documents
    assert len(document.text) <= 20_000 and document.text.startswith("# Trianon")
    [cut] = result.cut
    assert cut.path == str(corpus / "huge.md") and "RAG_MAX_RECORD_CHARS" in cut.message
    assert f"{size:,} bytes" in cut.message
    assert peak < 2_000_000  # the whole file would be 32 MB of bytes, then as much again of text


def test_a_file_whose_text_shrinks_under_the_cap_after_cleaning_is_still_reported_cut(tmp_path: Path) -> None:
    from rag.loaders import load_sources

    corpus = tmp_path / "guides"
    corpus.mkdir()
    # Mostly blank lines: what is read fits the cap once cleaned, yet the file goes on.
    (corpus / "sparse.md").write_text("# Sparse\n\n" + "word\n\n\n\n\n\n\n\n" * 20_000, encoding="utf-8")

    result = load_sources([corpus], max_record_chars=2_000)

    assert len(result.cut) == 1 and len(result.documents[0].text) <= 2_000
