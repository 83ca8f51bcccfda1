"""``python -m agents official add|list|remove``: the official answers of the index the agent searches."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from agents.official.store import OfficialAnswer, OfficialAnswerError, OfficialAnswers, add_official_answer
from rag.config import RagSettings
from rag.embeddings import build_embedder


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    settings = RagSettings(index_dir=Path(args.index)) if args.index else RagSettings()
    try:
        if args.action == "add":
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
