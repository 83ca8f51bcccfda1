"""What a visitor's ``DELETE /threads/{id}`` erases besides the server's own rows: the thread's
checkpoints (aegra-api 0.6.0 keeps them; ``langgraph dev`` deletes them itself), the streamed events of
its runs (Aegra keys them by run, so they outlive the runs it deletes with the thread) and its rows of
the questions log, feedback included: after a deletion no table holds what the visitor wrote."""

from __future__ import annotations

import asyncio
from typing import Any

from agents.runtime.erasure import ORPHAN_RUN_EVENTS
from agents.serving.claims import served_claims
from agents.serving.feedback import question_log


async def erase_deleted_thread(checkpointer: Any | None, thread_id: str) -> None:
    """Erase what the server left of ``thread_id`` once it has deleted the thread (``checkpointer``:
    Aegra's, or None on ``langgraph dev``)."""
    if checkpointer is not None:
        await checkpointer.adelete_thread(thread_id)
    claims = served_claims()
    if claims.database_url is not None:  # Aegra's database
        await claims.execute(ORPHAN_RUN_EVENTS, ())
    log = question_log()
    if log is not None:
        await asyncio.to_thread(log.forget_thread, thread_id)
