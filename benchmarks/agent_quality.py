"""The agent on the development questions: tool choice, language, citations, abstention, facts.

Usage: python -m benchmarks.agent_quality [--index DIR] [--questions FILE]
(index built by retrieval_quality; questions: the shared development set, or data/eval/scope.jsonl,
which has the same fields). Headline precision: among answers showing a bold headline value, the
share whose every headline line holds one of the question's answer aspects, as text or as values
read by the value check (agents/evaluation/evaluate.headline_right).
Uses the configured provider: the built-in offline model when no API key is set. The weather and
travel tools stay offline (climate normals, distance estimates) unless TOOLS_OFFLINE is set
otherwise, so that the figures do not depend on the network.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from agents.evaluation.evaluate import breakdown, evaluate, summarise
from benchmarks._common import BENCH_INDEX, QUESTIONS, half_of, offline_service, save_result
from rag.evaluate import read_jsonl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(args.index, Path(folder))
        rows = evaluate(read_jsonl(args.questions), service.ask)
    summary = summarise(rows)
    summary["model"] = service.model_name
    by_half = {half: [r for r in rows if half_of(r["id"]) == half] for half in ("tune", "check")}
    halves = {half: summarise(subset) for half, subset in by_half.items()}
    print(json.dumps(summary, indent=2))
    keys = (
        "facts_in_answer_fr_fact", "facts_in_answer_fact", "facts_in_answer_fact_values",
        "facts_in_answer_multi", "abstention_out_of_scope",
        "facts_in_answer_date", "fact_questions_abstained", "headline_precision", "headlines_shown",
        "headlines_right", "headlines_out_of_scope", "citation_validity", "language",
        "tool_choice", "seconds_p50", "graph_overhead_ms_p50",
    )  # fmt: skip
    print(f"{'':26}" + "".join(f"{half:>8}" for half in halves))
    for key in keys:
        print(f"{key:26}" + "".join(f"{figures.get(key)!s:>8}" for figures in halves.values()))
    tables = {half: {k: breakdown(subset, k) for k in ("type", "lang")} for half, subset in by_half.items()}
    for key in ("type", "lang"):
        print(
            f"\nby {key} (facts in answer / out-of-scope abstention / tool choice / language), tune | check"
        )
        for value in sorted({str(r.get(key)) for r in rows}):
            cells = []
            for half in halves:
                row = tables[half][key].get(value)
                cells.append(
                    "   -   " if row is None else
                    f"n={row['questions']} {row['facts_in_answer']}/{row['abstention_out_of_scope']}"
                    f"/{row['tool_choice']}/{row['language']}"
                )  # fmt: skip
            print(f"  {value:14}" + " | ".join(f"{cell:34}" for cell in cells))
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
    name = "agent_quality" if args.questions == QUESTIONS else f"agent_quality_{args.questions.stem}"
    save_result(name, {"summary": summary, "halves": halves, "breakdown": tables, "rows": rows})


if __name__ == "__main__":
    main()
