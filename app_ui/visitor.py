"""The visitor page: the conversation only, in the visitor's language, fit for a phone.

The title, the examples and the input are drawn first; the models load behind them.
"""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial
from typing import TYPE_CHECKING, Literal

import streamlit as st

from agents.events import ErrorOccurred
from agents.service import offline_configured
from app_ui.accessibility import page_accessibility
from app_ui.labels import Labels, ui_language
from app_ui.presenters import Turn, escape
from app_ui.session import page_labels, render_answer, render_question, start_session
from app_ui.thread_address import PARAMETER, restored_turns, valid_thread_id
from app_ui.turn_worker import QuestionQueue, TurnWorker

if TYPE_CHECKING:
    from agents.service import AgentService


ButtonWidth = Literal["content", "stretch"]


def _question_buttons(questions: list[str], key: str, icon: str, width: ButtonWidth) -> None:
    """One button per question: a click asks it as if it were typed."""
    for number, question in enumerate(questions):
        st.button(
            question,
            key=f"{key}-{number}",
            on_click=_queue_question,
            args=(question,),
            icon=icon,
            width=width,
        )


def _render_examples(examples: list[str]) -> None:
    _question_buttons(examples, "example", ":material/chat_bubble:", "stretch")


def _render_follow_ups(turn: Turn, labels: Labels) -> None:
    """The questions suggested after the last answer."""
    suggestions = turn.final.follow_ups if turn.final is not None and turn.error is None else []
    if not suggestions:
        return
    st.markdown(escape(labels["follow_ups"]))
    _question_buttons(suggestions, "follow-up", ":material/subdirectory_arrow_right:", "content")


def _questions() -> QuestionQueue:
    if "questions" not in st.session_state:
        st.session_state.questions = QuestionQueue()
    questions: QuestionQueue = st.session_state.questions
    return questions


def _queue_question(question: str | None = None) -> None:
    """A question typed or clicked joins the queue before the page is drawn: it is never dropped,
    even when it arrives while another answer is being written."""
    _questions().add(question if question is not None else st.session_state.get("question"))


def _new_conversation() -> None:
    start_session()
    st.session_state.questions = QuestionQueue()
    st.query_params[PARAMETER] = st.session_state.thread_id


def _open_conversation() -> None:
    """The conversation named in the page address (restored after a reload), else a new one."""
    if "thread_id" in st.session_state:
        return
    start_session()
    wanted = valid_thread_id(st.query_params.get(PARAMETER))
    if wanted is not None:
        with st.spinner(Labels(ui_language(st.context.locale), st.context.locale)["loading"]):
            from app_ui.shared_service import load_service

            service, _ = load_service()
        conversation = service.conversation(wanted) if service is not None else None
        turns = restored_turns(conversation) if conversation is not None else []
        if conversation is not None and turns:  # else a new conversation, silently: no word on other ids
            st.session_state.thread_id, st.session_state.turns = wanted, turns
            st.session_state.language = turns[-1].final.language if turns[-1].final else None
            st.session_state.feedback = conversation.verdicts
    st.query_params[PARAMETER] = st.session_state.thread_id


def _answer_live(worker: TurnWorker, service: AgentService | None, labels: Labels, problem: str) -> None:
    """Draw the question being answered, its answer streaming in, then with its sources."""
    render_question(worker.turn.question)
    with st.chat_message("assistant"):
        if service is None:
            worker.turn.add(ErrorOccurred(message=problem, kind="knowledge_base"))
            worker.done = True
            render_answer(worker.turn, labels, operator=False)
        else:
            from app_ui.conversation import stream_answer

            stream_answer(worker.turn, service, labels, operator=False, events=worker.received())


def visitor_page() -> None:
    """What a visitor sees at ``/``: the conversation, its sources, examples, a new conversation."""
    _open_conversation()
    questions = _questions()
    labels = page_labels(questions.waiting[-1] if questions.waiting else None)
    page_accessibility(labels, answered=sum(turn.final is not None for turn in st.session_state.turns))
    st.title(labels["title"], anchor=False)
    st.caption(labels["subtitle"])
    # Disabled while an answer is written; a question sent before it greys out still waits its turn.
    st.chat_input(labels["placeholder"], key="question", on_submit=_queue_question, disabled=questions.busy)
    if not st.session_state.turns and not questions.busy:
        st.markdown(escape(labels["examples_intro"]))
        _render_examples(list(labels["examples"]))
    live = questions.current.turn if questions.current is not None and not questions.current.done else None
    for turn in st.session_state.turns:
        if turn is not live:
            render_question(turn.question)
            with st.chat_message("assistant"):
                render_answer(turn, labels, operator=False)
                if turn is st.session_state.turns[-1] and not questions.busy:
                    _render_follow_ups(turn, labels)
    # The agent (LangGraph, Chroma, the embedder) is imported and loaded only now, after the page
    # is drawn: a visitor reads the title and examples while it loads, and is told only when a
    # question waits for it.
    with st.spinner(labels["loading"]) if questions.busy else nullcontext():
        from app_ui.shared_service import load_service
        from app_ui.support import stream_turn

        service, problem = load_service()
    if questions.busy and service is not None and not service.ready:
        with st.spinner(labels["loading"]):
            service.wait_until_ready()
    answered = False
    while questions.busy:
        if questions.current is None or questions.current.done:
            question = questions.next()
            assert question is not None  # busy and nothing running: one is waiting
            labels = page_labels(question)
            questions.current = TurnWorker(Turn(question))
            st.session_state.turns.append(questions.current.turn)
            if service is not None:
                questions.current.start(partial(stream_turn, service, thread_id=st.session_state.thread_id))
        _answer_live(questions.current, service, labels, problem or "")
        answered = True
    if service.offline if service else offline_configured():
        st.caption(f":material/cloud_off: {escape(labels['offline_notice'])}")
    if st.session_state.turns:
        st.button(
            labels["new_conversation"],
            key="new-conversation",
            icon=":material/add_comment:",
            on_click=_new_conversation,
        )
    if answered:
        st.rerun()  # the input was drawn disabled: draw it again, enabled
