"""One question at a time per conversation on the served API, granted atomically on both servers.

A run request first claims its thread: in this process (a set the event loop checks and fills with no
``await`` between, so two requests of one process cannot both pass), then, on Aegra, across every process
sharing its PostgreSQL database (``pg_try_advisory_lock`` on the key the visitor page's turn locks use,
:func:`agents.conversations.turn_locks.thread_key`, held by one connection per process). The claim is
held until the server has finished every run the request started (streamed, awaited or in the
background) and is released after a failure too. The turn cap is counted while the claim is held, so
it is atomic as well.

Should a process die mid-answer (a crash, an OOM kill), PostgreSQL ends its session and the claims with
it; what the dead process left ``busy`` or ``running`` in Aegra's tables is settled when a server starts
and at each upkeep (:func:`settle_abandoned`), and after the thread's next run (:func:`settle`), so no
conversation stays busy.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import cache
from typing import Any

from agents.conversations.turn_locks import thread_key
from agents.serving.visitors import VisitorRefused

logger = logging.getLogger(__name__)

RUN_SECONDS_MAX = 900.0  # a claim outliving this is released with a warning: a stuck run frees its thread
POLL_SECONDS = 0.1
ACTIVE = ("pending", "running")  # Aegra's run statuses before an outcome
UNAVAILABLE = "Your question could not be taken in this conversation just now: ask again in a moment."
ABANDONED = "The server stopped during this run; the conversation accepts the next question."

ThreadRead = Callable[[], Awaitable[dict[str, Any] | None]]  # the server's view of the thread, as its owner


_background: set[asyncio.Task[Any]] = set()  # referenced until done: the event loop keeps weak ones


def in_background(work: Coroutine[Any, Any, Any]) -> None:
    """Run ``work`` in a task of its own, which no request's cancellation reaches."""
    task = asyncio.get_running_loop().create_task(work)
    _background.add(task)
    task.add_done_callback(_background.discard)


def advisory_key(thread_id: str) -> int:
    """The signed 64-bit key PostgreSQL's advisory locks take for ``thread_id``."""
    return int.from_bytes(thread_key(thread_id), "big", signed=True)


def aegra_runs() -> dict[str, asyncio.Task[Any]] | None:
    """Aegra's runs in progress in this process (run id to task), or None when Aegra is not the server."""
    runs = sys.modules.get("aegra_api.api.runs")
    return None if runs is None else runs.active_runs


def aegra_database_url() -> str | None:
    """The database Aegra serves from when Aegra runs this app (its ``DATABASE_URL``), else None."""
    module = sys.modules.get("aegra_api.settings")
    return None if module is None else str(module.settings.db.database_url_sync)


