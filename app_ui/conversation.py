"""The conversation both pages show: session state, the shared service, and one turn on screen.

The visitor page shows the answer, its sources and their passages in the visitor's language; the
operator console shows the same, plus the live steps, file paths and the trace inspector.
"""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from agents import app_support
from agents.app_support import SERVICE_ERRORS, error_message, new_thread_id, service_key, stream_turn
from agents.events import AnswerToken, NodeStarted
from agents.language import reply_language
from agents.presenters import (
    Turn,
    answer_markdown,
    escape,
    running_label,
    safe_markdown,
    source_label,
    source_markdown,
)
from agents.service import AgentService
from agents.ui_text import Labels, ui_language
from agents.visitor_view import visitor_answer


@st.cache_resource(show_spinner=False)
def get_service(key: str) -> AgentService:
    """One service per configuration, shared by every browser session (threads keep them apart)."""
    return app_support.build_service()


def load_service() -> tuple[AgentService | None, str | None]:
    """The shared service, or the sentence saying why there is none."""
    try:
        return get_service(service_key()), None
    except SERVICE_ERRORS as error:
        return None, error_message(error)


def start_session() -> None:
    """A new browser session (or "new conversation"): its own thread, no turns yet."""
    st.session_state.thread_id = new_thread_id()
    st.session_state.turns = []


def ensure_session() -> None:
    if "thread_id" not in st.session_state:
        start_session()


def page_labels(question: str | None = None) -> Labels:
    """The visitor's language: the question being asked, else the last one, else the browser's."""
    if question and question.strip():
        st.session_state.language = reply_language(question, st.session_state.get("language"))
    return Labels(ui_language(st.context.locale, st.session_state.get("language")))


def ask_example(question: str) -> None:
    st.session_state.pending_question = question


def take_question(prompt: str | None) -> str | None:
    """The question to answer in this run: typed, or an example clicked."""
    pending = st.session_state.pop("pending_question", None)
    return prompt if prompt is not None else pending


def render_answer(turn: Turn, labels: Labels, operator: bool) -> None:
    """The answer with its citations renumbered per source, then each source, opening in place."""
    if turn.error is not None:
        if operator:
            st.error(turn.error, icon=":material/error:")
            st.caption("The conversation is kept: ask again when this is fixed.")
        else:
            st.error(labels.error(turn.error_kind), icon=":material/error:")
            if turn.error_kind not in {"empty_question", "question_too_long"}:
                st.caption(labels["kept"])
        return
    if turn.final is None:
        return
    final = turn.final
    view = visitor_answer(final.answer, final.sources, final.evidence)
    st.markdown(answer_markdown(view))
    if not view.sources:
        return
    st.markdown(f"**{escape(labels['sources'])}**")
    for source in view.sources:
        with st.expander(source_label(source)):
            st.markdown(source_markdown(source, labels, operator=operator))


def render_question(question: str) -> None:
    with st.chat_message("user"):
        st.markdown(escape(question))


def stream_answer(turn: Turn, service: AgentService, labels: Labels, operator: bool) -> None:
    """Run the turn with progress at once: the live steps for an operator, a spinner in the
    visitor's language for a visitor; the answer streams in, then shows with its sources."""
    status = st.status("Thinking…", expanded=True) if operator else None
    answer = st.empty()
    with nullcontext() if operator else st.spinner(labels["thinking"]):
        for event in stream_turn(service, turn.question, st.session_state.thread_id):
            line = turn.add(event)
            if status is not None and isinstance(event, NodeStarted):
                status.update(label=running_label(event))
            elif isinstance(event, AnswerToken):
                answer.markdown(safe_markdown(turn.streamed) + " ▌")
            if status is not None and line:
                status.markdown(line)
    if turn.final is not None and turn.final.language:
        st.session_state.language = turn.final.language
    if status is not None:
        status.update(label=turn.status_label(), state="error" if turn.error else "complete", expanded=False)
    answer.empty()
    render_answer(turn, labels, operator)
