"""One turn at a time per conversation, in this process and across processes sharing the checkpoints.

LangGraph checkpoints are last-write-wins: two turns of one thread answered at once (two browser
tabs, two replicas) would each write a history without the other's turn, and one would be lost.
So a turn first takes an in-process lock for its thread id, then a lock every process sharing the
checkpoints sees (a file lock beside the SQLite file, a PostgreSQL advisory lock); each wait is
bounded, and a turn that cannot get its lock in time is refused with :class:`TurnBusy`.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from agents.errors import AgentError

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)

FILE_LOCK_STRIPES = 256  # lock files beside the SQLite file: bounded, whatever the number of threads


class TurnBusy(AgentError, RuntimeError):
    """A turn could not start in time: another turn of its conversation held the lock, or no room."""

    def __init__(self, waited: float, message: str | None = None) -> None:
        self.same_conversation = message is None  # else: the process had no room for another turn
        super().__init__(
            message
            or f"Another answer in this conversation was still being written after {waited:g} s: "
            "wait for it to finish, then ask again."
        )


def thread_key(thread_id: str) -> bytes:
    """A fixed-size digest of a thread id (ids are visitor-chosen text of any length)."""
    return hashlib.blake2b(thread_id.encode("utf-8"), digest_size=8).digest()


class SharedTurnLock(Protocol):
    """A lock on one thread id that every process sharing the checkpoints sees."""

    def hold(self, thread_id: str, timeout: float) -> AbstractContextManager[None]: ...


class ThreadIdLocks:
    """In-process locks keyed by thread id; a key's lock lives only while someone holds or awaits it."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    def _enter(self, key: str) -> threading.Lock:
        with self._guard:
            lock, users = self._locks.get(key, (threading.Lock(), 0))
            self._locks[key] = (lock, users + 1)
            return lock

    def _leave(self, key: str) -> None:
        with self._guard:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    @contextmanager
    def hold(self, thread_id: str, timeout: float) -> Iterator[None]:
        lock = self._enter(thread_id)
        try:
            if not lock.acquire(timeout=timeout):
                raise TurnBusy(timeout)
            try:
                yield
            finally:
                lock.release()
        finally:
            self._leave(thread_id)

    def __len__(self) -> int:
        return len(self._locks)


class FileTurnLocks:
    """Cross-process turn locks for the SQLite checkpointer: ``flock`` on one of 256 files in a folder.

    Two threads may share a lock file (a stripe): they then wait for each other, never lose a turn.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @contextmanager
    def hold(self, thread_id: str, timeout: float) -> Iterator[None]:
        import filelock

        self.folder.mkdir(parents=True, exist_ok=True)
        stripe = int.from_bytes(thread_key(thread_id), "big") % FILE_LOCK_STRIPES
        lock = filelock.FileLock(
            self.folder / f"{stripe:02x}.lock", timeout=timeout, thread_local=False, preserve_lock_file=True
        )
        try:
            lock.acquire()
        except filelock.Timeout as error:
            raise TurnBusy(timeout) from error
        try:
            yield
        finally:
            lock.release()


class AdvisoryTurnLocks:
    """Cross-process turn locks for the PostgreSQL checkpointer: ``pg_advisory_lock`` on the thread id.

    The lock is held by one pooled connection for the whole turn; should that process die, PostgreSQL
    ends its session and releases the lock, so a crashed replica never blocks a conversation.
    """

    def __init__(self, pool: ConnectionPool[Any]) -> None:
        self.pool = pool  # its own pool: turns holding locks must never starve the checkpoint writes

    @contextmanager
    def hold(self, thread_id: str, timeout: float) -> Iterator[None]:
        from psycopg import errors
        from psycopg_pool import PoolTimeout

        key = int.from_bytes(thread_key(thread_id), "big", signed=True)
        with ExitStack() as stack:
            try:
                connection = stack.enter_context(self.pool.connection(timeout=max(timeout, 0.1)))
            except PoolTimeout as error:
                raise TurnBusy(
                    timeout,
                    f"This app process is already answering {self.pool.max_size} conversations: ask "
                    "again in a moment (operators: raise AGENT_CHECKPOINT_POOL_SIZE or add a replica).",
                ) from error
            _advisory_lock(connection, key, timeout)
            try:
                yield
            finally:
                try:
                    connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
                except errors.OperationalError:  # the session is gone, and its locks with it
                    logger.warning("The turn lock's connection was lost; PostgreSQL released the lock.")


def _advisory_lock(connection: Any, key: int, timeout: float) -> None:
    """Take the session-level advisory lock ``key``, waiting at most ``timeout`` seconds."""
    from psycopg import errors

    if timeout <= 0:  # lock_timeout 0 would mean "wait forever"
        row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        if not row or not _first(row):
            raise TurnBusy(timeout)
        return
    # lock_timeout bounds the wait for an advisory lock like for any other lock.
    connection.execute("SELECT set_config('lock_timeout', %s, false)", (f"{timeout * 1000:.0f}",))
    try:
        connection.execute("SELECT pg_advisory_lock(%s)", (key,))
    except errors.LockNotAvailable as error:
        raise TurnBusy(timeout) from error
    finally:
        connection.execute("SELECT set_config('lock_timeout', '0', false)")


def _first(row: Any) -> Any:
    """The first column of a row, whichever row factory the pool uses."""
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


class TurnLocks:
    """The in-process lock, then the shared one (if any), sharing one bounded wait."""

    def __init__(self, shared: SharedTurnLock | None = None) -> None:
        self.local = ThreadIdLocks()
        self.shared = shared

    @contextmanager
    def hold(self, thread_id: str, timeout: float) -> Iterator[None]:
        started = time.monotonic()
        with self.local.hold(thread_id, timeout):
            left = max(0.0, timeout - (time.monotonic() - started))
            shared = self.shared.hold(thread_id, left) if self.shared else nullcontext()
            try:
                with shared:
                    yield
            except TurnBusy as busy:
                if busy.same_conversation:  # say how long the visitor waited in all
                    raise TurnBusy(timeout) from None
                raise
