"""The visitor page: the conversation only, in the visitor's language, fit for a phone.

The title, the examples and the input are drawn first; the models load behind them.
"""

from __future__ import annotations

import streamlit as st

from agents.events import ErrorOccurred
from app_ui.presenters import Turn, escape
from app_ui.session import (
    ask_example,
    ensure_session,
    page_labels,
    render_answer,
    render_question,
    start_session,
    take_question,
)


def _render_examples(examples: list[str]) -> None:
    for number, question in enumerate(examples):
        st.button(
            question,
            key=f"example-{number}",
            on_click=ask_example,
            args=(question,),
            icon=":material/chat_bubble:",
            width="stretch",
        )


def visitor_page() -> None:
    """What a visitor sees at ``/``: the conversation, its sources, examples, a new conversation."""
    ensure_session()
    prompt = st.session_state.get("question")
    labels = page_labels(prompt or st.session_state.get("pending_question"))
    st.title(labels["title"], anchor=False)
    st.caption(labels["subtitle"])
    question = take_question(st.chat_input(labels["placeholder"], key="question"))
    if not st.session_state.turns and question is None:
        st.markdown(escape(labels["examples_intro"]))
        _render_examples(list(labels["examples"]))
    for turn in st.session_state.turns:
        render_question(turn.question)
        with st.chat_message("assistant"):
            render_answer(turn, labels, operator=False)
    # The agent (LangGraph, Chroma, the embedder) is imported and loaded only now, after the page
    # is drawn: a visitor reads the title and examples while it loads.
    with st.spinner(labels["loading"]):
        from app_ui.conversation import load_service, stream_answer
        from app_ui.support import settings_summary

        service, problem = load_service()
    if question is not None:
        turn = Turn(question)
        st.session_state.turns.append(turn)
        render_question(question)
        with st.chat_message("assistant"):
            if service is None:
                turn.add(ErrorOccurred(message=problem or "", kind="knowledge_base"))
                render_answer(turn, labels, operator=False)
            else:
                stream_answer(turn, service, labels, operator=False)
    if service.offline if service else settings_summary(None)["Assistant"]["offline"]:
        st.caption(f":material/cloud_off: {escape(labels['offline_notice'])}")
    if st.session_state.turns:
        st.button(
            labels["new_conversation"],
            key="new-conversation",
            icon=":material/add_comment:",
            on_click=start_session,
        )
