"""The flat record of ``python -m agents ask --json`` and of evaluation rows, laid out at the edge:
views of the typed answer beside what the turn measured, in the documented order."""

from __future__ import annotations

from typing import Any

from agents.answer.model import Answer
from agents.events import FinalAnswer


def sources(reply: Answer) -> list[dict[str, Any]]:
    """One entry per cited source: the number shown, its title and the page a reader opens."""
    return [{"number": c.number, "title": c.title, "url": c.page} for c in reply.citations]


def cited_evidence(reply: Answer) -> list[dict[str, Any]]:
    """The cited passages, in citation order: number, title, headings, url and text."""
    return [
        {
            "number": passage.number,
            "cited_as": citation.number,
            "title": passage.title,
            "headings": passage.headings,
            "url": passage.page,
            "text": passage.text,
            "chunk_id": passage.chunk_id,
        }
        for citation, passage in reply.cited_passages()
    ]


def ask_json(final: FinalAnswer) -> dict[str, Any]:
    """The turn as one JSON object (README, "--json"): the answer's views first, then the turn's
    figures, then the typed answer itself."""
    reply = final.reply
    return {
        "answer": reply.text,
        "language": final.language,
        "tools": final.tools,
        "citations": final.citations,
        "sources": sources(reply),
        "abstained": reply.abstained,
        "kind": reply.kind,
        "model_calls": final.model_calls,
        "seconds": final.seconds,
        "graph_overhead_ms": final.graph_overhead_ms,
        "offline_model": final.offline_model,
        "trace": final.trace,
        "evidence": cited_evidence(reply),
        "passage_numbers": final.passage_numbers,
        "reply": reply.model_dump(),
        "follow_ups": final.follow_ups,
        "input_tokens": final.input_tokens,
        "output_tokens": final.output_tokens,
        "turn_id": final.turn_id,
    }
