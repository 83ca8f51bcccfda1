"""The compiled graph every door runs: the visitor page and the CLI (through ``AgentService``), the
evaluation, ``langgraph dev`` and Aegra (:mod:`agents.serving.served_graph`). Built from the same
parts (:mod:`agents.runtime.assembly`), it checks nothing a door must check before a turn starts
(:mod:`agents.runtime.admission`), answers, suggests follow-ups, closes a failed turn and, where the
questions log is kept, writes the turn there (:mod:`agents.runtime.record`).

A turn is saved once, when it ends (LangGraph's ``durability="exit"``): a page shows a thread's latest
turn and only its latest checkpoints are kept, so a checkpoint after each of the turn's ten steps
would be written for nothing (about 20 writes a turn on Aegra's PostgreSQL; 17-22 ms of a 60-80 ms
offline turn on SQLite). A turn that fails in a node is closed and saved too; a turn whose process
dies leaves the thread as it was before the question. A durability passed to a run (``langgraph
dev`` takes it from each run request) wins over this one."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph._internal._constants import CONFIG_KEY_DURABILITY

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
    graph = build_graph(parts.deps, checkpointer, record_turn=record)
    # LangGraph reads a run's default durability from this key (a compiled graph has no public setting).
    return graph.with_config(configurable={CONFIG_KEY_DURABILITY: "exit"})
