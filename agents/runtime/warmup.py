"""Everything a first answer needs, loaded once per process before the first question.

A first question used to pay for the embedding engine, the intent examples' vectors, the calendar,
the language identifier, the spelled-number table, the retriever's indexes, and the first question in
each language for that language's vocabularies, stemmers and Babel data: seconds, for whoever asked
first. :func:`warm_up` pays them at start by answering one short question per language through the
graph itself (the offline model's first knowledge-base example in that language), so
whatever a turn loads lazily is loaded by the code a turn runs, and nothing needs listing here. It
answers with the offline model and no checkpointer: nothing is stored, logged or sent to a provider.
Every door calls it: the app (in the background), the CLI, both servers and the evaluation.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from langchain_core.messages import HumanMessage

from agents.graph.builder import build_graph
from agents.runtime.assembly import AgentParts, offline_stand_in, warm_up_questions
from rag.lexicon.languages import SUPPORTED_LANGUAGES

logger = logging.getLogger(__name__)
RECURSION_LIMIT = 50


@dataclass(frozen=True)
class WarmedUp:
    """What a warm-up did: the languages asked and how long it took."""

    languages: tuple[str, ...]
    seconds: float


def warm_up(parts: AgentParts, languages: Sequence[str] = SUPPORTED_LANGUAGES) -> WarmedUp:
    """Answer :func:`warm_up_questions` through the graph compiled from ``parts``, offline and on
    no thread; ``languages=()`` loads only what every language shares (one question in the
    knowledge base's language)."""
    started = time.perf_counter()
    model = offline_stand_in(parts)  # a provider's model is never called at start
    graph = build_graph(replace(parts.deps, llm=model, rewrite_unverified=False))
    asked = tuple(languages) or (parts.deps.kb_language,)
    for question in warm_up_questions(asked):
        graph.invoke({"messages": [HumanMessage(question)]}, {"recursion_limit": RECURSION_LIMIT})
    warmed = WarmedUp(languages=asked, seconds=round(time.perf_counter() - started, 2))
    logger.info("The assistant is ready: warmed up in %.1f s (%s).", warmed.seconds, ", ".join(asked))
    return warmed


class WarmUp:
    """A warm-up run at most once, in the caller's thread or a background one; turns :meth:`wait`
    for it when it was started, and a failed one is logged (the first turn then says what is wrong)."""

    def __init__(self, work: Callable[[], object]) -> None:
        self._work = work
        self._lock = threading.Lock()
        self._started = threading.Event()
        self._done = threading.Event()

    @property
    def ready(self) -> bool:
        """Done, or never started (nothing to wait for)."""
        return self._done.is_set() or not self._started.is_set()

    def run(self) -> None:
        """Do the work now, unless it was done or is being done (then wait for it)."""
        self._started.set()
        with self._lock:
            if self._done.is_set():
                return
            try:
                self._work()
            except Exception as error:  # noqa: BLE001 - the visitor's turn meets it and says it in a sentence
                logger.warning(
                    "The warm-up failed (%s: %s); turns load what they need.", type(error).__name__, error
                )
            finally:
                self._done.set()

    def start(self, then: WarmUp | None = None) -> WarmUp:
        """Run it in a background thread (a daemon: it never holds the process open), and ``then``
        after it in the same thread (turns waiting for this one do not wait for ``then``)."""
        self._started.set()
        if then is not None:
            then._started.set()  # under way from now: ``then.ready`` says so

        def run_both() -> None:
            self.run()
            if then is not None:
                then.run()

        threading.Thread(target=run_both, name="warm-up", daemon=True).start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a started warm-up ends; True when ready."""
        if not self._started.is_set():
            return True
        return self._done.wait(timeout)
