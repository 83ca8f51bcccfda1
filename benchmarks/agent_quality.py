"""The agent on the development questions: tool choice, language, citations, abstention, facts.

Usage: python -m benchmarks.agent_quality [--index DIR]   (index built by retrieval_quality)
Uses the configured provider: the built-in offline model when no API key is set. The weather and
travel tools stay offline (climate normals, distance estimates) unless TOOLS_OFFLINE is set
otherwise, so that the figures do not depend on the network.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from agents.config import AgentSettings
from agents.evaluate import evaluate, summarise
from agents.service import AgentService
from benchmarks._common import BENCH_INDEX, QUESTIONS, half_of, save_result
from rag.config import RagSettings
from rag.evaluate import read_jsonl


def main() -> None:
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = AgentSettings(checkpoint_path=Path(folder) / "eval.sqlite")
        service = AgentService(settings=settings, rag_settings=RagSettings(index_dir=args.index))
        rows = evaluate(read_jsonl(QUESTIONS), service.ask)
    summary = summarise(rows)
    summary["model"] = service.model_name
    halves = {half: summarise([r for r in rows if half_of(r["id"]) == half]) for half in ("tune", "check")}
    print(json.dumps(summary, indent=2))
    keys = ("abstention_out_of_scope", "facts_in_answer", "facts_in_answer_fr_fact", "tool_choice")
    for half, figures in halves.items():
        print(
            f"{half}: " + ", ".join(f"{key} {figures[key]}" for key in keys if figures.get(key) is not None)
        )
    for row in rows:
        misses = [
            key
            for key in ("tool_choice_ok", "language_ok", "abstention_ok", "facts_ok")
            if row.get(key) is False
        ]
        if misses or "error" in row:
            print(
                row["id"], row.get("lang"), row.get("type"), "missed:", ", ".join(misses) or row.get("error")
            )
    save_result("agent_quality", {"summary": summary, "halves": halves, "rows": rows})


if __name__ == "__main__":
    main()
