"""``python -m rag eval``: retrieval quality on a question file."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rag.commands.search import retriever_from
from rag.evaluate import evaluate, read_jsonl, summarise


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    retriever = retriever_from(args)
    questions = read_jsonl(Path(args.questions))
    queries = None
    if args.queries:
        queries = {row["id"]: row["queries"] for row in read_jsonl(Path(args.queries))}
    results = evaluate(questions, lambda q, k: retriever.search(q, k=k), k=args.k, agent_queries=queries)
    summary = summarise(results)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result.__dict__, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    table = Table("group", "n", "all-aspects hit", "aspect recall", "MRR", "mean chars")
    for name, row in summary.items():
        table.add_row(
            name, str(row["n"]), f"{row['all_aspects_hit']:.3f}", f"{row['aspect_recall']:.3f}",
            f"{row['mrr']:.3f}", f"{row['mean_chars']:.0f}",
        )  # fmt: skip
    console.print(table)
    return 0
