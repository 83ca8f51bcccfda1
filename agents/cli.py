"""``python -m agents``: ask, chat, eval, insights, official, prune and forget; it renders what the
service and the stores return, and nothing else."""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from agents.eval_questions import DEFAULT_MAX_QUESTIONS

console = Console()
errors = Console(stderr=True)


def _service(args: argparse.Namespace) -> Any:
    from agents.service import AgentService
    from rag.config import RagSettings

    rag_settings = RagSettings(index_dir=Path(args.index)) if args.index else RagSettings()
    service = AgentService(rag_settings=rag_settings)
    if service.offline and not getattr(args, "json", False):
        errors.print(
            "[yellow]Using the built-in offline model[/] (extractive answers, no API key). "
            "Set MISTRAL_API_KEY or OPENAI_API_KEY in .env for a full LLM."
        )
    return service


def _print_sources(final: Any) -> None:
    for citation in final.reply.citations:
        console.print(f"[dim][{citation.number}] {escape(citation.title)} — {escape(citation.page)}[/]")


def _print_answer(final: Any, trace: bool) -> None:
    console.print(final.answer, markup=False)
    _print_sources(final)
    if trace:
        for event in final.trace:
            console.print(json.dumps(event, ensure_ascii=False), style="dim", markup=False, highlight=False)


def cmd_ask(args: argparse.Namespace) -> int:
    from agents.ask_json import ask_json
    from agents.events import ErrorOccurred, FinalAnswer

    service = _service(args)
    result = service.ask(args.question, args.thread or f"cli-{uuid.uuid4().hex[:8]}")
    if isinstance(result, ErrorOccurred):
        errors.print(f"[red]error:[/] {result.message}")
        return 2
    assert isinstance(result, FinalAnswer)
    if args.json:
        print(json.dumps(ask_json(result), ensure_ascii=False))
    else:
        _print_answer(result, args.trace)
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from agents.events import AnswerToken, ErrorOccurred, FinalAnswer, ToolCalled

    service = _service(args)
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
                    _print_sources(event)
                else:
                    _print_answer(event, args.trace)
    return 0


def default_eval_out(questions: Path) -> Path:
    """Where ``eval`` writes its records without ``--out``: beside the conversations, git-ignored."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(".agent_state") / "eval" / f"{questions.stem}-{stamp}.jsonl"


def cmd_eval(args: argparse.Namespace) -> int:
    """Each record is written (and flushed) as soon as its question is answered: a failure or a
    Ctrl-C keeps every answer so far. Bad lines are reported by number and skipped."""
    from agents.eval_questions import read_questions
    from agents.evaluate import evaluate_each, summarise

    questions, skipped = read_questions(Path(args.questions), args.max_questions)
    for line in skipped:
        errors.print(f"[yellow]line {line.number} skipped:[/] {escape(line.reason)}")
    out = Path(args.out) if args.out else default_eval_out(Path(args.questions))
    out.parent.mkdir(parents=True, exist_ok=True)
    service = _service(args)
    service.questions = None  # evaluation questions are not visitors': they stay out of the insights
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


def cmd_insights(args: argparse.Namespace) -> int:
    """What visitors asked in the last days and what failed, from the conversations' database."""
    from agents.insights.command import run_insights

    return run_insights(args, console, errors)


def cmd_official(args: argparse.Namespace) -> int:
    """Add, list or remove the official answers of the index the agent searches."""
    from agents.official.command import run_official

    return run_official(args, console, errors)


def cmd_prune(args: argparse.Namespace) -> int:
    """Apply the retentions: old conversations and old logged questions (a cron job may run it)."""
    from agents.config import AgentSettings
    from agents.erasure import prune

    if args.days is not None and args.days <= 0:
        errors.print("[red]error:[/] --days must be more than 0 (a number of days, e.g. 90).")
        return 2
    pruned = prune(AgentSettings(), args.days)
    if pruned.conversations is None:
        console.print(
            "Conversations are kept (AGENT_CONVERSATION_RETENTION_DAYS=0): pass --days N to delete some."
        )
    else:
        console.print(
            f"Deleted {pruned.conversations} conversations older than {pruned.conversation_days:g} days "
            f"from {pruned.store}."
        )
    console.print(
        f"Deleted {pruned.questions} logged questions older than {pruned.question_days} days "
        "(AGENT_QUESTIONS_RETENTION_DAYS)."
    )
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    """Erase one conversation on a visitor's request: its checkpoints, Aegra's rows, logged turns and
    feedback."""
    from agents.config import AgentSettings
    from agents.erasure import forget_conversation
    from agents.insights.inert import inert_text

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
    ask.set_defaults(handler=cmd_ask)
    chat = sub.add_parser("chat", help="a conversation on stdin")
    chat.add_argument("--thread")
    chat.add_argument("--index")
    chat.add_argument("--trace", action="store_true")
    chat.set_defaults(handler=cmd_chat)
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
    ev.set_defaults(handler=cmd_eval)
    ins = sub.add_parser("insights", help="what visitors ask, grouped by meaning, and the content gaps")
    ins.add_argument("--days", type=int, default=30, help="the last N days (default 30)")
    ins.add_argument("--index", help="knowledge-base index folder (for the pages closest to each gap)")
    ins.add_argument("--json", action="store_true", help="print one JSON object")
    ins.add_argument("--csv", metavar="DIR", help="also write questions.csv and groups.csv into DIR")
    ins.add_argument(
        "--stale-days", type=int, default=30, help="list cited pages not re-checked for N days (default 30)"
    )
    ins.set_defaults(handler=cmd_insights)
    from agents.official.command import add_arguments

    add_arguments(sub)
    sub.choices["official"].set_defaults(handler=cmd_official)

    prune = sub.add_parser(
        "prune",
        help="delete conversations older than AGENT_CONVERSATION_RETENTION_DAYS and logged questions "
        "older than AGENT_QUESTIONS_RETENTION_DAYS",
    )
    prune.add_argument("--days", type=float, help="this conversation retention instead of the setting's")
    prune.set_defaults(handler=cmd_prune)
    forget = sub.add_parser(
        "forget",
        help="erase one conversation (checkpoints, served thread and runs, logged questions) on request",
    )
    forget.add_argument("thread", help="the conversation id")
    forget.set_defaults(handler=cmd_forget)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; configuration and index errors print one line and exit 2."""
    import logging

    from rag.errors import USER_ERRORS, error_sentence

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        errors.print(f"[red]error:[/] {escape(error_sentence(error))}")
        return 2
