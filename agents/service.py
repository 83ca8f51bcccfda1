"""The one facade the CLI and the UI call: stream typed events for a question on a thread, read a
stored conversation back, and keep a visitor's verdict on an answer. The visitor page imports only
this module, :mod:`agents.events` and the answer's types from ``agents``."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import ValidationError
from pydantic_settings import SettingsError

from agents.answer.language import reply_language
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
from agents.events import AgentEvent, ErrorOccurred, FinalAnswer, StoredConversation
from agents.graph.trace import tools_called
from agents.insights.store import MAX_COMMENT_CHARS, Feedback, QuestionLog
from agents.runtime.admission import MAX_QUESTION_CHARS, conversation_refusal, question_refusal
from agents.runtime.assembly import build_parts
from agents.runtime.restore import attach_logged_turns, stored_turns
from agents.runtime.turn_events import TurnEvents
from agents.runtime.turn_graph import question_recorder, turn_graph
from agents.runtime.warmup import WarmUp, warm_up
from rag.config import RagSettings
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.retriever import HybridRetriever

__all__ = [
    "MAX_COMMENT_CHARS",
    "MAX_QUESTION_CHARS",
    "AgentService",
    "Feedback",
    "configuration_key",
    "offline_configured",
    "reply_language",
]

logger = logging.getLogger(__name__)


def configuration_key() -> str:
    """A fingerprint of the configuration a service is built from (a new one builds a new service);
    secrets enter it hashed."""
    agent, rag = AgentSettings(), RagSettings()
    secrets = [
        hashlib.sha256(secret.get_secret_value().encode()).hexdigest()
        for secret in (agent.mistral_api_key, agent.openai_api_key, agent.checkpoint_url)
        if secret is not None
    ]
    described = "|".join([agent.model_dump_json(), rag.model_dump_json(), *secrets])
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def offline_configured() -> bool:
    """Whether the configuration in the environment names no provider (the offline model answers);
    read from the defaults when it is invalid (the page says why)."""
    try:
        settings = AgentSettings()
    except (ValidationError, SettingsError):
        settings = AgentSettings.model_construct()
    return settings.resolved_provider == "offline"


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
        log_questions: bool = True,
    ) -> None:
        """``log_questions=False``: turns stay out of the questions log (evaluation questions are not
        visitors'); else they go to ``questions``, or to the log beside the conversations."""
        self.settings = settings or AgentSettings()
        parts = self.parts = build_parts(self.settings, rag_settings, llm=llm, retriever=retriever)
        self.retriever, self.llm, self.visitor_tools = parts.retriever, parts.llm, parts.visitor_tools
        self.offline, self.model_name = parts.offline, parts.model_name
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
        if not log_questions:
            self.questions = None
        elif questions is None and self.checkpoints is not None and self.settings.questions_log:
            self.questions = QuestionLog.for_settings(self.settings)
        saver = checkpointer if self.checkpoints is None else self.checkpoints.saver
        self.graph = turn_graph(parts, saver, question_recorder(self.settings, self.questions))
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
        if refusal := question_refusal(question):
            yield ErrorOccurred(message=refusal.message, kind=refusal.kind)
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
            stored = self.graph.get_state(config).values.get("messages", [])
            if refusal := conversation_refusal(stored, self.settings.max_turns_per_conversation):
                yield ErrorOccurred(message=refusal.message, kind=refusal.kind)
                return
            for mode, chunk in self.graph.stream(
                {"messages": [HumanMessage(question)]}, config, stream_mode=["tasks", "updates", "messages"]
            ):
                yield from turn.events(mode, chunk)
            values = self.graph.get_state(config).values
        except Exception as error:
            if not is_checkpoint_failure(error):
                raise
            yield ErrorOccurred(message=self._store_failure(error))
            return
        finally:
            self._keep_latest_checkpoints(thread_id)
        if failure := values.get("failure"):
            yield ErrorOccurred(message=failure["message"], kind=failure["kind"])
            return
        trace = values.get("trace", [])
        seconds = time.perf_counter() - started
        yield FinalAnswer(
            reply=values.get("reply") or Answer(),
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
            follow_ups=values.get("suggestions", []),
            input_tokens=turn.input_tokens,
            output_tokens=turn.output_tokens,
            turn_id=values.get("turn_id", ""),
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

    def conversation(self, thread_id: str) -> StoredConversation:
        """The thread's finished turns as first shown, with their rows in the questions log and the
        verdicts already given; no verdicts when the log cannot be read (feedback is a courtesy)."""
        turns = stored_turns(self.graph, thread_id)
        verdicts: dict[str, str] = {}
        if turns and self.questions is not None:
            try:
                verdicts = attach_logged_turns(turns, self.questions.thread_turns(thread_id))
            except Exception as error:  # noqa: BLE001 - never break the page for a verdict
                logger.warning("The questions log could not be read (%s).", type(error).__name__)
        return StoredConversation(turns=turns, verdicts=verdicts)

    def give_feedback(
        self, turn_id: str, thread_id: str, verdict: Feedback, comment: str | None = None
    ) -> bool:
        """Keep a visitor's verdict (and short comment) on a turn of their own thread; False when
        it was not kept (no log, no such turn, or the log failed: the operator's log says why)."""
        if self.questions is None:
            return False
        try:
            return self.questions.set_feedback(turn_id, thread_id, verdict, comment)
        except Exception as error:  # noqa: BLE001 - feedback is a courtesy: never break the page
            logger.warning("Feedback could not be stored (%s).", type(error).__name__)
            return False

    def ask(self, question: str, thread_id: str = "default") -> FinalAnswer | ErrorOccurred:
        """The final event of :meth:`stream` (an answer or an error)."""
        last: FinalAnswer | ErrorOccurred = ErrorOccurred(message="No answer was produced.")
        for event in self.stream(question, thread_id):
            if isinstance(event, FinalAnswer | ErrorOccurred):
                last = event
        return last
