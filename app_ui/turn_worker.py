"""Questions answered one after another, whatever the page does meanwhile: no question is lost.

Streamlit stops a script run as soon as the visitor sends anything (a second question, a click),
which used to stop the answer being written too: its bubble stayed empty, or the first question
vanished. Here each question waits in the browser session's queue, and its answer is written by a
thread of its own that outlives the script run; every run only draws the events received so far.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from agents.events import AgentEvent, ErrorOccurred
from app_ui.presenters import Turn

logger = logging.getLogger(__name__)
Answerer = Callable[[str], Iterable[AgentEvent]]
POLL_SECONDS = 0.05  # how often a drawing run looks for the next event


@dataclass
class TurnWorker:
    """One question answered in a background thread; its events wait in a queue until drawn."""

    turn: Turn
    events: queue.Queue[AgentEvent | None] = field(default_factory=queue.Queue)
    # Two script runs may overlap for a moment (Streamlit starts the next before the last stops):
    # one reader at a time keeps the events in order.
    reader: threading.Lock = field(default_factory=threading.Lock)
    done: bool = False

    def start(self, answer: Answerer) -> TurnWorker:
        threading.Thread(target=self._run, args=(answer,), name="visitor-turn", daemon=True).start()
        return self

    def _run(self, answer: Answerer) -> None:
        try:
            for event in answer(self.turn.question):
                self.events.put(event)
        except Exception as error:  # noqa: BLE001 - the visitor gets a sentence, never a lost turn
            logger.error("A visitor's turn failed: %s", type(error).__name__)
            self.events.put(ErrorOccurred(message=type(error).__name__, kind="other"))
        finally:
            self.events.put(None)

    def received(self) -> Iterator[AgentEvent]:
        """The events not drawn yet, as they come, until the answer (or an error) is complete."""
        while not self.done:
            with self.reader:
                try:
                    event = self.events.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
            if event is None:
                self.done = True
                return
            yield event


@dataclass
class QuestionQueue:
    """A browser session's questions not answered yet, and the one being answered."""

    waiting: list[str] = field(default_factory=list)
    current: TurnWorker | None = None

    @property
    def busy(self) -> bool:
        return bool(self.waiting) or (self.current is not None and not self.current.done)

    def add(self, question: str | None) -> None:
        if question is not None:
            self.waiting.append(question)

    def next(self) -> str | None:
        """The next question to start, once the one being answered is complete."""
        if self.current is not None and not self.current.done:
            return None
        return self.waiting.pop(0) if self.waiting else None
