"""Uploads only from an opened operator console, refused before a byte of the body is read.

Streamlit accepts ``PUT /_stcore/upload_file/{session_id}/{file_id}`` from any connected session:
it checks that the session is live and, with XSRF protection, that the header matches the cookie
(both of which a visitor's own browser session has), never that the session shows an uploader;
the files are held in memory until the session expires. A visitor who never opened the console
posted 40 × 19 MB and the server held 1 GB for minutes. The console registers its session here
once the operator is let in (:func:`allow_uploads`); :class:`UploadGuard`, an ASGI middleware
that ``streamlit_app.py`` puts in front of Streamlit, answers 403 to every other upload.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

UPLOAD_PATH = "/_stcore/upload_file/"
REFUSED = "Uploads are accepted from the operator console only."


class OperatorSessions:
    """Ids of the browser sessions in which the operator console was opened (thread-safe)."""

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    def add(self, session_id: str, still_open: Callable[[str], bool] = lambda _: True) -> None:
        """Register ``session_id``; ids whose sessions have ended are dropped on the way."""
        with self._lock:
            self._ids = {known for known in self._ids if still_open(known)} | {session_id}

    def __contains__(self, session_id: object) -> bool:
        with self._lock:
            return session_id in self._ids


OPERATOR_SESSIONS = OperatorSessions()  # one per process, like Streamlit's own session manager


def allow_uploads(session_id: str) -> None:
    """Let this console session upload (called once the operator is let in)."""
    from streamlit import runtime

    live = runtime.get_instance().is_active_session if runtime.exists() else (lambda _: True)
    OPERATOR_SESSIONS.add(session_id, live)


def upload_session(path: str) -> str | None:
    """The session id of an upload request's path, or None for any other path."""
    _, found, rest = path.partition(UPLOAD_PATH)
    return rest.split("/", 1)[0] if found else None


class UploadGuard:
    """ASGI middleware: an upload from a session that has not opened the console gets 403 at once."""

    def __init__(self, app: ASGIApp, sessions: OperatorSessions = OPERATOR_SESSIONS) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in {"PUT", "POST", "PATCH"}:
            session_id = upload_session(scope.get("path", ""))
            if session_id is not None and session_id not in self.sessions:
                # Answered before the body is read: the bytes are never taken in.
                await PlainTextResponse(REFUSED, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
