"""A stored conversation read back, as a reloaded page shows it: each finished turn with its answer
and, where still stored, its sources as first shown, its follow-ups, and its row in the questions log
(so its feedback buttons come back with the verdict given)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from agents.answer.follow_ups import suggest_follow_ups
from agents.answer.model import Answer
from agents.events import FinalAnswer, PastTurn
from agents.graph.thread_rules import FAILED_TURN_KEY, is_answer
from agents.insights.store import LoggedQuestion, visitor_text

MAX_RESTORED_TURNS = 50  # a page, not an archive: the older turns stay stored


def stored_turns(graph: Any, thread_id: str) -> list[PastTurn]:
    """The thread's finished turns, oldest first (at most :data:`MAX_RESTORED_TURNS`).

    Each turn ends on a checkpoint with nothing left to run; its state then holds that turn's
    typed ``reply`` (later turns overwrite it). Older checkpoints may be pruned (bounded
    conversations): such a turn shows its answer's text from the messages, without sources.
    """
    config = {"configurable": {"thread_id": thread_id}}
    latest = graph.get_state(config)
    by_number = _turns_from_messages((latest.values or {}).get("messages", []))
    typed: set[int] = set()
    for snapshot in [latest, *graph.get_state_history(config)]:  # newest first
        values = snapshot.values or {}
        questions = [m for m in values.get("messages", []) if isinstance(m, HumanMessage)]
        number = len(questions)
        failed = _failed_last_turn(values.get("messages", []))
        if snapshot.next or failed or not questions or "reply" not in values or number in typed:
            continue
        typed.add(number)
        by_number[number] = _turn(str(questions[-1].content), values)
    numbers = sorted(by_number)[-MAX_RESTORED_TURNS:]
    return [by_number[number] for number in numbers]


def _failed_last_turn(messages: list[Any]) -> bool:
    """Whether the last turn of ``messages`` ended without an answer (closed by a failed-turn note)."""
    last = messages[-1] if messages else None
    return isinstance(last, AIMessage) and bool(last.response_metadata.get(FAILED_TURN_KEY))


def _turns_from_messages(messages: list[Any]) -> dict[int, PastTurn]:
    """Each question with the last answer written after it (tool calls and results skipped)."""
    turns: dict[int, PastTurn] = {}
    number, question, answer = 0, "", ""
    for message in [*messages, HumanMessage("")]:
        if isinstance(message, HumanMessage):
            if number and answer:
                turns[number] = _turn(question, {"reply": Answer(text=answer)})
            number, question, answer = number + 1, str(message.content), ""
        elif is_answer(message) and not message.response_metadata.get(FAILED_TURN_KEY):
            answer = str(message.content)
    return turns


def _turn(question: str, values: dict[str, Any]) -> PastTurn:
    reply = values.get("reply") or Answer()
    language = values.get("language", "")
    suggestions = values.get("suggestions")
    if suggestions is None:  # a turn stored before the graph kept its suggestions
        suggestions = suggest_follow_ups(reply, language)
    final = FinalAnswer(
        reply=reply, language=language, follow_ups=suggestions, turn_id=values.get("turn_id", "")
    )
    return PastTurn(question=question, final=final)


def attach_logged_turns(turns: Sequence[PastTurn], logged: Sequence[LoggedQuestion]) -> dict[str, str]:
    """Give each restored turn its row in the questions log (so its feedback buttons come back),
    matched by its masked question from the newest turn back; return the verdicts already given
    (``{turn id: "helpful" | "not_helpful" | "sent"}``, "sent" once a comment was written)."""
    rows = list(logged)
    verdicts: dict[str, str] = {}
    for turn in reversed(turns):
        masked = visitor_text(turn.question)
        found = next((i for i in range(len(rows) - 1, -1, -1) if rows[i].question == masked), None)
        if found is None:
            continue
        row, rows = rows[found], rows[:found]  # an older turn matches an older row
        turn.final.turn_id = row.id
        if row.feedback is not None:
            verdicts[row.id] = "sent" if row.comment else row.feedback
    return verdicts
