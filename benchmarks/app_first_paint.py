"""What a visitor waits for in the app: first paint, ready to answer, first answer; cold and warm.

Starts ``streamlit run`` on 127.0.0.1 over an index of the bundled corpus (offline model), opens
Debian's chromium through Playwright at phone size, and times from the navigation:

- **first paint**: the title is visible (the page is usable: input and examples are drawn with it);
- **ready**: the models are loaded (the offline-mode note, drawn after the service, is visible);
- **first answer**: a question typed at that point until its sources are listed.

Cold is a server process started for the measurement (its first session loads the models); warm is
a new browser session on the same server. Run: ``python -m benchmarks.app_first_paint [--runs 3]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app_ui.labels import Labels
from benchmarks._common import ROOT, save_result
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus

CHROMIUM = "/usr/bin/chromium"
QUESTION = "Quels sont les horaires d'ouverture du château ?"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_server(index_dir: Path, state: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "RAG_INDEX_DIR": str(index_dir),
        "AGENT_PROVIDER": "offline",
        "AGENT_CHECKPOINT_PATH": str(state / "threads.sqlite"),
        "HF_HUB_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"),
        "--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
        "--server.fileWatcherType=none", "--browser.gatherUsageStats=false",
    ]  # fmt: skip
    return subprocess.Popen(command, env=env, cwd=state, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_healthy(url: str, timeout: float = 90) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        try:
            if httpx.get(f"{url}/_stcore/health", timeout=1).status_code == 200:
                return time.perf_counter() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the app did not start")


def _visit(browser: Any, url: str) -> dict[str, float]:
    """One new browser session: seconds to first paint, to ready, and for a first answer."""
    from playwright.sync_api import expect

    french = Labels("fr")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True)
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    expect(page.get_by_text(french["title"])).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible()
    painted = time.perf_counter() - started
    expect(page.get_by_text(french["offline_notice"])).to_be_visible(timeout=120_000)
    ready = time.perf_counter() - started
    asked = time.perf_counter()
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(QUESTION)
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(1)
    expect(answer).to_contain_text(french["sources"], timeout=120_000)
    answered = time.perf_counter() - asked
    context.close()
    return {
        "first_paint_s": round(painted, 2),
        "ready_s": round(ready, 2),
        "first_answer_s": round(answered, 2),
    }


def measure(runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        index_dir = Path(folder) / "index"
        index_corpus([DEFAULT_CORPUS], RagSettings(_env_file=None, index_dir=index_dir))
        cold, warm, starts = [], [], []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            for run in range(runs):
                port, state = _free_port(), Path(folder) / f"state-{run}"
                state.mkdir()
                server = _start_server(index_dir, state, port)
                try:
                    url = f"http://127.0.0.1:{port}"
                    starts.append(round(_wait_healthy(url), 2))
                    cold.append(_visit(browser, url))
                    warm.append(_visit(browser, url))
                finally:
                    server.terminate()
                    server.wait(timeout=30)
            browser.close()

    def medians(rows: list[dict[str, float]]) -> dict[str, float]:
        return {key: round(statistics.median(row[key] for row in rows), 2) for key in rows[0]}

    return {
        "runs": runs,
        "server_start_s": statistics.median(starts),
        "cold": medians(cold),
        "warm": medians(warm),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    figures = measure(parser.parse_args().runs)
    print(f"App timings at 390x844, median of {figures['runs']} runs (seconds from navigation):")
    print(f"  server process to healthy: {figures['server_start_s']}")
    print("  session | first paint | ready to answer | first answer")
    for name in ("cold", "warm"):
        row = figures[name]
        print(f"  {name:7} | {row['first_paint_s']:11} | {row['ready_s']:15} | {row['first_answer_s']}")
    save_result("app_first_paint", figures)


if __name__ == "__main__":
    main()
