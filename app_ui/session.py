"""A browser session's conversation and how a turn looks, without the agent's heavy imports.

The visitor page draws its title, input and examples from here before the models load
(:mod:`app_ui.conversation` brings in LangGraph, Chroma and the embedder).
"""

from __future__ import annotations

import uuid

import streamlit as st

from agents.language import reply_language
from app_ui.feedback import render_feedback
from app_ui.freshness import official_label, render_checked_on
from app_ui.labels import Labels, ui_language
from app_ui.presenters import Turn, answer_markdown, escape, source_label, source_markdown
from app_ui.visitor_view import visitor_answer


def new_thread_id() -> str:
    """A conversation id for one browser session."""
    return f"web-{uuid.uuid4().hex}"


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
    return Labels(ui_language(st.context.locale, st.session_state.get("language")), st.context.locale)


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
            if turn.error_kind not in {"empty_question", "question_too_long", "conversation_full"}:
                st.caption(labels["kept"])
        return
    if turn.final is None:
        return
    final = turn.final
    view = visitor_answer(final.reply)
    st.markdown(answer_markdown(view))
    if view.sources:
        st.markdown(f"**{escape(labels['related' if view.related else 'sources'])}**")
    for source in view.sources:
        source.title = official_label(source, labels) or source.title  # "Official answer, 1 March 2026"
        with st.expander(source_label(source)):
            st.markdown(source_markdown(source, labels, operator=operator))
            render_checked_on(source, labels)
    if not operator:
        render_feedback(final.turn_id, labels)


def render_question(question: str) -> None:
    with st.chat_message("user"):
        st.markdown(escape(question))
