"""How the app is started: `make run PORT=...` without a file watcher, `make dev` with one."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _streamlit_line(*make_args: str) -> str:
    """The `streamlit run` command a make target would run (``make -n`` prints it, runs nothing)."""
    listed = subprocess.run(
        ["make", "-n", *make_args], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout
    return next(line for line in listed.splitlines() if "streamlit run" in line)


def test_run_serves_on_the_port_given_and_8501_by_default() -> None:
    assert "--server.port 8600" in _streamlit_line("run", "PORT=8600")
    assert "--server.port 8501" in _streamlit_line("run")
    assert "--server.address 127.0.0.1" in _streamlit_line("run")  # the console opens locally only
    assert "--server.address 0.0.0.0" in _streamlit_line("run", "ADDRESS=0.0.0.0")


def test_corpus_names_what_is_indexed_before_the_app_starts() -> None:
    command = ["make", "-n", "run", "CORPUS=../shared/data/versailles"]
    listed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=True).stdout
    assert "-m rag index ../shared/data/versailles\n" in listed


def test_dev_turns_the_watcher_and_run_on_save_on() -> None:
    line = _streamlit_line("dev")
    assert "--server.fileWatcherType auto" in line and "--server.runOnSave true" in line
    assert "fileWatcherType" not in _streamlit_line("run")  # run keeps the project's "none"


def test_streamlit_reads_no_file_watcher_from_the_project_config() -> None:
    # A fresh interpreter in the project root, as `streamlit run` is: Streamlit's config is global.
    code = (
        "from streamlit import config; config.get_config_options(force_reparse=True); "
        "print(config.get_option('server.fileWatcherType'), config.get_option('server.maxUploadSize'))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown == ["none", "20"]


def _make_line(target: str, needle: str, *make_args: str) -> str:
    listed = subprocess.run(
        ["make", "-n", target, *make_args], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout
    return next(line for line in listed.splitlines() if needle in line)


def test_api_serves_the_graph_with_langgraph_dev_on_the_port_given_and_2024_by_default() -> None:
    line = _make_line("api", "langgraph dev")
    assert "--port 2024" in line and "--host 127.0.0.1" in line and "--no-reload" in line
    assert 'CORS_ALLOW_ORIGINS="http://localhost:8080,http://127.0.0.1:8080"' in line
    assert "--port 8600" in _make_line("api", "langgraph dev", "PORT=8600")
    assert 'CORS_ALLOW_ORIGINS="https://museum.example"' in _make_line(
        "api", "langgraph dev", "ORIGINS=https://museum.example"
    )
