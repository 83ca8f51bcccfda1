"""The graph the servers serve as ``visitor`` (:mod:`agents.serving.graph` hands it to them): the
app's graph, tools and model built from the same settings (:mod:`agents.runtime.assembly`), ending with the
questions log, and without a checkpointer: the server keeps the threads (in memory for
``langgraph dev``, in PostgreSQL for Aegra).

A served turn is saved once, when it ends, as on every door (:mod:`agents.runtime.turn_graph`): Aegra
would otherwise write a checkpoint and its pending writes to PostgreSQL after each of the turn's ten
steps, and keep them all. ``langgraph dev`` takes the durability from each run request (``"async"``
unless the client asks), which costs nothing measurable in memory.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from functools import cache
from typing import Any

from agents.config import AgentSettings
from agents.insights.store import QuestionLog
from agents.runtime.assembly import build_parts
from agents.runtime.record import RecordTurn
from agents.runtime.turn_graph import question_recorder, turn_graph
from agents.runtime.warmup import warm_up

logger = logging.getLogger(__name__)


def served_recorder(settings: AgentSettings) -> RecordTurn | None:
    """How a served turn reaches the questions log (the one the visitor page writes), or None when
    ``AGENT_QUESTIONS_LOG`` is off."""
    if not settings.questions_log:
        return None
    return question_recorder(settings, QuestionLog.for_settings(settings, pooled=True))  # a write per turn


def served_graph(settings: AgentSettings, warm: bool = False) -> Any:
    """The compiled graph for ``settings``; persistence is the server's, once per turn. ``warm``:
    what a first answer needs in every language is loaded before it is returned
    (:mod:`agents.runtime.warmup`)."""
    parts = build_parts(settings)
    if warm:
        warm_up(parts)
    return turn_graph(parts, checkpointer=None, recorder=served_recorder(settings))


_building = threading.Lock()


@cache
def _visitor_graph() -> Any:
    return served_graph(AgentSettings(), warm=True)


def built_graph() -> Any:
    """The served graph, built and warmed up once per process from ``AGENT_*``, ``RAG_*`` and
    ``TOOLS_*`` in the environment or ``.env``, as for ``make run`` (the index and the model load
    once). The server's lifespan starts it as the server starts (:func:`warm_in_background`). Once per
    process because this module is imported by name: the servers load ``graph.py`` by its path, a
    second copy of that file's globals, which is why the cache and its lock are not there."""
    with _building:  # two first runs at once build it once
        return _visitor_graph()


async def warm_in_background() -> Any:
    """Build and warm the served graph in a worker thread, off the server's event loop, as the server
    starts; a failure is logged and the first run meets it (None then)."""
    try:
        return await asyncio.to_thread(built_graph)
    except Exception as error:  # noqa: BLE001 - the server keeps starting; runs report the problem
        logger.warning("The served graph could not be built at start (%s: %s).", type(error).__name__, error)
        return None
