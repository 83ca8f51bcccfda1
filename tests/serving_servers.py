"""The two LangGraph servers started on 127.0.0.1 for tests and benchmarks: ``langgraph dev`` (threads in
memory) and Aegra on a PostgreSQL database, each serving the repository's own configuration file.

``env`` says everything the agent reads (the variables win over a developer's ``.env``). Both run in the
repository, as the documented commands do: they import the auth module and the front door from there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import IO

from rag.config import RagSettings
from tests.conftest import REPO_ROOT, BundledIndex
from tests.local_server import free_port, running_server

BIN = Path(sys.executable).parent
# The front door's limits lifted, for benchmarks that drive the server from one address at full speed.
UNLIMITED = {
    name: "100000/minute"
    for name in (
        "AGENT_API_RATE_LIMIT",
        "AGENT_API_ADDRESS_RATE_LIMIT",
        "AGENT_API_ADDRESS_CONVERSATION_LIMIT",
        "AGENT_API_ADDRESS_RUN_LIMIT",
        "AGENT_API_RUN_BUDGET",
        "AGENT_API_CONVERSATION_BUDGET",
    )
}


def offline_agent_env(index: BundledIndex | RagSettings, folder: Path, **extra: str) -> dict[str, str]:
    """The environment of a server answering with the offline model over ``index``."""
    settings = index.settings if isinstance(index, BundledIndex) else index
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("AGENT_", "RAG_", "TOOLS_", "DATABASE_", "POSTGRES_", "LANG"))
    }
    env.update(
        {
            "AGENT_PROVIDER": "offline",
            "AGENT_OFFLINE_WORD_SECONDS": "0",
            "AGENT_CHECKPOINT_PATH": str(folder / "threads.sqlite"),  # the questions log, without a URL
            "RAG_INDEX_DIR": str(settings.index_dir),
            "RAG_COLLECTION": settings.collection,
            "RAG_CHUNK_SIZE": str(settings.chunk_size),
            "RAG_CHUNK_OVERLAP": str(settings.chunk_overlap),
            "RAG_EMBEDDING_PROVIDER": settings.embedding_provider,
            "TOOLS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
            "LANGSMITH_TRACING": "false",
            "LANGCHAIN_TRACING_V2": "false",
            "NO_PROXY": "127.0.0.1,localhost",
        }
    )
    env.update(extra)
    return env


@contextmanager
def langgraph_dev(env: dict[str, str], output: IO[bytes] | int) -> Iterator[str]:
    """``langgraph dev`` (what ``make api`` starts) on a free port; yields its URL."""
    port = free_port()
    command = [str(BIN / "langgraph"), "dev", "--config", str(REPO_ROOT / "langgraph.json"), "--no-browser",
               "--no-reload", "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    env = {**env, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}  # as make api: nothing posted to LangChain
    with running_server(command, f"{url}/ok", timeout=180, cwd=REPO_ROOT, env=env, output=output):
        yield url


def aegra_config(folder: Path, origins: list[str]) -> Path:
    """The repository's ``aegra.json`` written in ``folder`` with its pieces' absolute paths and the
    test page's ``origins`` allowed (CORS), as a museum edits it before going live."""
    config = json.loads((REPO_ROOT / "aegra.json").read_text())
    config["dependencies"] = [str(REPO_ROOT)]
    config["graphs"] = {name: str(REPO_ROOT / path) for name, path in config["graphs"].items()}
    config["auth"]["path"] = str(REPO_ROOT / config["auth"]["path"])
    config["http"]["app"] = str(REPO_ROOT / config["http"]["app"])
    config["http"]["cors"]["allow_origins"] = origins
    path = folder / "aegra.json"
    path.write_text(json.dumps(config, indent=2))
    return path


@contextmanager
def aegra(
    env: dict[str, str], database_url: str, output: IO[bytes] | int, config: Path = REPO_ROOT / "aegra.json"
) -> Iterator[str]:
    """Aegra (the production server) on ``database_url``, as docs/deploy.md starts it; yields its URL."""
    with aegra_process(env, database_url, output, config) as (url, _):
        yield url


@contextmanager
def aegra_process(
    env: dict[str, str], database_url: str, output: IO[bytes] | int, config: Path = REPO_ROOT / "aegra.json"
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """:func:`aegra`, yielding its process too (a test may kill it)."""
    port = free_port()
    env = {**env, "DATABASE_URL": database_url, "AEGRA_CONFIG": str(config)}
    command = [str(BIN / "python"), "-m", "uvicorn", "aegra_api.main:app", "--host", "127.0.0.1",
               "--port", str(port)]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    health = f"{url}/health"
    with running_server(command, health, timeout=180, cwd=REPO_ROOT, env=env, output=output) as server:
        yield url, server


def enter_together(stack: ExitStack, managers: dict[str, AbstractContextManager[str]]) -> dict[str, str]:
    """Enter ``managers`` in threads at once, each then left to ``stack``; their values by name."""
    with ThreadPoolExecutor(len(managers)) as pool:
        entering = {name: pool.submit(manager.__enter__) for name, manager in managers.items()}
    for name, future in entering.items():
        if future.exception() is None:
            stack.push(managers[name].__exit__)
    return {name: future.result() for name, future in entering.items()}
