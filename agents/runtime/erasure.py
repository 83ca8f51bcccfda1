"""Retention and erasure across everything kept about visitors: the conversations' checkpoints and the
questions log (with its feedback), in the SQLite file or in PostgreSQL.

``python -m agents prune`` applies both retentions, whether or not the log is switched on now (rows
written while it was on still age out); ``python -m agents forget THREAD`` erases one conversation on
a visitor's request and says what it removed: in a PostgreSQL database Aegra serves from, its own rows
of the conversation too (the ``thread``, its ``runs``, whose ``input`` holds the question as typed, and
their streamed ``run_events``), found by their tables, absent elsewhere. A run's events carry no thread
id and outlive the runs Aegra deletes with a thread, so every event whose run is gone is erased too: it
belonged to a deleted conversation.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.config import AgentSettings
from agents.conversations.checkpoints import (
    CheckpointStoreError,
    failure_reason,
    is_checkpoint_failure,
    open_checkpoints,
)
from agents.conversations.retention import forget_old_threads, is_postgres, postgres_transaction
from agents.insights.store import QuestionLog

logger = logging.getLogger(__name__)

# Aegra's tables (aegra-api 0.6.0): run_events is keyed by run without a foreign key, runs cascade
# from thread.
SERVED_TABLES = (
    "SELECT to_regclass('thread') IS NOT NULL AND to_regclass('runs') IS NOT NULL "
    "AND to_regclass('run_events') IS NOT NULL AS served"
)
ORPHAN_RUN_EVENTS = (
    "DELETE FROM run_events WHERE NOT EXISTS (SELECT 1 FROM runs WHERE runs.run_id = run_events.run_id)"
)
STALE_SERVED_THREADS = (
    "SELECT thread_id FROM thread WHERE updated_at < now() - make_interval(secs => %s) AND status <> 'busy'"
)


@dataclass(frozen=True)
class Pruned:
    """What one retention run deleted (``conversations`` is None when conversations are kept)."""

    conversations: int | None
    conversation_days: float
    questions: int
    question_days: int
    store: str
    server_threads: int = 0  # Aegra's conversations past the retention, with their runs and events


@dataclass(frozen=True)
class Erased:
    """What was deleted about one conversation."""

    thread_id: str
    checkpoints: int
    logged_turns: int
    feedback: int
    store: str
    server_threads: int = 0  # Aegra's thread row (0 or 1) and runs
    server_runs: int = 0

    @property
    def anything(self) -> bool:
        return bool(self.checkpoints or self.logged_turns or self.server_threads or self.server_runs)


def _store_error(error: Exception, settings: AgentSettings, what: str) -> CheckpointStoreError:
    url = settings.checkpoint_url.get_secret_value() if settings.checkpoint_url else None
    return CheckpointStoreError(
        f"{what} ({failure_reason(error, url)}): try again later, or check AGENT_CHECKPOINT_URL or "
        "AGENT_CHECKPOINT_PATH."
    )


def prune(settings: AgentSettings, conversation_days: float | None = None) -> Pruned:
    """Delete conversations past ``conversation_days`` (the setting's when None; 0 keeps them) and
    logged questions past ``AGENT_QUESTIONS_RETENTION_DAYS``."""
    days = settings.conversation_retention_days if conversation_days is None else conversation_days
    checkpoints = open_checkpoints(settings)
    log = QuestionLog.for_settings(settings)
    try:
        conversations = forget_old_threads(checkpoints.saver, days) if days > 0 else None
        served = _forget_old_served_threads(checkpoints.saver, days) if days > 0 else 0
        questions = log.prune()
    except Exception as error:
        if not is_checkpoint_failure(error):
            raise
        what = f"Nothing more was deleted from {checkpoints.description}"
        raise _store_error(error, settings, what) from error
    finally:
        checkpoints.close()
    return Pruned(
        conversations, days, questions, settings.questions_retention_days, checkpoints.description, served
    )


def _count_checkpoints(saver: BaseCheckpointSaver[Any], thread_id: str) -> int:
    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    return sum(1 for _ in saver.list(config))


def _forget_served_thread(saver: BaseCheckpointSaver[Any], thread_id: str) -> tuple[int, int]:
    """Delete Aegra's rows of ``thread_id`` when its tables share the checkpointer's PostgreSQL
    database, and the events of runs already deleted; how many threads and runs went ((0, 0) without
    them)."""
    if not is_postgres(saver):
        return 0, 0
    with postgres_transaction(saver) as connection:
        if not connection.execute(SERVED_TABLES).fetchone()["served"]:
            return 0, 0
        runs = connection.execute("DELETE FROM runs WHERE thread_id = %s", (thread_id,)).rowcount
        threads = connection.execute("DELETE FROM thread WHERE thread_id = %s", (thread_id,)).rowcount
        connection.execute(ORPHAN_RUN_EVENTS)
    return threads, runs


def _forget_old_served_threads(saver: BaseCheckpointSaver[Any], days: float) -> int:
    """Delete Aegra's conversations unused for ``days`` (by its ``updated_at``, set when a run starts
    and ends) with their checkpoints, runs and events; how many went (0 without Aegra's tables)."""
    if not is_postgres(saver):
        return 0
    with postgres_transaction(saver) as connection:
        if not connection.execute(SERVED_TABLES).fetchone()["served"]:
            return 0
        rows = connection.execute(STALE_SERVED_THREADS, (days * 86400,)).fetchall()
        threads = [row["thread_id"] for row in rows]
    for thread_id in threads:
        saver.delete_thread(thread_id)
        _forget_served_thread(saver, thread_id)
    if not threads:  # events of conversations a visitor deleted
        with postgres_transaction(saver) as connection:
            connection.execute(ORPHAN_RUN_EVENTS)
    return len(threads)


def forget_conversation(settings: AgentSettings, thread_id: str) -> Erased:
    """Delete one conversation's checkpoints (every namespace, with their writes), Aegra's rows of it
    and its rows of the questions log, feedback and comments included."""
    checkpoints = open_checkpoints(settings)
    log = QuestionLog.for_settings(settings)
    try:
        turns = log.thread_turns(thread_id)
        count = _count_checkpoints(checkpoints.saver, thread_id)
        if hasattr(checkpoints.saver, "conn") and isinstance(checkpoints.saver.conn, sqlite3.Connection):
            checkpoints.saver.conn.execute("PRAGMA secure_delete = ON")  # freed pages zeroed in the file
        checkpoints.saver.delete_thread(thread_id)
        server_threads, server_runs = _forget_served_thread(checkpoints.saver, thread_id)
        deleted = log.forget_thread(thread_id)
    except Exception as error:
        if not is_checkpoint_failure(error):
            raise
        raise _store_error(
            error, settings, f"The conversation could not be erased from {checkpoints.description}"
        ) from error
    finally:
        checkpoints.close()
    logger.info(
        "Erased a conversation: %d checkpoints, %d served runs, %d logged turns.", count, server_runs, deleted
    )
    return Erased(
        thread_id=thread_id,
        checkpoints=count,
        logged_turns=deleted,
        feedback=sum(turn.feedback is not None for turn in turns),
        store=checkpoints.description,
        server_threads=server_threads,
        server_runs=server_runs,
    )
