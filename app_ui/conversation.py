"""A turn answered live, for both pages.

The visitor page shows the answer, its sources and their passages in the visitor's language; the
operator console shows the same, plus the live steps, file paths and the trace inspector.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from contextlib import nullcontext

import streamlit as st

from agents.events import AgentEvent, AnswerToken, NodeStarted
from agents.service import AgentService
from app_ui.labels import Labels
from app_ui.presenters import Turn, running_label
from app_ui.session import render_answer
from app_ui.stream_drawing import StreamDrawing
from app_ui.support import stream_turn

logger = logging.getLogger(__name__)


def stream_answer(
    turn: Turn,
    service: AgentService,
    labels: Labels,
    operator: bool,
    events: Iterable[AgentEvent] | None = None,
) -> None:
    """Run the turn with progress at once: the live steps for an operator, a spinner in the
    visitor's language for a visitor; the answer streams in, then shows with its sources.
    ``events``: the turn's events when something else runs it (the visitor page's worker)."""
    status = st.status("Thinking…", expanded=True) if operator else None
    answer = st.empty()
    drawing = StreamDrawing(answer.container())  # finished paragraphs drawn once, the last one redrawn
    with nullcontext() if operator else st.spinner(labels["thinking"]):
        if events is None:
            events = stream_turn(service, turn.question, st.session_state.thread_id)
        for event in events:
            line = turn.add(event)
            if status is not None and isinstance(event, NodeStarted):
                status.update(label=running_label(event))
            elif isinstance(event, AnswerToken):
                drawing.add(event.text)
            if status is not None and line:
                status.markdown(line)
    if turn.final is not None and turn.final.language:
        st.session_state.language = turn.final.language
    if status is not None:
        status.update(label=turn.status_label(), state="error" if turn.error else "complete", expanded=False)
    answer.empty()
    render_answer(turn, labels, operator)
