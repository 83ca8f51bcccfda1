"""Bounded conversations: a thread keeps its last checkpoints only, and old threads are forgotten.

LangGraph writes a checkpoint per step, each holding the whole conversation, so a thread grew with
the square of its turns. A later turn needs only the latest checkpoint (and its pending writes,
which keep the question of a failed turn), so after each turn the older ones are deleted with
their writes and, in PostgreSQL, the channel blobs no kept checkpoint refers to.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.base.id import UUID

logger = logging.getLogger(__name__)

UUID_EPOCH_OFFSET = 0x01B21DD213814000  # 100 ns intervals from 1582-10-15 to 1970-01-01

# Checkpoint ids are version-6 UUIDs, which sort by time: the newest ``keep`` per namespace stay.
_DELETE_OLDER_CHECKPOINTS = """
DELETE FROM checkpoints WHERE thread_id = {thread} AND checkpoint_id NOT IN (
    SELECT kept.checkpoint_id FROM checkpoints AS kept
    WHERE kept.thread_id = checkpoints.thread_id AND kept.checkpoint_ns = checkpoints.checkpoint_ns
    ORDER BY kept.checkpoint_id DESC LIMIT {keep})
"""
_DELETE_ORPHAN_WRITES = """
DELETE FROM {writes} WHERE thread_id = {thread} AND NOT EXISTS (
    SELECT 1 FROM checkpoints AS kept
    WHERE kept.thread_id = {writes}.thread_id AND kept.checkpoint_ns = {writes}.checkpoint_ns
    AND kept.checkpoint_id = {writes}.checkpoint_id)
"""
_DELETE_ORPHAN_BLOBS = """
DELETE FROM checkpoint_blobs WHERE thread_id = %(thread)s AND NOT EXISTS (
    SELECT 1 FROM checkpoints AS kept
    WHERE kept.thread_id = checkpoint_blobs.thread_id AND kept.checkpoint_ns = checkpoint_blobs.checkpoint_ns
    AND kept.checkpoint -> 'channel_versions' ->> checkpoint_blobs.channel = checkpoint_blobs.version)
"""
_STALE_THREADS = "SELECT thread_id FROM checkpoints GROUP BY thread_id HAVING MAX(checkpoint_id) < {cutoff}"


def _is_sqlite(saver: BaseCheckpointSaver[Any]) -> bool:
    from langgraph.checkpoint.sqlite import SqliteSaver

    return isinstance(saver, SqliteSaver)


def is_postgres(saver: BaseCheckpointSaver[Any]) -> bool:
    import sys

    module = sys.modules.get("langgraph.checkpoint.postgres")  # imported only when configured
    return module is not None and isinstance(saver, module.PostgresSaver)


@contextmanager
def postgres_transaction(saver: Any) -> Iterator[Any]:
    """A connection of the saver's pool (or its own connection) inside one transaction."""
    from psycopg import Connection

    if isinstance(saver.conn, Connection):
        with saver.lock, saver.conn.transaction():
            yield saver.conn
        return
    with saver.conn.connection() as connection, connection.transaction():
        yield connection


def keep_latest_checkpoints(saver: BaseCheckpointSaver[Any], thread_id: str, keep: int) -> None:
    """Delete all but the ``keep`` latest checkpoints of ``thread_id`` with what only they use.

    Another kind of saver (tests use an in-memory one) is left alone.
    """
    if _is_sqlite(saver):
        values = {"thread": thread_id, "keep": keep}
        with saver.cursor() as cursor:  # type: ignore[attr-defined]
            cursor.execute(_DELETE_OLDER_CHECKPOINTS.format(thread=":thread", keep=":keep"), values)
            cursor.execute(_DELETE_ORPHAN_WRITES.format(writes="writes", thread=":thread"), values)
    elif is_postgres(saver):
        values = {"thread": thread_id, "keep": keep}
        with postgres_transaction(saver) as connection:
            connection.execute(_DELETE_OLDER_CHECKPOINTS.format(thread="%(thread)s", keep="%(keep)s"), values)
            connection.execute(
                _DELETE_ORPHAN_WRITES.format(writes="checkpoint_writes", thread="%(thread)s"), values
            )
            connection.execute(_DELETE_ORPHAN_BLOBS, values)


def checkpoint_id_at(seconds: float) -> str:
    """The smallest checkpoint id LangGraph could give at ``seconds`` (Unix time)."""
    timestamp = int(seconds * 10_000_000) + UUID_EPOCH_OFFSET
    value = ((timestamp >> 12) & 0xFFFFFFFFFFFF) << 80 | (timestamp & 0x0FFF) << 64
    return str(UUID(int=value, version=6))


def forget_old_threads(saver: BaseCheckpointSaver[Any], days: float, now: float | None = None) -> int:
    """Delete every thread whose last checkpoint is older than ``days``; returns how many."""
    cutoff = checkpoint_id_at((time.time() if now is None else now) - days * 86400)
    if _is_sqlite(saver):
        with saver.cursor() as cursor:  # type: ignore[attr-defined]
            threads = [row[0] for row in cursor.execute(_STALE_THREADS.format(cutoff="?"), (cutoff,))]
    elif is_postgres(saver):
        with postgres_transaction(saver) as connection:
            rows = connection.execute(_STALE_THREADS.format(cutoff="%s"), (cutoff,)).fetchall()
            threads = [row["thread_id"] for row in rows]
    else:
        return 0
    for thread_id in threads:
        saver.delete_thread(thread_id)
    if threads:
        logger.info("Forgot %d conversations older than %s days.", len(threads), days)
    return len(threads)
