"""``python -m agents eval``: run a question file through the agent, one record per question."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from agents.commands.answers import service_for
from agents.evaluation.eval_questions import read_questions
from agents.evaluation.evaluate import evaluate_each, summarise


def default_eval_out(questions: Path) -> Path:
    """Where ``eval`` writes its records without ``--out``: beside the conversations, git-ignored."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(".agent_state") / "eval" / f"{questions.stem}-{stamp}.jsonl"


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    """Each record is written (and flushed) as soon as its question is answered: a failure or a
    Ctrl-C keeps every answer so far. Bad lines are reported by number and skipped."""
    questions, skipped = read_questions(Path(args.questions), args.max_questions)
    for line in skipped:
        errors.print(f"[yellow]line {line.number} skipped:[/] {escape(line.reason)}")
    out = Path(args.out) if args.out else default_eval_out(Path(args.questions))
    out.parent.mkdir(parents=True, exist_ok=True)
    service = service_for(args, errors, log_questions=False)  # evaluation questions are not visitors'
    rows: list[dict[str, Any]] = []
    try:
        with out.open("w", encoding="utf-8") as handle:
            for row in evaluate_each(questions, service.ask):
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                handle.flush()
                rows.append(row)
    finally:
        if len(rows) < len(questions):
            errors.print(
                f"Stopped after {len(rows)} of {len(questions)} questions; their records are in {out}."
            )
    console.print_json(json.dumps({**summarise(rows), "skipped_lines": len(skipped), "out": str(out)}))
    return 0
