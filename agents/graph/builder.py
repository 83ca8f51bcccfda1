"""The LangGraph state machine: wiring only; behaviour lives in nodes/ and routing.py."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import ToolInvocationError

from agents.graph import routing
from agents.graph.deps import AgentDeps
from agents.graph.nodes.agent import make_agent
from agents.graph.nodes.assess import make_gap_analysis, make_self_critique
from agents.graph.nodes.collect import collect
from agents.graph.nodes.failed_turn import close_failed_turn
from agents.graph.nodes.follow_up import make_follow_up
from agents.graph.nodes.prepare import prepare
from agents.graph.nodes.synthesize import direct_reply, make_synthesize
from agents.graph.state import AgentState, TurnInput, TurnOutput


def tool_error_message(error: Exception) -> str:
    """A failing tool becomes one short sentence the model can act on (LangGraph re-raises by
    default); never the exception's text, which holds the arguments and may be repeated to a visitor."""
    if isinstance(error, ToolInvocationError):
        names = {str(e["loc"][0]) for e in error.filtered_errors or [] if e.get("loc")}
        fields = sorted(name for name in names if name.isidentifier() and len(name) <= 40)
        named = f" ({', '.join(fields)})" if fields else ""
        return (
            f"Error: the arguments of {error.tool_name} were not valid{named}. "
            "Call it again with the arguments its description asks for."
        )
    return "Error: the tool failed. Try another query or another tool."


def build_graph(deps: AgentDeps, checkpointer: Any = None, record_turn: Any = None) -> Any:
    """Compile the agent graph for ``deps``; with a checkpointer, threads persist. An answered turn
    ends with ``record_turn`` (a node writing the questions log), when given; a node that raises
    closes the turn (:mod:`agents.graph.nodes.failed_turn`)."""
    graph = StateGraph(AgentState, input_schema=TurnInput, output_schema=TurnOutput)
    on_failure: Any = close_failed_turn  # LangGraph's types do not know a handler's error argument
    graph.set_node_defaults(error_handler=on_failure)
    graph.add_node("prepare", prepare)
    graph.add_node("agent", make_agent(deps))
    graph.add_node("tools", ToolNode(deps.tools, handle_tool_errors=tool_error_message))
    graph.add_node("collect", collect)
    graph.add_node("gap_analysis", make_gap_analysis(deps))
    graph.add_node("self_critique", make_self_critique(deps))
    graph.add_node("follow_up", make_follow_up(deps))
    graph.add_node("synthesize", make_synthesize(deps))
    graph.add_node("direct_reply", direct_reply)

    graph.add_edge(START, "prepare")
    graph.add_edge("prepare", "agent")
    graph.add_conditional_edges("agent", routing.after_agent)
    graph.add_edge("tools", "collect")
    graph.add_conditional_edges("collect", routing.after_collect)
    graph.add_edge("gap_analysis", "self_critique")
    graph.add_conditional_edges(
        "self_critique",
        partial(routing.after_critique, max_rounds=deps.max_rounds),
        ["follow_up", "synthesize"],
    )
    graph.add_conditional_edges("follow_up", routing.after_follow_up)
    last = "record_turn" if record_turn is not None else END
    if record_turn is not None:
        graph.add_node("record_turn", record_turn)
        graph.add_edge("record_turn", END)
    graph.add_edge("synthesize", last)
    graph.add_edge("direct_reply", last)
    return graph.compile(checkpointer=checkpointer)
