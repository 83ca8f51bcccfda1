"""The turn's evidence (pure): passages numbered once as they join, and tool messages read as data."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import ToolMessage

from agents.tool_results import ToolOutcome
from agents.tools.knowledge_base import KnowledgeBaseResult, render_evidence
from rag.passage import Passage


def add_passages(current: Sequence[Passage | dict[str, Any]], new: Sequence[Passage]) -> list[Passage]:
    """The state's reducer: new passages (by chunk id) are numbered after the existing ones, once;
    old numbers never move. Passages stored as dicts by earlier versions are read back as passages."""
    merged = [p if isinstance(p, Passage) else Passage.model_validate(p) for p in current]
    seen = {passage.chunk_id for passage in merged}
    for passage in new:
        if passage.chunk_id in seen:
            continue
        seen.add(passage.chunk_id)
        merged.append(passage.model_copy(update={"number": len(merged) + 1}))
    return merged


def rendered(evidence: Sequence[Passage]) -> str:
    """The evidence block for a prompt."""
    return render_evidence(evidence)


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


def tool_outcome(message: ToolMessage, args: dict[str, Any]) -> ToolOutcome:
    """A weather or travel tool's message as the state keeps it; an error text becomes an error."""
    content = str(message.content)
    result = parse_tool_result(content) or {"status": "error", "summary": content}
    return ToolOutcome(
        tool=str(message.name),
        args=args,
        status=str(result.get("status", "ok")),
        summary=str(result.get("summary", "")),
        result=result,
    )


def tool_passages(outcome: ToolOutcome) -> list[Passage]:
    """The passages a tool result cites its values from (the visit facts' sources), if any."""
    found = outcome.result.get("passages") if outcome.status == "ok" else None
    passages = []
    for item in found if isinstance(found, list) else []:
        try:
            passages.append(Passage.model_validate(item))
        except ValueError:
            continue
    return passages


def cited_by_number(record: dict[str, Any], numbers: dict[str, int]) -> dict[str, Any]:
    """A tool record whose lines' ``cites`` (chunk ids) become the evidence numbers a model cites."""
    lines = {
        key: [
            {**line, "cites": [numbers[c] for c in line.get("cites", []) if c in numbers]}
            if isinstance(line, dict) else line
            for line in value
        ]
        for key in ("days", "facts")
        if isinstance(value := record.get(key), list)
    }  # fmt: skip
    return {**record, **lines}
