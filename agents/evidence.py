"""Evidence bookkeeping (pure): stable numbering across rounds, and tool-result parsing."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.messages import ToolMessage

from agents.tools.knowledge_base import EvidenceItem, KnowledgeBaseResult, render_evidence


def merge_evidence(evidence: Sequence[dict[str, Any]], items: Iterable[EvidenceItem]) -> list[dict[str, Any]]:
    """Append new passages (by chunk id) numbered after the existing ones; old numbers never move."""
    merged = list(evidence)
    seen = {entry["chunk_id"] for entry in merged}
    for item in items:
        if item.chunk_id in seen:
            continue
        seen.add(item.chunk_id)
        merged.append({"number": len(merged) + 1, **item.model_dump()})
    return merged


def rendered(evidence: Sequence[dict[str, Any]]) -> str:
    """The evidence block for a prompt."""
    return render_evidence(
        [
            (entry["number"], EvidenceItem(**{k: v for k, v in entry.items() if k != "number"}))
            for entry in evidence
        ]
    )


def parse_tool_result(content: str) -> dict[str, Any] | None:
    """A tool's JSON result as a dict, or None when it is not JSON (an error text, say)."""
    try:
        value = json.loads(content)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def knowledge_base_result(message: ToolMessage) -> KnowledgeBaseResult | None:
    """The knowledge-base tool's result (its artifact; the JSON content for messages stored before
    the artifact existed), or None when the tool failed with an error text."""
    value = (
        message.artifact if isinstance(message.artifact, dict) else parse_tool_result(str(message.content))
    )
    if value is None or "hits" not in value:
        return None
    try:
        return KnowledgeBaseResult.model_validate(value)
    except ValueError:
        return None
