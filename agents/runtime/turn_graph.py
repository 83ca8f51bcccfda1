"""The compiled graph every door runs: the visitor page and the CLI (through ``AgentService``), the
evaluation, ``langgraph dev`` and Aegra (:mod:`agents.serving.served_graph`). Built from the same
parts (:mod:`agents.runtime.assembly`), it checks nothing a door must check before a turn starts
(:mod:`agents.runtime.admission`), answers, suggests follow-ups, closes a failed turn and, where the
questions log is kept, writes the turn there (:mod:`agents.runtime.record`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from agents.config import AgentSettings
from agents.graph.builder import build_graph
from agents.insights.recording import record_turn
from agents.insights.store import QuestionLog
from agents.runtime.assembly import AgentParts
from agents.runtime.record import RecordTurn, make_record


def question_recorder(settings: AgentSettings, log: QuestionLog | None) -> RecordTurn | None:
    """How a turn reaches the questions log ``log``, or None when there is none."""
    if log is None:
        return None
    url = settings.checkpoint_url
    return partial(record_turn, log, secret_url=url.get_secret_value() if url else None)


def turn_graph(parts: AgentParts, checkpointer: Any = None, recorder: RecordTurn | None = None) -> Any:
    """The compiled graph for ``parts``; with ``checkpointer``, its threads persist; with ``recorder``,
    each answered turn is logged (its id is the state's ``turn_id``)."""
    record = make_record(recorder, parts.model_name) if recorder is not None else None
    return build_graph(parts.deps, checkpointer, record_turn=record)
