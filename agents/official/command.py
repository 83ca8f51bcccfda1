"""``python -m agents official add|list|remove``: the official answers of the index the agent searches."""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from agents.official.store import OfficialAnswer, OfficialAnswerError, OfficialAnswers, add_official_answer
from rag.config import RagSettings


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: write it as YYYY-MM-DD") from error


def add_arguments(sub: argparse._SubParsersAction) -> None:
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


def run_official(args: argparse.Namespace, console: Console, errors: Console) -> int:
    settings = RagSettings(index_dir=Path(args.index)) if args.index else RagSettings()
    try:
        if args.action == "add":
            from rag.embeddings import build_embedder

            stored = add_official_answer(
                settings,
                build_embedder(settings).embed_queries,
                OfficialAnswer(
                    text=args.text,
                    source=args.source,
                    language=args.language,
                    question=args.question,
                    valid_from=args.valid_from,
                    valid_until=args.valid_until,
                ),
            )
            if stored.replaced:
                console.print(
                    f"Replaced official answer {stored.answer.id} (the same text, source and dates)."
                )
            else:
                console.print(f"Added official answer {stored.answer.id}")
        elif args.action == "list":
            for answer in OfficialAnswers.open(settings).all():
                print(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False))
        else:
            OfficialAnswers.open(settings).remove(args.id)
            console.print(f"Removed official answer {escape(args.id)}")
    except OfficialAnswerError as error:
        errors.print(f"[red]error:[/] {escape(str(error))}")
        return 2
    return 0
