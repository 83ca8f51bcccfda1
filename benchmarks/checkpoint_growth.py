"""How much a conversation costs the checkpoint store: bytes per turn for 10, 20 and 50 turns (issue 22).

The offline model answers over the bundled corpus; each conversation has its own SQLite file, so
its size (after VACUUM, free pages dropped) is what that one visitor left on disk.

Run: ``python -m benchmarks.checkpoint_growth`` (``--turns 10 20 50``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import save_result
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever

QUESTIONS = [
    "What time does the palace open?",
    "How much is a ticket?",
    "Et pour les enfants ?",
    "How do I get there from Paris by train?",
    "Is the park free?",
    "Wann ist das Schloss montags geöffnet?",
    "Where can I park?",
    "¿Se puede visitar el Trianon?",
    "What about the gardens in winter?",
    "Are dogs allowed in the park?",
]


def stored_bytes(path: Path) -> tuple[int, int]:
    """The file's size after VACUUM (pages times page size: in WAL mode the file itself shrinks only
    once the last connection closes), and how many checkpoints it holds."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("VACUUM")
        pages = int(connection.execute("PRAGMA page_count").fetchone()[0])
        page_size = int(connection.execute("PRAGMA page_size").fetchone()[0])
        checkpoints = int(connection.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0])
    finally:
        connection.close()
    return pages * page_size, checkpoints


def one_conversation(retriever: HybridRetriever, folder: Path, turns: int) -> dict[str, Any]:
    """Ask ``turns`` questions on one thread; the file's size per turn."""
    from agents.config import AgentSettings
    from agents.events import FinalAnswer
    from agents.service import AgentService

    path = folder / f"turns-{turns}.sqlite"
    settings = AgentSettings(_env_file=None, provider="offline", checkpoint_path=path)
    service = AgentService(settings=settings, retriever=retriever)
    started, answered = time.perf_counter(), 0
    for turn in range(turns):
        question = f"{QUESTIONS[turn % len(QUESTIONS)]} ({turn + 1})"
        answered += isinstance(service.ask(question, thread_id="visitor"), FinalAnswer)
    service.close()
    size, checkpoints = stored_bytes(path)
    return {
        "turns": turns,
        "answered": answered,
        "bytes": size,
        "bytes_per_turn": round(size / turns),
        "checkpoints": checkpoints,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[10, 20, 50])
    args = parser.parse_args()
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        settings = RagSettings(_env_file=None, index_dir=Path(folder) / "bundled")
        index_corpus([DEFAULT_CORPUS], settings)
        retriever = HybridRetriever(settings)
        header = ("turns", "answered", "file (VACUUM)", "bytes/turn", "checkpoints", "s")
        print("{:>5} {:>8} {:>14} {:>11} {:>11} {:>6}".format(*header))
        for turns in args.turns:
            row = one_conversation(retriever, Path(folder), turns)
            rows.append(row)
            print(
                f"{row['turns']:>5} {row['answered']:>8} {row['bytes']:>14,} {row['bytes_per_turn']:>11,} "
                f"{row['checkpoints']:>11} {row['seconds']:>6}"
            )
    save_result("checkpoint_growth", {"conversations": rows})


if __name__ == "__main__":
    main()
