"""``python -m rag search``: the passages for a question, or for each query read from stdin."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console

from rag.commands.options import settings_from
from rag.filters import SearchFilters
from rag.retriever import HybridRetriever, QueryError


def retriever_from(args: argparse.Namespace) -> HybridRetriever:
    """The retriever over the collections named by ``--collection`` (default: the configured one)."""
    collections = args.collection if args.command != "index" and args.collection else None
    return HybridRetriever(settings_from(args), collections=collections)


def _filters(args: argparse.Namespace) -> SearchFilters:
    return SearchFilters(
        categories=tuple(args.category or ()),
        source_prefix=args.source_prefix,
        languages=tuple(args.language or ()),
    )


def _hits_json(hits: list[Any]) -> list[dict[str, Any]]:
    """Search results as ``--json`` prints them: every field, scores rounded."""
    return [hit.rounded().model_dump(exclude={"number"}) for hit in hits]


def run(args: argparse.Namespace, console: Console, errors: Console) -> int:
    if args.question is not None and not args.question.strip():
        raise QueryError("The query is empty: type a question or a few keywords.")
    retriever = retriever_from(args)
    for name in retriever.incomplete:
        errors.print(
            f"[yellow]warning:[/] collection {name} is incomplete (an indexing run was interrupted): "
            "results may miss documents; rerun python -m rag index to finish it."
        )
    filters = _filters(args)
    if args.question is None:
        for line in sys.stdin:
            query = line.strip()
            if not query:
                continue
            hits = retriever.search(query, k=args.k, filters=filters)
            print(json.dumps({"query": query, "hits": _hits_json(hits)}, ensure_ascii=False))
        return 0
    hits = retriever.search(args.question, k=args.k, filters=filters)
    if args.json:
        print(json.dumps({"query": args.question, "hits": _hits_json(hits)}, ensure_ascii=False))
        return 0
    for rank, hit in enumerate(hits, 1):
        where = " > ".join(p for p in (hit.title, hit.headings) if p)
        console.rule(f"[{rank}] {where}")
        stages = ", ".join(f"{name} {value:.2f}" for name, value in hit.scores.items())
        console.print(f"[dim]{hit.source}  score {hit.score:.3f} ({stages})[/]", markup=True)
        console.print(hit.text, markup=False)
    return 0
