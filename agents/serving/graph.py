"""The factory ``langgraph.json`` and ``aegra.json`` serve as ``visitor``.

The servers load this file by its path, as a module of its own beside ``agents.serving.graph`` imported
by name (the server's lifespan imports that one): anything kept here would exist twice, so the graph,
built and warmed once per process, is kept in :mod:`agents.serving.served_graph`, which both import by
name.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents.serving.served_graph import built_graph


async def visitor_graph() -> Any:
    """The factory the servers call (Aegra awaits it once; ``langgraph dev`` per run): the build reads
    files, so it runs in a worker thread, never on the server's event loop."""
    return await asyncio.to_thread(built_graph)
