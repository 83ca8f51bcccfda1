"""``python -m agents chat``: a conversation on stdin, each answer streamed as it is written."""

from __future__ import annotations

import argparse
import json
import sys
import uuid

from rich.console import Console

from agents.commands.answers import print_answer, print_sources, service_for
from agents.events import AnswerToken, ErrorOccurred, FinalAnswer, ToolCalled


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    service = service_for(args, errors)
    thread = args.thread or f"chat-{uuid.uuid4().hex[:8]}"
    console.print(f"Thread {thread}. Ask about your visit; an empty line quits.")
    for line in sys.stdin:
        question = line.strip()
        if not question:
            break
        streamed = False
        for event in service.stream(question, thread):
            if isinstance(event, ToolCalled) and args.trace:
                console.print(f"[dim]→ {event.tool} {json.dumps(event.args, ensure_ascii=False)}[/]")
            elif isinstance(event, AnswerToken):
                console.print(event.text, end="", markup=False)
                streamed = True
            elif isinstance(event, ErrorOccurred):
                errors.print(f"[red]error:[/] {event.message}")
            elif isinstance(event, FinalAnswer):
                if streamed:
                    console.print()
                    print_sources(event, console)
                else:
                    print_answer(event, args.trace, console)
    return 0
