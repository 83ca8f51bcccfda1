"""The one facade the CLI and the UI call: stream typed events for a question on a thread."""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage

from agents.answer.follow_ups import suggest_follow_ups
from agents.answer.model import Answer
from agents.config import AgentSettings
from agents.conversations.checkpoints import (
    Checkpoints,
    failure_reason,
    is_checkpoint_failure,
    open_checkpoints,
)
from agents.conversations.retention import forget_old_threads, keep_latest_checkpoints
from agents.conversations.turn_locks import TurnBusy, TurnLocks
from agents.events import AgentEvent, ErrorOccurred, FinalAnswer
from agents.graph.builder import build_graph
from agents.graph.thread_rules import failed_turn_note, questions_asked, unfinished
from agents.graph.trace import AgentStep, FollowUpStep, TraceStep
from agents.insights.recording import logged_turn, record_turn
from agents.insights.store import QuestionLog
from agents.models.provider_errors import ProviderError
from agents.runtime.assembly import build_parts
from agents.runtime.turn_events import TurnEvents
from agents.runtime.warmup import WarmUp, warm_up
from rag.config import RagSettings
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.retriever import HybridRetriever

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 4000
# Letters that draw nothing (Hangul fillers, the blank Braille pattern), beside the categories below.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def is_blank(question: str) -> bool:
    """Whether ``question`` shows nothing: only spaces, control and format characters (zero-width
    spaces and joiners, U+2060, U+FEFF, bidi marks) or letters that draw nothing."""
    return all(
        unicodedata.category(char)[0] in "CZ" or char in INVISIBLE_LETTERS or char.isspace()
        for char in question
    )


def tools_called(trace: list[TraceStep]) -> list[str]:
    """Names of the tools called this turn, in order (follow-up searches included)."""
    names: list[str] = []
    for step in trace:
        if isinstance(step, AgentStep):
            names.extend(call.tool for call in step.tool_calls)
        elif isinstance(step, FollowUpStep):
            names.extend("search_knowledge_base" for _ in step.queries)
    return names


