"""Gap analysis and self-critique: what the evidence answers, and whether it is enough."""

from __future__ import annotations

import time
from typing import Any, TypeVar

from langchain_core.exceptions import OutputParserException
from langchain_core.messages import SystemMessage
from pydantic import BaseModel, ValidationError

from agents.graph.deps import AgentDeps
from agents.graph.gathered import Gathered, gathered_message
from agents.graph.prompts import language_name, render
from agents.graph.schemas import Critique, GapAnalysis
from agents.graph.state import AgentState
from agents.graph.trace import CritiqueStep, GapStep, elapsed_ms
from agents.models.llm import without_streaming
from agents.models.provider_errors import ProviderError
from rag.errors import error_sentence

Shape = TypeVar("Shape", bound=BaseModel)


def structured_reply(model: Any, messages: list[Any], schema: type[Shape], step: str) -> tuple[Shape, int]:
    """The model's answer in ``schema`` and the calls it took: a wrong shape (plain text, missing
    fields) is asked once more, then ends the turn with one sentence (the thread keeps the question)."""
    problem = ""
    for attempt in (1, 2):
        try:
            result = model.invoke(messages)
            return (result if isinstance(result, schema) else schema.model_validate(result)), attempt
        except (ValidationError, OutputParserException) as error:
            problem = error_sentence(error)
    raise ProviderError(
        f"The model answered the {step} step in an unreadable shape twice ({problem}): ask again, or "
        "choose a model that supports tool calling with AGENT_MODEL.",
        provider="model",
        kind="malformed",
    )


def make_gap_analysis(deps: AgentDeps) -> Any:
    """Node factory: one structured call listing answered and missing aspects and follow-ups."""
    model = without_streaming(deps.llm).with_structured_output(GapAnalysis)
    system = render("gap_analysis", kb_language=language_name(deps.kb_language))

    def gap_analysis(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        messages = [SystemMessage(system), gathered_message(Gathered.of(state))]
        analysis, calls = structured_reply(model, messages, GapAnalysis, "gap analysis")
        step = GapStep(
            ms=elapsed_ms(started), missing=analysis.missing, follow_up_queries=analysis.follow_up_queries
        )
        return {
            "gaps": analysis.missing,
            "follow_ups": analysis.follow_up_queries,
            "model_calls": calls,
            "trace": [step],
        }

    return gap_analysis


def make_self_critique(deps: AgentDeps) -> Any:
    """Node factory: a verdict on sufficiency; free when the gap analysis found nothing missing."""
    model = without_streaming(deps.llm).with_structured_output(Critique)
    system = render("self_critique")

    def self_critique(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        calls = 0
        if not state.get("gaps"):
            verdict = Critique(sufficient=True, reason="The gap analysis found no missing aspect.")
        else:
            messages = [SystemMessage(system), gathered_message(Gathered.of(state, missing=True))]
            verdict, used = structured_reply(model, messages, Critique, "self-critique")
            calls += used
        step = CritiqueStep(ms=elapsed_ms(started), sufficient=verdict.sufficient, reason=verdict.reason)
        return {"critiques": [verdict], "model_calls": calls, "trace": [step]}

    return self_critique
