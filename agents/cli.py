"""``python -m agents``: ask, chat, eval, insights, official, prune and forget; it renders what the
service and the stores return, and nothing else."""

from __future__ import annotations

import argparse
import importlib
import logging
from collections.abc import Callable
from datetime import date

from rich.console import Console
from rich.markup import escape

from agents.evaluation.eval_questions import DEFAULT_MAX_QUESTIONS
from rag.errors import USER_ERRORS, error_sentence

console = Console()
errors = Console(stderr=True)

# Each sub-command's module, imported only when that sub-command runs: the parser alone answers
# --help and argument errors, without loading the agent, Chroma or the stores.
COMMANDS = {
    "ask": "agents.commands.ask",
    "chat": "agents.commands.chat",
    "eval": "agents.commands.eval",
    "insights": "agents.insights.command",
    "official": "agents.official.command",
    "prune": "agents.commands.prune",
    "forget": "agents.commands.forget",
}


def _command(name: str) -> Callable[[argparse.Namespace], int]:
    """The handler of sub-command ``name``: its module's ``run``, with this module's consoles."""

    def handler(args: argparse.Namespace) -> int:
        return int(importlib.import_module(COMMANDS[name]).run(args, console, errors))

    return handler


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: write it as YYYY-MM-DD") from error


def _add_official(sub: argparse._SubParsersAction) -> None:
    """The ``official`` sub-command and its actions."""
    official = sub.add_parser("official", help="official answers, searched before the knowledge base")
    official.add_argument("--index", help="knowledge-base index folder (default RAG_INDEX_DIR)")
    actions = official.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add an official answer")
    add.add_argument("--text", required=True, help="the answer, in one language")
    add.add_argument("--source", required=True, help="the page it comes from (URL)")
    add.add_argument("--language", default="", help="its language (en, fr…)")
    add.add_argument("--question", default="", help="the visitors' question it answers (default: the text)")
    add.add_argument("--valid-from", type=_date, help="first day it holds (YYYY-MM-DD)")
    add.add_argument("--valid-until", type=_date, help="last day it holds (YYYY-MM-DD); never used after")
    actions.add_parser("list", help="list the official answers")
    remove = actions.add_parser("remove", help="remove an official answer and its chunk")
    remove.add_argument("id")
    official.set_defaults(handler=_command("official"))


def build_parser() -> argparse.ArgumentParser:
    """Argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="python -m agents", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="answer one question")
    ask.add_argument("question")
    ask.add_argument("--thread", help="conversation id (default: a new one)")
    ask.add_argument("--index", help="knowledge-base index folder")
    ask.add_argument("--trace", action="store_true", help="print what the agent did")
    ask.add_argument("--json", action="store_true", help="print one JSON object")
    ask.set_defaults(handler=_command("ask"))
    chat = sub.add_parser("chat", help="a conversation on stdin")
    chat.add_argument("--thread")
    chat.add_argument("--index")
    chat.add_argument("--trace", action="store_true")
    chat.set_defaults(handler=_command("chat"))
    ev = sub.add_parser("eval", help="run a question file through the agent")
    ev.add_argument("--questions", required=True)
    ev.add_argument("--index")
    ev.add_argument(
        "--out", help="one JSON line per question, written as each is answered (default: .agent_state/eval/)"
    )
    ev.add_argument(
        "--max-questions",
        type=int,
        default=DEFAULT_MAX_QUESTIONS,
        help=f"refuse a file with more questions (default {DEFAULT_MAX_QUESTIONS})",
    )
    ev.set_defaults(handler=_command("eval"))
    ins = sub.add_parser("insights", help="what visitors ask, grouped by meaning, and the content gaps")
    ins.add_argument("--days", type=int, default=30, help="the last N days (default 30)")
    ins.add_argument("--index", help="knowledge-base index folder (for the pages closest to each gap)")
    ins.add_argument("--json", action="store_true", help="print one JSON object")
    ins.add_argument("--csv", metavar="DIR", help="also write questions.csv and groups.csv into DIR")
    ins.add_argument(
        "--stale-days", type=int, default=30, help="list cited pages not re-checked for N days (default 30)"
    )
    ins.set_defaults(handler=_command("insights"))
    _add_official(sub)

    prune = sub.add_parser(
        "prune",
        help="delete conversations older than AGENT_CONVERSATION_RETENTION_DAYS and logged questions "
        "older than AGENT_QUESTIONS_RETENTION_DAYS",
    )
    prune.add_argument("--days", type=float, help="this conversation retention instead of the setting's")
    prune.set_defaults(handler=_command("prune"))
    forget = sub.add_parser(
        "forget",
        help="erase one conversation (checkpoints, served thread and runs, logged questions) on request",
    )
    forget.add_argument("thread", help="the conversation id")
    forget.set_defaults(handler=_command("forget"))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; configuration and index errors print one line and exit 2."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        errors.print(f"[red]error:[/] {escape(error_sentence(error))}")
        return 2
