"""Helpful / not helpful under each answer on the visitor page, and an optional short comment.

The verdict is stored with the turn's row in the questions log (``FinalAnswer.turn_id``), only for a
turn of this browser session's own thread. A store that fails never disturbs the page: the visitor
is thanked all the same and the operator's log says why.
"""

from __future__ import annotations

import streamlit as st

from agents.service import MAX_COMMENT_CHARS, Feedback
from app_ui.labels import Labels
from app_ui.presenters import escape

COMMENT_CHARS = 300  # a short comment: enough to say what was missing, too short for a letter
assert COMMENT_CHARS <= MAX_COMMENT_CHARS


def _verdicts() -> dict[str, str]:
    return st.session_state.setdefault("feedback", {})


def _store(turn_id: str, verdict: Feedback, comment: str | None = None) -> None:
    """Write the verdict into the questions log (the service's, shared by every session)."""
    from app_ui.shared_service import load_service

    service, _ = load_service()
    if service is not None:
        service.give_feedback(turn_id, st.session_state.thread_id, verdict, comment)


def _vote(turn_id: str, verdict: Feedback) -> None:
    _verdicts()[turn_id] = verdict
    _store(turn_id, verdict)


def _send_comment(turn_id: str) -> None:
    comment = str(st.session_state.get(f"comment-{turn_id}", ""))[:COMMENT_CHARS]
    _verdicts()[turn_id] = "sent"
    if comment.strip():
        _store(turn_id, "not_helpful", comment)


def render_feedback(turn_id: str, labels: Labels) -> None:
    """The two buttons; after "not helpful", the comment box; after that, a thank-you."""
    if not turn_id:  # the turn was not logged: there is nothing to attach a verdict to
        return
    verdict = _verdicts().get(turn_id)
    if verdict is None:
        st.caption(escape(labels["feedback_question"]))
        helpful, not_helpful = st.columns(2, width=360)
        helpful.button(
            labels["helpful"],
            key=f"helpful-{turn_id}",
            icon=":material/thumb_up:",
            on_click=_vote,
            args=(turn_id, "helpful"),
        )
        not_helpful.button(
            labels["not_helpful"],
            key=f"not-helpful-{turn_id}",
            icon=":material/thumb_down:",
            on_click=_vote,
            args=(turn_id, "not_helpful"),
        )
    elif verdict == "not_helpful":
        st.text_input(labels["feedback_comment"], key=f"comment-{turn_id}", max_chars=COMMENT_CHARS)
        st.button(labels["feedback_send"], key=f"send-{turn_id}", on_click=_send_comment, args=(turn_id,))
    else:
        st.caption(escape(labels["feedback_thanks"]))
