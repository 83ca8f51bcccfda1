"""docs/deploy.md's nginx recipe, replayed against the real app: the headers its ``proxy_set_header``
lines give the websocket are accepted by Streamlit, and the request nginx would send without the
``Host`` line is refused (so the replay can tell the two apart)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from socket import create_connection

import pytest

from app_ui.login_guard import forwarded_for
from tests.conftest import PROVIDER_VARIABLES, REPO_ROOT
from tests.local_server import free_port, running_server

PUBLIC = "visit.example.org"
# What nginx puts in the variables the recipe uses, for a browser on https://visit.example.org.
NGINX_VARIABLES = {
    "$http_upgrade": "websocket",
    "$http_host": PUBLIC,
    "$host": PUBLIC,
    "$proxy_add_x_forwarded_for": "203.0.113.5",
    "$remote_addr": "203.0.113.5",
    "$scheme": "https",
}


def recipe_headers() -> dict[str, str]:
    """The headers nginx sends upstream under docs/deploy.md's recipe (``Host`` defaults to the
    upstream's name, as nginx does when no line sets it)."""
    text = (REPO_ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block, "docs/deploy.md has no nginx block"
    upstream = re.search(r"proxy_pass\s+https?://([^;/\s]+)", block.group(1))
    assert upstream
    headers = {"Host": upstream.group(1)}
    for name, value in re.findall(r"proxy_set_header\s+(\S+)\s+(\"[^\"]*\"|\S+);", block.group(1)):
        value = value.strip('"')
        headers[name] = NGINX_VARIABLES.get(value, value)
    return headers


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app as deployed behind the proxy (every interface, no index, offline model)."""
    tmp_path = tmp_path_factory.mktemp("proxy")
    env = {name: value for name, value in os.environ.items() if name not in PROVIDER_VARIABLES}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        RAG_INDEX_DIR=str(tmp_path / "index"),
        AGENT_PROVIDER="offline",
        AGENT_CHECKPOINT_PATH=str(tmp_path / "threads.sqlite"),
        HF_HUB_OFFLINE="1",
        NO_PROXY="127.0.0.1,localhost",
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "streamlit", "run", str(REPO_ROOT / "streamlit_app.py"),
               "--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
               "--browser.gatherUsageStats=false"]  # fmt: skip
    with (
        (tmp_path / "streamlit.log").open("wb") as log,
        running_server(command, f"{url}/_stcore/health", timeout=60, cwd=REPO_ROOT, env=env, output=log),
    ):
        yield url


def _session_opens(url: str, headers: dict[str, str]) -> bool:
    """Whether Streamlit starts a session on a websocket opened with these headers (as nginx would);
    a refused handshake or a closed socket is a no."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    skipped = ("upgrade", "connection", "host")  # the client writes these itself
    sent = {name: value for name, value in headers.items() if name.lower() not in skipped}
    sent["Origin"] = f"https://{PUBLIC}"  # the visitor's browser's, passed on by nginx
    port = int(url.rsplit(":", 1)[1])
    try:
        socket = connect(
            f"ws://{headers['Host']}/_stcore/stream",  # the Host header nginx sends, to the app's port
            sock=create_connection(("127.0.0.1", port)),
            subprotocols=["streamlit"],  # type: ignore[list-item]
            additional_headers=sent,
        )
    except InvalidStatus:
        return False
    with socket:
        back = BackMsg()
        back.rerun_script.query_string = ""
        try:
            socket.send(back.SerializeToString())
            while True:
                message = ForwardMsg()
                message.ParseFromString(socket.recv(timeout=30))
                if message.HasField("new_session"):
                    return True
        except ConnectionClosed:
            return False


@pytest.mark.slow
def test_the_deploy_recipe_is_accepted_by_streamlit(app_url: str) -> None:
    headers = recipe_headers()

    assert _session_opens(app_url, headers)
    assert forwarded_for(headers)  # and the console sees a proxy: closed without its password


@pytest.mark.slow
def test_without_the_host_line_streamlit_refuses_the_websocket(app_url: str) -> None:
    headers = {**recipe_headers(), "Host": "assistant"}  # nginx's default: the upstream's name

    assert not _session_opens(app_url, headers)
