"""The value check as the answer step uses it: the answer's values against the turn's evidence."""

from __future__ import annotations

import json
from collections.abc import Sequence

from agents.answer.model import CheckedValue
from agents.answer.value_check import ValueCheck, check_values
from agents.tools.results import ToolOutcome
from rag.passage import Passage


def verify_values(
    text: str, evidence: Sequence[Passage], tool_results: Sequence[ToolOutcome], language: str
) -> ValueCheck:
    """Check every value ``text`` states (citations by evidence number) against what it cites."""
    passages = {p.number: p.text for p in evidence if p.number is not None}
    tools = [f"{o.summary}\n{json.dumps(o.result, ensure_ascii=False)}" for o in tool_results]
    return check_values(text, passages, tools, language)


def checked_values(check: ValueCheck) -> list[CheckedValue]:
    """The check's verdicts as the answer records them."""
    return [
        CheckedValue(
            text=verdict.value.text,
            kind=verdict.value.kind,
            verified=verdict.verified,
            cited=verdict.cited,
            found_in=verdict.found_in_passages,
            in_tool_result=verdict.found_in_tool,
        )
        for verdict in check.verdicts
    ]
