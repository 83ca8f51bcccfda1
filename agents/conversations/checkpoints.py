"""Where conversations are kept: a SQLite file beside the app (default) or PostgreSQL, shared by processes.

``AGENT_CHECKPOINT_URL=postgresql://…`` selects LangGraph's ``PostgresSaver`` over a psycopg 3
connection pool; its tables are created on first use (under an advisory lock, so replicas starting
together do not race). A database that cannot be reached is one :class:`CheckpointStoreError`
sentence; the URL's password never appears in it.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from agents.config import AgentSettings
from agents.conversations.postgres_url import describe_postgres
from agents.conversations.turn_locks import AdvisoryTurnLocks, FileTurnLocks, SharedTurnLock
from agents.errors import AgentError
from agents.graph.state import STATE_TYPES
from rag.redact import redact_text

logger = logging.getLogger(__name__)

SETUP_LOCK_KEY = 0x7669_7369_746F_7201  # any fixed bigint: one migration run at a time


def state_serializer() -> JsonPlusSerializer:
    """LangGraph's serializer, told which of our types a checkpoint may hold (the passages, the
    answer, the trace steps), so that it reads them back without warning or refusing them."""
    return JsonPlusSerializer(allowed_msgpack_modules=STATE_TYPES)


class CheckpointStoreError(AgentError, RuntimeError):
    """The conversation store cannot be used; ``str(error)`` is one sentence saying what to do."""


@dataclass
class Checkpoints:
    """A checkpointer, the lock that serialises a thread's turns across processes, and how to close."""

    saver: BaseCheckpointSaver[Any]
    shared_lock: SharedTurnLock
    description: str  # for sentences: which store, never a password
    close: Callable[[], None]


def failure_reason(error: BaseException, url: str | None = None) -> str:
    """The first line of an error, without the URL's credentials: psycopg adds hints on further lines,
    and libpq quotes the whole URL, or a password it could not decode, in its message."""
    lines = str(error).strip().splitlines()
    reason = lines[0].strip() if lines else type(error).__name__
    reason = reason.removeprefix("connection failed: ")
    return redact_text(reason, [url] if url else [])


def is_checkpoint_failure(error: BaseException) -> bool:
    """Whether ``error`` came from the conversation store (SQLite or PostgreSQL)."""
    if isinstance(error, sqlite3.Error):
        return True
    import sys

    psycopg = sys.modules.get("psycopg")  # imported only when PostgreSQL is configured
    return psycopg is not None and isinstance(error, psycopg.Error)


def open_checkpoints(settings: AgentSettings) -> Checkpoints:
    """The store the settings ask for: PostgreSQL with ``AGENT_CHECKPOINT_URL``, else the SQLite file."""
    if settings.checkpoint_url is not None:
        return _open_postgres(settings.checkpoint_url.get_secret_value(), settings)
    return _open_sqlite(settings)


def _open_sqlite(settings: AgentSettings) -> Checkpoints:
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = settings.checkpoint_path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # The timeout is how long a write waits for another process's write to the same file.
        connection = sqlite3.connect(
            str(path), check_same_thread=False, timeout=settings.checkpoint_timeout_seconds
        )
    except (OSError, sqlite3.Error) as error:
        raise CheckpointStoreError(
            f"The conversation file {path} cannot be opened ({failure_reason(error)}): "
            "check AGENT_CHECKPOINT_PATH and the folder's permissions."
        ) from error
    return Checkpoints(
        saver=SqliteSaver(connection, serde=state_serializer()),  # creates its tables on first use
        shared_lock=FileTurnLocks(path.parent / f"{path.name}.turn-locks"),
        description=f"the conversation file {path}",
        close=connection.close,
    )


def _take_setup_lock(connection: Any, timeout_seconds: float) -> None:
    """Take the migration lock by polling ``pg_try_advisory_lock``, never by waiting in the server.

    LangGraph's migrations run ``CREATE INDEX CONCURRENTLY``, which waits for every open
    transaction to end; a second process blocked inside ``pg_advisory_lock`` is such a transaction,
    so the two would deadlock. Each try here is a transaction that ends at once.
    """
    import psycopg

    deadline = time.monotonic() + max(timeout_seconds, 30.0)  # a first migration takes seconds
    while not connection.execute("SELECT pg_try_advisory_lock(%s) AS taken", (SETUP_LOCK_KEY,)).fetchone()[
        "taken"
    ]:
        if time.monotonic() > deadline:
            raise psycopg.OperationalError("another process has been creating the tables too long")
        time.sleep(0.1)


def _open_postgres(url: str, settings: AgentSettings) -> Checkpoints:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    description = describe_postgres(url)
    connect_timeout = max(2, round(settings.checkpoint_timeout_seconds))  # libpq wants whole seconds
    options: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    pools: list[ConnectionPool[Any]] = []
    try:
        with psycopg.connect(url, connect_timeout=connect_timeout, **options) as connection:
            _take_setup_lock(connection, settings.checkpoint_timeout_seconds)
            PostgresSaver(connection).setup()  # creates or migrates the tables; idempotent
            connection.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))
        # Two pools: a turn holds a lock connection for its whole length, and must never starve the
        # checkpoint writes of the turns holding the others.
        pools = [
            ConnectionPool(
                url,
                min_size=1,
                max_size=settings.checkpoint_pool_size,
                timeout=settings.checkpoint_timeout_seconds,
                kwargs={**options, "connect_timeout": connect_timeout},
                open=False,
                name=name,
            )
            for name in ("checkpoints", "turn-locks")
        ]
        for pool in pools:
            pool.open(wait=True, timeout=settings.checkpoint_timeout_seconds)
    except psycopg.Error as error:
        for pool in pools:
            pool.close()
        raise CheckpointStoreError(
            f"{description} cannot be used for conversations ({failure_reason(error, url)}): "
            "check AGENT_CHECKPOINT_URL and that the server is running, or unset it to use the SQLite file."
        ) from error

    def close() -> None:
        for pool in pools:
            pool.close()

    savers, locks = pools
    return Checkpoints(
        saver=PostgresSaver(savers, serde=state_serializer()),
        shared_lock=AdvisoryTurnLocks(locks),
        description=description,
        close=close,
    )
