"""What the two serving benchmarks share: the index, the in-process service and one API turn."""

from __future__ import annotations

import secrets
import sys
import time
from pathlib import Path
from typing import Any

from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.service import AgentService

# Generic visitor questions (the same list as the multi-process benchmark), not development questions.
from benchmarks.multiprocess_service import QUESTIONS  # noqa: F401  (re-exported)
from rag.config import RagSettings
from rag.retriever import HybridRetriever


def project_index() -> RagSettings:
    """The project's own index (``make index``), or one sentence and exit 2."""
    settings = RagSettings()
    if settings.chroma_host is None and not (settings.index_dir / "chroma.sqlite3").exists():
        print(f"No index in {settings.index_dir}: run `make index` first.", file=sys.stderr)
        raise SystemExit(2)
    return settings


def offline_service(index: RagSettings, folder: Path) -> AgentService:
    """The visitor page's service, offline model, answers not slowed down, its questions log on."""
    settings = AgentSettings(
        _env_file=None,
        provider="offline",
        offline_word_seconds=0.0,
        checkpoint_path=folder / "threads.sqlite",
    )
    return AgentService(settings=settings, retriever=HybridRetriever(index))


def service_turn(service: AgentService, question: str) -> float:
    """Seconds for one turn on a new thread through ``AgentService``."""
    started = time.perf_counter()
    result = service.ask(question, f"bench-{secrets.token_hex(8)}")
    if not isinstance(result, FinalAnswer) or not result.answer:
        raise RuntimeError(f"the service gave no answer: {result}")
    return time.perf_counter() - started


def token_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}


async def api_turn(client: Any, thread_id: str, question: str) -> dict[str, Any]:
    """One turn as the widget plays it: stream the run's answer tokens, then read the state."""
    async for part in client.runs.stream(
        thread_id,
        "visitor",
        input={"messages": [{"role": "user", "content": question}]},
        stream_mode="messages-tuple",  # the answer word by word; the typed reply is read from the state
    ):
        if part.event == "error":
            raise RuntimeError(f"the run failed: {part.data}")
    state = await client.threads.get_state(thread_id)
    values: dict[str, Any] = state["values"]
    if not (values.get("reply") or {}).get("text"):
        raise RuntimeError("the run ended without an answer")
    return values


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
