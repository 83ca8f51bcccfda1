"""The turn's evidence (pure): passages numbered once as they join, and tool messages read as data
(their artifact: the typed result the tool returned; the model reads the JSON content)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from pydantic import BaseModel

from agents.tools.knowledge_base import KnowledgeBaseResult, render_evidence
from agents.tools.results import ToolOutcome
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


def knowledge_base_result(message: ToolMessage) -> KnowledgeBaseResult | None:
    """The knowledge-base tool's result, read from its artifact (a dict when read back from a
    checkpoint), or None when the tool failed with an error text and left no artifact."""
    artifact = message.artifact
    if isinstance(artifact, KnowledgeBaseResult):
        return artifact
    if not isinstance(artifact, dict):
        return None
    try:
        return KnowledgeBaseResult.model_validate(artifact)
    except ValueError:
        return None


def tool_outcome(message: ToolMessage, args: dict[str, Any]) -> ToolOutcome:
    """A weather, travel or calendar tool's message as the state keeps it, read from its artifact
    (a dict when read back from a checkpoint); a tool that failed left only an error text."""
    artifact = message.artifact
    if isinstance(artifact, BaseModel):
        result = artifact.model_dump(mode="json", exclude_none=True)
    elif isinstance(artifact, dict):
        result = artifact
    else:
        result = {"status": "error", "summary": str(message.content)}
    return ToolOutcome(
        tool=str(message.name),
        args=args,
        status=str(result.get("status", "ok")),
        summary=str(result.get("summary", "")),
        result=result,
    )


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
