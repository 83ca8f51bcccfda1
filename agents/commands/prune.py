"""``python -m agents prune``: apply the retentions (a cron job may run it)."""

from __future__ import annotations

import argparse

from rich.console import Console

from agents.config import AgentSettings
from agents.runtime.erasure import prune


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    """Apply the retentions: old conversations and old logged questions (a cron job may run it)."""
    if args.days is not None and args.days <= 0:
        errors.print("[red]error:[/] --days must be more than 0 (a number of days, e.g. 90).")
        return 2
    pruned = prune(AgentSettings(), args.days)
    if pruned.conversations is None:
        console.print(
            "Conversations are kept (AGENT_CONVERSATION_RETENTION_DAYS=0): pass --days N to delete some."
        )
    else:
        served = f", and {pruned.server_threads} of the served API's (Aegra)" if pruned.server_threads else ""
        console.print(
            f"Deleted {pruned.conversations} conversations older than {pruned.conversation_days:g} days "
            f"from {pruned.store}{served}."
        )
    console.print(
        f"Deleted {pruned.questions} logged questions older than {pruned.question_days} days "
        "(AGENT_QUESTIONS_RETENTION_DAYS)."
    )
    return 0
