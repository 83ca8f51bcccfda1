"""``python -m agents ask``: answer one question, as text or as one JSON object."""

from __future__ import annotations

import argparse
import json
import uuid

from rich.console import Console

from agents.commands.answers import print_answer, service_for
from agents.evaluation.ask_json import ask_json
from agents.events import ErrorOccurred, FinalAnswer


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    service = service_for(args, errors, languages=None)  # one question: a warm-up would only add a turn
    result = service.ask(args.question, args.thread or f"cli-{uuid.uuid4().hex[:8]}")
    if isinstance(result, ErrorOccurred):
        errors.print(f"[red]error:[/] {result.message}")
        return 2
    assert isinstance(result, FinalAnswer)
    if args.json:
        print(json.dumps(ask_json(result), ensure_ascii=False))
    else:
        print_answer(result, args.trace, console)
    return 0
