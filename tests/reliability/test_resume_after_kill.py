"""An indexing run killed half-way resumes where it stopped and ends like a clean build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.store import ChunkStore, open_client
from tests.conftest import CORPUS, REPO_ROOT, HashingEmbedder, make_settings, write_corpus

GROUP = 3
MARKER_AFTER_CALLS = 3

# Runs in a child process: index with a slow embedder that touches a marker after a few groups.
CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path

    import rag.indexer
    from tests.conftest import HashingEmbedder, make_settings

    corpus, index_dir, marker = (Path(arg) for arg in sys.argv[1:4])
    group, marker_after = int(sys.argv[4]), int(sys.argv[5])


    class SlowEmbedder(HashingEmbedder):
        def embed_documents(self, texts):
            vectors = super().embed_documents(texts)
            if self.calls >= marker_after:
                marker.touch()
            time.sleep(0.5)
            return vectors


    rag.indexer.EMBED_GROUP = group
    rag.indexer.index_corpus([corpus], make_settings(index_dir), embedder=SlowEmbedder())
    """
)


def _big_corpus(root: Path) -> Path:
    """The test corpus plus enough extra pages for a dozen embedding groups."""
    extra = {
        f"extra/page-{i:02d}.en.md": f"# Page {i}\n\n"
        + "\n\n".join(
            f"Paragraph {j} of page {i} about room {i * 10 + j} and its paintings." for j in range(3)
        )
        for i in range(12)
    }
    return write_corpus(root, {**CORPUS, **extra})


def _ids(settings: RagSettings) -> list[str]:
    return list(ChunkStore.open(open_client(settings), settings.collection).all_metadata())


def _kill_after_marker(corpus: Path, index_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    script = tmp_path / "index_child.py"
    script.write_text(CHILD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    args = [
        sys.executable,
        str(script),
        str(corpus),
        str(index_dir),
        str(marker),
        str(GROUP),
        str(MARKER_AFTER_CALLS),
    ]
    child = subprocess.Popen(args, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert child.poll() is None, (
                f"indexing child exited early:\n{child.stderr.read() if child.stderr else ''}"
            )
            assert time.monotonic() < deadline, "indexing child never reached the marker"
            time.sleep(0.05)
        assert child.poll() is None, "indexing finished before it could be killed"
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


def test_killed_run_resumes_to_the_same_index_as_a_clean_build(tmp_path: Path) -> None:
    corpus = _big_corpus(tmp_path / "corpus")
    clean = make_settings(tmp_path / "clean")
    total = index_corpus([corpus], clean, embedder=HashingEmbedder()).chunks
    resumed = make_settings(tmp_path / "resumed")

    _kill_after_marker(corpus, resumed.index_dir, tmp_path)

    partial = ChunkStore.open(open_client(resumed), resumed.collection)
    assert 0 < partial.count() < total
    assert partial.info["complete"] is False
    report = index_corpus([corpus], resumed, embedder=HashingEmbedder())
    ids = _ids(resumed)
    assert sorted(ids) == sorted(_ids(clean))
    assert len(ids) == len(set(ids)) == total
    assert 0 < report.embedded < total
    assert ChunkStore.open(open_client(resumed), resumed.collection).info["complete"] is True
