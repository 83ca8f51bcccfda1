"""Questions answered one after another by a worker that outlives the script run drawing it."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from agents.answer.model import Answer
from agents.events import AgentEvent, AnswerToken, ErrorOccurred, FinalAnswer
from app_ui.presenters import Turn
from app_ui.turn_worker import Answerer, QuestionQueue, TurnWorker


def _answer(gate: threading.Event) -> Answerer:
    def answer(question: str) -> Iterator[AgentEvent]:
        yield AnswerToken(text=f"{question}: ")
        gate.wait(5)
        yield AnswerToken(text="done")
        yield FinalAnswer(reply=Answer(text=f"{question}: done"), language="en")

    return answer


def test_an_answer_goes_on_when_the_run_drawing_it_is_stopped() -> None:
    gate = threading.Event()
    worker = TurnWorker(Turn("first")).start(_answer(gate))
    drawing = worker.received()
    assert next(drawing) == AnswerToken(text="first: ")
    drawing.close()  # Streamlit stopped the run: a second question arrived
    gate.set()

    rest = list(worker.received())  # the next run draws what the first did not

    assert [type(event).__name__ for event in rest] == ["AnswerToken", "FinalAnswer"]
    assert worker.done


def test_a_question_sent_during_an_answer_waits_and_is_answered_after_it() -> None:
    questions = QuestionQueue()
    questions.add("first")
    gate = threading.Event()
    questions.current = TurnWorker(Turn(questions.next() or "")).start(_answer(gate))
    questions.add("second")

    assert questions.busy
    assert questions.next() is None  # not while the first is being answered
    gate.set()
    done = FinalAnswer(reply=Answer(text="first: done"), language="en")
    assert list(questions.current.received())[-1] == done
    assert questions.next() == "second"
    assert questions.next() is None


def test_a_failing_answer_ends_with_an_error_event_not_a_lost_turn() -> None:
    def failing(question: str) -> Iterator[AgentEvent]:
        yield AnswerToken(text="…")
        raise RuntimeError("boom")

    events = list(TurnWorker(Turn("q")).start(failing).received())

    assert isinstance(events[-1], ErrorOccurred)
