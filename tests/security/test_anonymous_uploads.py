"""No anonymous uploads: a visitor's session cannot make the app hold uploaded bytes.

The real app (``streamlit run streamlit_app.py`` on 127.0.0.1) and a visitor scripted the way the
red team did it: open the page (the XSRF cookie), open the session's websocket as the browser
does (its session id), then ``PUT`` files to Streamlit's upload endpoint, with and without the
XSRF token. Each is refused, and the server's memory does not grow by what was sent.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from app_ui.upload_guard import REFUSED, OperatorSessions, UploadGuard
from tests.conftest import PROVIDER_VARIABLES, REPO_ROOT
from tests.local_server import free_port, running_server

UPLOAD_MB = 15  # below the app's server.maxUploadSize (20)
UPLOADS = 12


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The app as deployed, on a free loopback port; its URL and process id."""
    tmp_path = tmp_path_factory.mktemp("uploads")
    env = {name: value for name, value in os.environ.items() if name not in PROVIDER_VARIABLES}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        RAG_INDEX_DIR=str(tmp_path / "index"),  # none: the visitor page still opens
        AGENT_PROVIDER="offline",
        AGENT_CHECKPOINT_PATH=str(tmp_path / "threads.sqlite"),
        HF_HUB_OFFLINE="1",
        NO_PROXY="127.0.0.1,localhost",
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(REPO_ROOT / "streamlit_app.py"),
        "--server.headless=true",
        "--server.address=127.0.0.1",
        f"--server.port={port}",
        "--browser.gatherUsageStats=false",
    ]
    with (
        (tmp_path / "streamlit.log").open("wb") as log,
        running_server(
            command, f"{url}/_stcore/health", timeout=60, cwd=REPO_ROOT, env=env, output=log
        ) as server,
    ):
        yield url, server.pid


def visitor_session(url: str) -> tuple[httpx.Client, str]:
    """A visitor's browser session: the page's cookies (XSRF included) and its websocket's session id."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.sync.client import connect

    client = httpx.Client(base_url=url, timeout=30)
    client.get("/").raise_for_status()
    client.get("/_stcore/health").raise_for_status()  # sets the XSRF cookie, as for the browser
    xsrf = client.cookies.get("_streamlit_xsrf") or ""
    socket = connect(
        url.replace("http", "ws") + "/_stcore/stream",
        subprotocols=["streamlit", xsrf] if xsrf else ["streamlit"],  # type: ignore[list-item]
        additional_headers={"Origin": url, "Cookie": f"_streamlit_xsrf={xsrf}"},
    )
    back = BackMsg()
    back.rerun_script.query_string = ""
    socket.send(back.SerializeToString())
    while True:
        message = ForwardMsg()
        message.ParseFromString(socket.recv(timeout=60))
        if message.HasField("new_session"):
            session_id = message.new_session.initialize.session_id
            client.sockets = socket  # type: ignore[attr-defined]  # keeps the session connected
            return client, session_id


@pytest.mark.slow
@pytest.mark.parametrize("with_xsrf", [False, True])
def test_a_visitor_cannot_upload_and_the_server_holds_nothing(app: tuple[str, int], with_xsrf: bool) -> None:
    url, pid = app
    client, session_id = visitor_session(url)
    xsrf = client.cookies.get("_streamlit_xsrf") or ""
    headers = {"X-Xsrftoken": xsrf} if with_xsrf else {}
    body = os.urandom(UPLOAD_MB * 1024 * 1024)
    rss_before = _rss_mb(pid)

    statuses = [
        client.put(
            f"/_stcore/upload_file/{session_id}/{uuid.uuid4()}",
            files={"file": ("big.bin", body, "application/octet-stream")},
            headers=headers,
        ).status_code
        for _ in range(UPLOADS)
    ]

    assert statuses == [403] * UPLOADS
    assert _rss_mb(pid) - rss_before < UPLOAD_MB * UPLOADS / 3  # 180 MB sent; it held them all before
    client.sockets.close()  # type: ignore[attr-defined]


def _guarded(sessions: OperatorSessions) -> TestClient:
    async def upload(request: object) -> Response:
        return Response(status_code=204)

    routes = [Route("/_stcore/upload_file/{session}/{file}", upload, methods=["PUT", "DELETE"])]
    return TestClient(UploadGuard(Starlette(routes=routes), sessions))


def test_only_an_opened_console_session_may_upload() -> None:
    sessions = OperatorSessions()
    sessions.add("console-session")
    client = _guarded(sessions)

    refused = client.put("/_stcore/upload_file/visitor-session/f1", content=b"x")
    accepted = client.put("/_stcore/upload_file/console-session/f1", content=b"x")

    assert (refused.status_code, refused.text) == (403, REFUSED)
    assert accepted.status_code == 204
    assert client.delete("/_stcore/upload_file/visitor-session/f1").status_code == 204  # frees, never holds


def test_sessions_that_ended_are_forgotten() -> None:
    sessions = OperatorSessions()
    sessions.add("old")
    sessions.add("new", still_open=lambda session_id: session_id != "old")

    assert "old" not in sessions and "new" in sessions
