"""Pure routers for the graph's conditional edges: they read state fields, never the trace."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from agents.graph.state import AgentState


def after_agent(state: AgentState) -> Literal["tools", "direct_reply"]:
    """Run the tools the model asked for, or take its reply as the answer."""
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else "direct_reply"


def after_collect(state: AgentState) -> Literal["gap_analysis", "synthesize"]:
    """Analyse knowledge-base evidence; weather or travel results alone go straight to the answer."""
    return "gap_analysis" if state.get("queries") else "synthesize"


def after_critique(state: AgentState, max_rounds: int) -> Literal["follow_up", "synthesize"]:
    """Another retrieval round only when evidence is insufficient, queries are proposed, rounds remain."""
    verdicts = state.get("critiques", [])
    sufficient = bool(verdicts) and verdicts[-1].sufficient
    if sufficient or not state.get("follow_ups") or state.get("round", 0) >= max_rounds:
        return "synthesize"
    return "follow_up"


def after_follow_up(state: AgentState) -> Literal["gap_analysis", "synthesize"]:
    """Nothing new was searched (every proposal was a near-duplicate): stop looping."""
    return "gap_analysis" if state.get("round_queries") else "synthesize"
