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