class AgentService:
    """Builds the model, tools, retriever and checkpointer once; answers many threads."""

    def __init__(
        self,
        settings: AgentSettings | None = None,
        rag_settings: RagSettings | None = None,
        llm: BaseChatModel | None = None,
        retriever: HybridRetriever | None = None,
        checkpointer: Any = None,
        questions: QuestionLog | None = None,
    ) -> None:
        self.settings = settings or AgentSettings()
        parts = self.parts = build_parts(self.settings, rag_settings, llm=llm, retriever=retriever)
        self.retriever, self.llm, self.visitor_tools = parts.retriever, parts.llm, parts.visitor_tools
        self.offline, self.model_name = parts.offline, parts.model_name
        deps = parts.deps
        # A checkpointer given by the caller (tests) is private to this process: in-process locks suffice.
        self.checkpoints: Checkpoints | None = (
            None if checkpointer is not None else open_checkpoints(self.settings)
        )
        self.turn_locks = TurnLocks(self.checkpoints.shared_lock if self.checkpoints else None)
        self.store_description = (
            self.checkpoints.description if self.checkpoints else "the conversation store"
        )
        # The questions log lives beside the conversations; a caller's own checkpointer (tests) has none.
        self.questions = questions
        if questions is None and self.checkpoints is not None and self.settings.questions_log:
            self.questions = QuestionLog.for_settings(self.settings)
        self.graph = build_graph(deps, checkpointer if self.checkpoints is None else self.checkpoints.saver)
        if self.checkpoints is not None and self.settings.conversation_retention_days:
            self.forget_old_conversations()
        self.warming: WarmUp | None = None

    def warm_up(self, languages: Sequence[str] = SUPPORTED_LANGUAGES, background: bool = False) -> WarmUp:
        """Load what a first answer needs in ``languages`` (:mod:`agents.runtime.warmup`), once per service;
        ``background``: in a thread of its own. Turns wait only for the first language (the models, the
        index and what every language shares); the others are loaded after it, while turns are answered."""
        if self.warming is None:
            self.warming = WarmUp(partial(warm_up, self.parts, languages[:1]))
            others = WarmUp(partial(warm_up, self.parts, languages[1:])) if len(languages) > 1 else None
            if background:
                self.warming.start(then=others)
            else:
                self.warming.run()
                if others is not None:
                    others.run()
        return self.warming

    @property
    def ready(self) -> bool:
        """No warm-up is under way: a question is answered at once."""
        return self.warming is None or self.warming.ready

    def wait_until_ready(self) -> None:
        """Block until a warm-up under way ends (turns wait for it themselves)."""
        if self.warming is not None:
            self.warming.wait()

    def forget_old_conversations(self) -> int:
        """Delete conversations whose last turn is older than ``AGENT_CONVERSATION_RETENTION_DAYS``."""
        if self.checkpoints is None or not self.settings.conversation_retention_days:
            return 0
        try:
            return forget_old_threads(self.checkpoints.saver, self.settings.conversation_retention_days)
        except Exception as error:  # a store that fails now fails the turns too, in a sentence
            if not is_checkpoint_failure(error):
                raise
            logger.warning("Old conversations in %s were not deleted: %s", self.store_description, error)
            return 0

    def close(self) -> None:
        """Close the conversation store's connections (a service is usually kept for the process's life)."""
        if self.checkpoints is not None:
            self.checkpoints.close()

    def stream(self, question: str, thread_id: str = "default") -> Iterator[AgentEvent]:
        """Events of one turn: nodes, tool calls and results, answer tokens, then the answer."""
        question = question.strip()
        if is_blank(question):
            yield ErrorOccurred(
                message="The question is empty: type a question about your visit.", kind="empty_question"
            )
            return
        if len(question) > MAX_QUESTION_CHARS:
            yield ErrorOccurred(
                message=f"The question is too long ({len(question)} characters; at most "
                f"{MAX_QUESTION_CHARS}). Shorten it or split it into several questions.",
                kind="question_too_long",
            )
            return
        try:
            with self.turn_locks.hold(thread_id, self.settings.turn_wait_seconds):
                yield from self._turn(question, thread_id)
        except TurnBusy as busy:
            yield ErrorOccurred(message=str(busy), kind="busy")
        except Exception as error:  # the shared lock lives in the store too (a pooled connection)
            if not is_checkpoint_failure(error):
                raise
            yield ErrorOccurred(message=self._store_failure(error))

    def _turn(self, question: str, thread_id: str) -> Iterator[AgentEvent]:
        """One turn, the thread's lock held: stream the graph, then read the answer from its state."""
        started = time.perf_counter()
        turn = TurnEvents()
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": self.settings.recursion_limit}
        try:
            self.wait_until_ready()  # a turn racing the warm-up for the cores would slow both
            if self._turns_so_far(config) >= self.settings.max_turns_per_conversation:
                yield self._conversation_full()
                return
            for mode, chunk in self.graph.stream(
                {"messages": [HumanMessage(question)]}, config, stream_mode=["tasks", "updates", "messages"]
            ):
                yield from turn.events(mode, chunk)
            values = self.graph.get_state(config).values
        except ProviderError as error:
            self._close_failed_turn(config)
            yield ErrorOccurred(message=str(error), kind="provider")
            return
        except Exception as error:
            if not is_checkpoint_failure(error):
                self._close_failed_turn(config)
                raise
            yield ErrorOccurred(message=self._store_failure(error))
            return
        finally:
            self._keep_latest_checkpoints(thread_id)
        trace = values.get("trace", [])
        reply = values.get("reply") or Answer()
        seconds = time.perf_counter() - started
        final = FinalAnswer(
            reply=reply,
            language=values.get("language", ""),
            tools=tools_called(trace),
            model_calls=values.get("model_calls", 0),
            seconds=round(seconds, 3),
            graph_overhead_ms=round((seconds - turn.in_nodes) * 1000, 1),
            offline_model=self.offline,
            trace=[step.dumped() for step in trace],
            passage_numbers={
                passage.chunk_id: passage.number
                for passage in values.get("evidence", [])
                if passage.number is not None
            },
            follow_ups=suggest_follow_ups(reply, values.get("language", ""), tools_called(trace)),
            input_tokens=turn.input_tokens,
            output_tokens=turn.output_tokens,
        )
        final.turn_id = self._log_turn(question, thread_id, final, values.get("gaps", []))
        yield final

    def _log_turn(self, question: str, thread_id: str, final: FinalAnswer, gaps: list[str]) -> str:
        """Keep the turn in the questions log (:mod:`agents.insights.recording`); "" when not kept."""
        if self.questions is None:
            return ""
        url = self.settings.checkpoint_url
        turn = logged_turn(
            question, thread_id, final.reply, final.language, gaps, self.model_name, final.seconds * 1000
        )
        return record_turn(self.questions, turn, url.get_secret_value() if url else None)

    def _close_failed_turn(self, config: Any) -> None:
        """A turn that ended without an answer is closed with a short assistant note, so the next
        turn's history is valid on every provider (its question, tool calls and results are kept)."""
        try:
            if unfinished(self.graph.get_state(config).values.get("messages", [])):
                self.graph.update_state(config, {"messages": [failed_turn_note()]}, as_node="synthesize")
        except Exception as error:
            if not is_checkpoint_failure(error):
                raise
            logger.warning("A failed turn could not be closed in %s: %s", self.store_description, error)

    def _turns_so_far(self, config: Any) -> int:
        """Questions the thread has stored (a failed turn's question counts: it is kept)."""
        messages: list[AnyMessage] = self.graph.get_state(config).values.get("messages", [])
        return questions_asked(messages)

    def _conversation_full(self) -> ErrorOccurred:
        """The turn cap reached: the visitor page words it in the visitor's language."""
        cap = self.settings.max_turns_per_conversation
        return ErrorOccurred(
            message=f"This conversation has reached its {cap} questions (AGENT_MAX_TURNS_PER_CONVERSATION): "
            "start a new conversation and ask the question there.",
            kind="conversation_full",
        )

    def _keep_latest_checkpoints(self, thread_id: str) -> None:
        """After a turn, only the latest checkpoints of its thread stay (a failure here loses nothing)."""
        if self.checkpoints is None:
            return
        try:
            keep_latest_checkpoints(self.checkpoints.saver, thread_id, self.settings.checkpoints_per_thread)
        except Exception as error:
            if not is_checkpoint_failure(error):
                raise
            logger.warning("Older checkpoints in %s were not deleted: %s", self.store_description, error)

    def _store_failure(self, error: BaseException) -> str:
        url = self.settings.checkpoint_url
        reason = failure_reason(error, url.get_secret_value() if url else None)
        logger.warning("Saving a turn in %s failed: %s", self.store_description, reason)
        return (
            f"This turn could not be saved in {self.store_description} ({reason}); everything saved "
            "before it is kept: ask again in a moment."
        )

    def ask(self, question: str, thread_id: str = "default") -> FinalAnswer | ErrorOccurred:
        """The final event of :meth:`stream` (an answer or an error)."""
        last: FinalAnswer | ErrorOccurred = ErrorOccurred(message="No answer was produced.")
        for event in self.stream(question, thread_id):
            if isinstance(event, FinalAnswer | ErrorOccurred):
                last = event
        return last
