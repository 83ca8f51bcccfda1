"""The graph's state: one conversation thread, checkpointed per thread id.

Per-turn fields declare how a node's update merges (a reducer), so a node returns only what it
adds; ``turn_start`` overwrites them when a new question arrives.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage, HumanMessage, ToolMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the served schemas)

from agents.answer.model import Answer, CheckedValue, Citation
from agents.graph.evidence import add_passages
from agents.graph.schemas import Critique
from agents.graph.trace import (
    AgentStep,
    AnswerStep,
    CollectStep,
    CritiqueStep,
    FollowUpStep,
    GapStep,
    PrepareStep,
    ToolCallRecord,
    ToolSummary,
    TraceStep,
)
from agents.tools.knowledge_base import KnowledgeBaseResult
from agents.tools.results import ToolOutcome
from rag.passage import Passage


class TurnFailure(TypedDict):
    """Why a turn ended without an answer: its kind (the pages word it) and one sentence."""

    kind: Literal["provider", "knowledge_base", "other"]
    message: str


class AgentState(TypedDict, total=False):
    """Everything a turn reads and writes."""

    messages: Annotated[list[AnyMessage], add_messages]
    language: str  # reply language (ISO 639-1)
    queries: Annotated[list[str], operator.add]  # every knowledge-base query run this turn
    evidence: Annotated[list[Passage], add_passages]  # numbered from 1 as passages join; stable
    tool_results: Annotated[list[ToolOutcome], operator.add]  # weather / travel results this turn
    gaps: list[str]  # aspects the evidence does not answer yet
    follow_ups: list[str]  # queries proposed by gap analysis, not yet run
    critiques: Annotated[list[Critique], operator.add]  # verdicts of self-critique
    round: Annotated[int, operator.add]  # retrieval rounds done this turn
    round_queries: list[str]  # the queries the last follow-up round ran (none: the loop ends)
    trace: Annotated[list[TraceStep], operator.add]  # what each node did, for the operator
    model_calls: Annotated[int, operator.add]  # LLM calls this turn
    reply: Answer  # the turn's answer
    started_at: float  # when the turn began (epoch seconds): the questions log's latency
    turn_id: str  # the turn's row in the questions log, for the visitor's feedback ("" when not logged)
    suggestions: list[str]  # questions to suggest next, in the reply language
    failure: TurnFailure | None  # set when a node failed: the turn has no answer


class TurnInput(TypedDict):
    """What a door sends a turn: the visitor's new message. Nothing else of the state can be set
    from outside (a served run's input cannot plant evidence, a reply or a turn id)."""

    messages: Annotated[list[AnyMessage], add_messages]


class TurnOutput(TypedDict, total=False):
    """What a run returns: the conversation, the typed reply and its language, the questions to
    suggest, the turn's row in the questions log, and the failure of a turn that has no answer.
    The rest of the state (evidence, trace, counters) is read from the thread's state."""

    messages: Annotated[list[AnyMessage], add_messages]
    reply: Answer
    language: str
    suggestions: list[str]
    turn_id: str
    failure: TurnFailure | None


def turn_start(step: PrepareStep, started_at: float) -> dict[str, Any]:
    """The update that starts a turn: every per-turn field emptied, the trace begun with ``step``."""
    return {
        "started_at": started_at,
        "turn_id": "",
        "suggestions": [],
        "failure": None,
        "queries": Overwrite([]),
        "evidence": Overwrite([]),
        "tool_results": Overwrite([]),
        "gaps": [],
        "follow_ups": [],
        "critiques": Overwrite([]),
        "round": Overwrite(0),
        "round_queries": [],
        "trace": Overwrite([step]),
        "model_calls": Overwrite(0),
        "reply": Answer(),
    }


def visitor_messages(messages: list[AnyMessage]) -> list[str]:
    """The visitor's messages of the conversation, oldest first: what every model reads the turn from."""
    return [message.text for message in messages if isinstance(message, HumanMessage)]


def spent_artifacts(messages: list[AnyMessage]) -> list[AnyMessage]:
    """Earlier turns' tool messages without their artifact, to replace them (same ids): the typed
    passages are read in their own turn only, and the model still sees the content. Every
    checkpoint holds the whole history, so this halves what a knowledge-base turn leaves behind."""
    return [
        message.model_copy(update={"artifact": None})
        for message in messages
        if isinstance(message, ToolMessage) and message.artifact is not None and message.id
    ]


# A thread stored while the state held the offline model's reading of the turn (a request and its
# slots, by their former module): read back as plain data, it is left out of the next checkpoint.
EARLIER_TYPES = [
    ("agents.reading.request", name)
    for name in ("TurnRequest", "WeatherSlots", "TravelSlots", "KnowledgeBaseSlots")
]
# The types a checkpoint may hold besides LangChain's own: the serializer is told to read them back.
STATE_TYPES = EARLIER_TYPES + [
    (cls.__module__, cls.__name__)
    for cls in (
        Passage,
        Answer,
        Citation,
        CheckedValue,
        Critique,
        ToolOutcome,
        KnowledgeBaseResult,
        PrepareStep,
        AgentStep,
        ToolCallRecord,
        CollectStep,
        ToolSummary,
        GapStep,
        CritiqueStep,
        FollowUpStep,
        AnswerStep,
    )
]
