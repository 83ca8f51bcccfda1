"""Every answer the offline service gives on our sets, written down to compare two commits.

Usage: python -m benchmarks.answer_snapshot OUT.jsonl [--index DIR]
Plays the shared development questions, data/eval/scope.jsonl, data/eval/tool_paraphrases.jsonl
and every turn of data/eval/conversations.jsonl through the real service (the offline model unless
a key is set; weather and travel tools offline), each item on its own thread, and writes one line per
turn: the answer, the tools called, the citations and sources, the kind and the language. A refactor
that leaves behaviour unchanged leaves the file unchanged: compare two runs with
``python -m benchmarks.answer_snapshot --compare BEFORE.jsonl AFTER.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._common import BENCH_INDEX, EVAL_SETS, QUESTIONS, offline_service


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def items() -> list[tuple[str, list[str]]]:
    """(id, the turns in order) of every set played."""
    played = [(q["id"], [q["question"]]) for q in _rows(QUESTIONS)]
    for name in ("scope.jsonl", "tool_paraphrases.jsonl"):
        played += [(q["id"], [q["question"]]) for q in _rows(EVAL_SETS / name)]
    played += [(c["id"], [t["text"] for t in c["turns"]]) for c in _rows(EVAL_SETS / "conversations.jsonl")]
    return played


def snapshot(index: Path) -> list[dict[str, Any]]:
    """One record per turn played."""
    from agents.events import FinalAnswer

    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(index, Path(folder))
        for ident, turns in items():
            for number, text in enumerate(turns):
                result = service.ask(text, thread_id=f"snapshot-{ident}")
                record: dict[str, Any] = {"id": ident, "turn": number}
                if isinstance(result, FinalAnswer):
                    record |= {
                        "answer": result.answer,
                        "tools": result.tools,
                        "citations": result.citations,
                        "sources": [{"title": c.title, "url": c.page} for c in result.reply.citations],
                        "kind": result.kind,
                        "language": result.language,
                    }
                else:
                    record["error"] = result.message
                records.append(record)
    return records


def compare(before: Path, after: Path) -> int:
    """Print the turns whose record differs; the number of them."""
    old = {(r["id"], r["turn"]): r for r in _rows(before)}
    new = {(r["id"], r["turn"]): r for r in _rows(after)}
    changed = sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    for ident, turn in changed:
        was, now = old.get((ident, turn), {}), new.get((ident, turn), {})
        fields = sorted(k for k in {*was, *now} if was.get(k) != now.get(k))
        print(f"{ident} turn {turn}: {', '.join(fields)}")
    print(f"{len(old.keys() & new.keys()) - len(changed)} of {len(old.keys() | new.keys())} turns identical")
    return len(changed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="where to write the snapshot (JSON Lines)")
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    if args.out is None:
        parser.error("give the file to write, or --compare BEFORE AFTER")
    records = snapshot(args.index)
    args.out.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8"
    )
    print(f"{len(records)} turns written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
