"""The agent service that ask, chat and eval talk to, and how its answers are printed."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from agents.events import FinalAnswer
from agents.service import AgentService
from rag.config import RagSettings
from rag.lexicon.languages import SUPPORTED_LANGUAGES


def service_for(
    args: argparse.Namespace,
    errors: Console,
    languages: Sequence[str] | None = SUPPORTED_LANGUAGES,
    log_questions: bool = True,
) -> AgentService:
    """The service over ``--index`` (or the configured index), warmed up for ``languages``
    (:mod:`agents.runtime.warmup`; None: not warmed, the first question loads what it needs); says so when
    no LLM is configured. ``log_questions=False``: its turns stay out of the questions log."""
    rag_settings = RagSettings(index_dir=Path(args.index)) if args.index else RagSettings()
    service = AgentService(rag_settings=rag_settings, log_questions=log_questions)
    if languages is not None:
        service.warm_up(languages)
    if service.offline and not getattr(args, "json", False):
        errors.print(
            "[yellow]Using the built-in offline model[/] (extractive answers, no API key). "
            "Set MISTRAL_API_KEY or OPENAI_API_KEY in .env for a full LLM."
        )
    return service


def print_sources(final: FinalAnswer, console: Console) -> None:
    for citation in final.reply.citations:
        console.print(f"[dim][{citation.number}] {escape(citation.title)} — {escape(citation.page)}[/]")


def print_answer(final: FinalAnswer, trace: bool, console: Console) -> None:
    console.print(final.answer, markup=False)
    print_sources(final, console)
    if trace:
        for event in final.trace:
            console.print(json.dumps(event, ensure_ascii=False), style="dim", markup=False, highlight=False)
