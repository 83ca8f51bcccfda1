"""The served API's own upkeep, started with the app (its lifespan, which both servers run): no cron.

On Aegra, when the server starts and every ``AGENT_API_UPKEEP_SECONDS``: conversations a stopped server
left busy are settled (:func:`agents.serving.claims.settle_abandoned`), and the retentions are applied as
``python -m agents prune`` applies them (:func:`agents.runtime.erasure.prune`), to Aegra's own tables too:
conversations unused past ``AGENT_CONVERSATION_RETENTION_DAYS`` go with their runs, streamed events and
checkpoints, and logged questions past ``AGENT_QUESTIONS_RETENTION_DAYS``. ``langgraph dev`` keeps its
threads in its own files (``.langgraph_api/``), out of reach: it is for development only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from pydantic import SecretStr

from agents.config import AgentSettings
from agents.runtime.erasure import prune
from agents.serving.claims import aegra_database_url, served_claims, settle_abandoned
from agents.serving.settings import ServingSettings

logger = logging.getLogger(__name__)


def served_settings(database_url: str) -> AgentSettings:
    """The agent's settings with the conversations in Aegra's database, where the served ones are (the
    questions log is there too when ``AGENT_CHECKPOINT_URL`` names it, as docs/deploy.md does; elsewhere
    it applies its retention as turns arrive)."""
    return AgentSettings().model_copy(update={"checkpoint_url": SecretStr(database_url)})


async def upkeep_once() -> None:
    """One pass on Aegra (nothing on ``langgraph dev``)."""
    database_url = aegra_database_url()
    if database_url is None:
        return
    await settle_abandoned(served_claims())
    pruned = await asyncio.to_thread(prune, served_settings(database_url))
    if pruned.server_threads:
        logger.info("Deleted %d served conversations past their retention.", pruned.server_threads)


async def keep_up(every: float) -> None:
    """:func:`upkeep_once` now, then every ``every`` seconds; a failed pass is logged and retried."""
    while True:
        try:
            await upkeep_once()
        except Exception:  # the next pass tries again; the API keeps answering meanwhile
            logger.exception("The served API's upkeep failed: it runs again in %g s.", every)
        await asyncio.sleep(every)


@asynccontextmanager
async def upkeep(app: Any) -> AsyncIterator[None]:
    """The app's lifespan: the upkeep runs beside the server until it stops."""
    task = asyncio.get_running_loop().create_task(keep_up(ServingSettings().upkeep_seconds))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        await served_claims().close()