class ConversationClaims:
    """Claims on threads: in this process, and in PostgreSQL when ``database_url`` is given."""

    def __init__(self, database_url: str | None = None) -> None:
        self.database_url = database_url
        self._held: set[str] = set()
        self._connection: Any | None = None
        self._statement = asyncio.Lock()  # one statement at a time on the shared connection

    def held(self, thread_id: str) -> bool:
        return thread_id in self._held

    async def claim(self, thread_id: str) -> bool:
        """Whether this request may run on ``thread_id``: True for one request only until released."""
        if thread_id in self._held:
            return False
        self._held.add(thread_id)  # no await since the check above: one request of this process wins
        if self.database_url is None:
            return True
        asking = asyncio.ensure_future(self._ask("pg_try_advisory_lock", thread_id))
        try:
            granted = await asyncio.shield(asking)
        except asyncio.CancelledError:  # the client left: a lock granted meanwhile is given back
            asking.add_done_callback(lambda _: in_background(self.release(thread_id)))
            raise
        except Exception as error:
            self._held.discard(thread_id)
            logger.warning("A conversation could not be claimed (%s).", type(error).__name__)
            raise VisitorRefused(503, UNAVAILABLE) from error
        if not granted:
            self._held.discard(thread_id)
        return granted

    async def release(self, thread_id: str) -> None:
        """Give the thread back; the lock is released before the in-process mark, so that this
        process's next claim never stacks a second lock on the same session."""
        try:
            if self.database_url is not None and thread_id in self._held:
                await self._ask("pg_advisory_unlock", thread_id)
        except Exception as error:  # noqa: BLE001 - the session is gone, and its locks with it
            logger.warning("A conversation claim's connection was lost (%s): its lock went with it.", error)
        finally:
            self._held.discard(thread_id)

    async def execute(self, sql: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement on the claims' connection (rows, or [] when it returns none); a caller
        cancelled meanwhile does not interrupt it, which would leave the shared connection unusable."""
        return await asyncio.shield(self._execute(sql, values))

    async def _execute(self, sql: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        async with self._statement:
            connection = await self._connect()
            cursor = await connection.execute(sql, values)
            return list(await cursor.fetchall()) if cursor.description else []

    async def _ask(self, function: str, thread_id: str) -> bool:
        rows = await self.execute(f"SELECT {function}(%s)", (advisory_key(thread_id),))
        return bool(rows and rows[0][0])

    async def _connect(self) -> Any:
        import psycopg

        if self._connection is not None and not self._connection.closed and not self._connection.broken:
            return self._connection
        if self._connection is not None:  # other processes no longer see this process's claims
            logger.warning("The claims' connection was lost: reconnecting (%d held).", len(self._held))
        self._connection = await psycopg.AsyncConnection.connect(
            self.database_url or "", autocommit=True, connect_timeout=10
        )
        return self._connection

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None


@cache
def served_claims() -> ConversationClaims:
    """This process's claims: in PostgreSQL across processes on Aegra, in this process else."""
    return ConversationClaims(aegra_database_url())


async def _aegra_runs_over(claims: ConversationClaims, thread_id: str, deadline: float) -> bool:
    """Wait for this process's runs of the thread (Aegra starts each as a task); whether they ended."""
    rows = await claims.execute(
        "SELECT run_id FROM runs WHERE thread_id = %s AND status = ANY(%s)", (thread_id, list(ACTIVE))
    )
    live = aegra_runs() or {}
    tasks = [live[run_id] for (run_id,) in rows if run_id in live]
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
        return not pending
    return True


async def _served_run_over(read: ThreadRead, deadline: float) -> bool:
    """Wait until the server shows the thread no longer busy (``langgraph dev`` keeps it exactly)."""
    while time.monotonic() < deadline:
        thread = await read()
        if thread is None or thread.get("status") != "busy":
            return True
        await asyncio.sleep(POLL_SECONDS)
    return False


async def settle(claims: ConversationClaims, thread_id: str) -> None:
    """With the thread claimed, end what no live run holds in Aegra's tables: runs left pending or
    running by a process that died are marked failed, and the thread is idle again."""
    live = list(aegra_runs() or {})
    await claims.execute(
        "UPDATE runs SET status = 'error', error_message = %s, updated_at = now() "
        "WHERE thread_id = %s AND status = ANY(%s) AND NOT run_id = ANY(%s)",
        (ABANDONED, thread_id, list(ACTIVE), live),
    )
    await claims.execute(
        "UPDATE thread SET status = 'idle', updated_at = now() WHERE thread_id = %s AND status = 'busy' "
        "AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.thread_id = %s AND runs.status = ANY(%s))",
        (thread_id, thread_id, list(ACTIVE)),
    )


async def release_after_run(claims: ConversationClaims, thread_id: str, read: ThreadRead) -> None:
    """Release the claim once the server has finished the thread's run (at most :data:`RUN_SECONDS_MAX`)."""
    deadline = time.monotonic() + RUN_SECONDS_MAX
    try:
        if claims.database_url is not None and aegra_runs() is not None:
            over = await _aegra_runs_over(claims, thread_id, deadline)
            if over:
                await settle(claims, thread_id)
        else:
            over = await _served_run_over(read, deadline)
        if not over:
            logger.warning("A run of thread %s outlived %g s: its conversation is released.", thread_id,
                           RUN_SECONDS_MAX)  # fmt: skip
    except Exception:  # the claim must go whatever happened: a conversation is never left busy
        logger.exception("Waiting for the run of thread %s failed: its conversation is released.", thread_id)
    finally:
        await claims.release(thread_id)


async def run_claimed(
    claims: ConversationClaims, thread_id: str, forward: Callable[[], Awaitable[None]], read: ThreadRead
) -> None:
    """Hand the request to the server, then release the claim when its run is over. The release runs
    in a task of its own: a request cancelled by its client's disconnect neither cancels it nor skips it."""
    try:
        await forward()
    finally:
        in_background(release_after_run(claims, thread_id, read))


async def settle_abandoned(claims: ConversationClaims) -> int:
    """Settle every Aegra thread left busy, or with a run left in progress, that no live process claims
    (a server killed mid-answer); how many were settled."""
    rows = await claims.execute(
        "SELECT thread_id FROM thread WHERE status = 'busy' "
        "UNION SELECT thread_id FROM runs WHERE status = ANY(%s)",
        (list(ACTIVE),),
    )
    settled = 0
    for (thread_id,) in rows:
        if not await claims.claim(thread_id):
            continue  # a live run holds it
        try:
            await settle(claims, thread_id)
            settled += 1
        finally:
            await claims.release(thread_id)
    if settled:
        logger.info("Settled %d conversations a stopped server had left busy.", settled)
    return settled
