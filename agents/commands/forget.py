"""``python -m agents forget THREAD``: erase one conversation on a visitor's request."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape

from agents.config import AgentSettings
from agents.insights.inert import inert_text
from agents.runtime.erasure import forget_conversation


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    """Erase one conversation on a visitor's request: its checkpoints, Aegra's rows, logged turns and
    feedback."""
    thread = args.thread.strip()
    if not thread:
        errors.print("[red]error:[/] give the conversation id (the web page shows it in its address).")
        return 2
    erased = forget_conversation(AgentSettings(), thread)
    shown = escape(inert_text(thread))
    if not erased.anything:
        console.print(f"Nothing is kept about conversation {shown} in {erased.store}.")
        return 0
    served = f"the served thread and its {erased.server_runs} runs, " if erased.server_threads else ""
    console.print(
        f"Erased conversation {shown} from {erased.store}: {erased.checkpoints} checkpoints, {served}"
        f"{erased.logged_turns} logged questions ({erased.feedback} with feedback)."
    )
    return 0
