"""A scripted fake of the OpenAI and Mistral chat-completions HTTP APIs on 127.0.0.1, for tests.

Both APIs take ``POST {base}/chat/completions`` with a bearer token and answer either one JSON
``chat.completion`` or, with ``"stream": true``, server-sent events ``data: {chunk}`` ended by
``data: [DONE]``; tool calls are ``{"id", "type": "function", "function": {"name", "arguments"}}``
with ``arguments`` a JSON string. Each request consumes the next scripted :class:`Reply`; the last
one repeats.

A strict server (``FakeChatServer(rules="mistral")`` or ``"openai"``) first checks each request
against that API's rules (:mod:`tests.provider_rules`) and answers 400 as the real API would.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.provider_rules import Flavour, request_problem

API_KEY = "test"
MODEL = "fake-model"


@dataclass
class Reply:
    """One scripted answer: a JSON body, a list of SSE events, raw bytes, or silence."""

    status: int = 200
    body: Any = None
    events: Iterable[Any] | None = None  # dicts are sent as JSON, strings as they are; may be lazy
    raw: bytes | None = None
    hang: bool = False
    event_delay: float = 0.0  # seconds between two events: a slow provider


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]  # names in lower case
    body: dict[str, Any]


def tool_call(name: str, arguments: Any, call_id: str = "call00001") -> dict[str, Any]:
    """A tool call in the wire format; ``arguments`` should be a JSON string (tests break that)."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(content: str | None = "", tool_calls: list[dict[str, Any]] | None = None) -> Reply:
    """A non-streamed ``chat.completion`` answer."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return Reply(
        body={
            "id": "cmpl-1",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": MODEL,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
        }
    )


def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    """One streamed ``chat.completion.chunk``."""
    return {
        "id": "cmpl-1",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def streamed_text(pieces: list[str]) -> Reply:
    """A streamed answer whose content arrives in ``pieces``."""
    events: list[Any] = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in pieces]
    events += [chunk({}, finish_reason="stop"), "[DONE]"]
    return Reply(events=events)


def slow_text(pieces: list[str], delay: float) -> Reply:
    """A streamed answer sending one of ``pieces`` every ``delay`` seconds."""
    return Reply(events=streamed_text(pieces).events, event_delay=delay)


def huge_text(total_chars: int, piece: str = "Le château ouvre à 9 h. ") -> Reply:
    """A streamed answer of ``total_chars`` characters, made as it is sent (never held whole)."""

    def events() -> Iterator[Any]:
        yield chunk({"role": "assistant", "content": ""})
        for _ in range(total_chars // len(piece)):
            yield chunk({"content": piece})
        yield chunk({}, finish_reason="stop")
        yield "[DONE]"

    return Reply(events=events())


def streamed_tool_call(name: str, arguments: Any, call_id: str = "call00001") -> Reply:
    """A streamed answer holding one tool call, sent whole in one delta (as Mistral does)."""
    call = {"index": 0, **tool_call(name, arguments, call_id)}
    delta = {"role": "assistant", "content": "", "tool_calls": [call]}
    return Reply(events=[chunk(delta), chunk({}, finish_reason="tool_calls"), "[DONE]"])


def error(status: int, message: str = "scripted failure") -> Reply:
    return Reply(status=status, body={"error": {"message": message, "type": "fake", "code": status}})


def as_stream(body: dict[str, Any]) -> list[Any]:
    """A ``chat.completion`` answer sent as the stream a real API sends when asked to stream."""
    message = body["choices"][0]["message"]
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    return [chunk(delta), chunk({}, finish_reason=body["choices"][0]["finish_reason"]), "[DONE]"]


def rejection(flavour: Flavour, message: str) -> dict[str, Any]:
    """A 400 body in the API's own shape."""
    if flavour == "mistral":
        return {"object": "error", "message": message, "type": "invalid_request_message", "code": "3230"}
    return {"error": {"message": message, "type": "invalid_request_error", "param": "messages", "code": None}}


@dataclass
class FakeChatServer:
    """The server's script, what it received, and its address once started."""

    script: list[Reply] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    rules: Flavour | None = None  # enforce the request rules of this API
    rejected: list[str] = field(default_factory=list)  # why requests were refused (strict server)
    base_url: str = ""
    events_sent: int = 0  # streamed events written, over all requests
    hung_up: threading.Event = field(default_factory=threading.Event)  # a client closed a stream early
    _release: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def reply(self, *replies: Reply) -> None:
        """Answer the next requests with ``replies``, in order; the last one repeats."""
        self.script = list(replies)

    def next_reply(self) -> Reply:
        if not self.script:
            return error(500, "no scripted reply")
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def start(self) -> FakeChatServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()  # silent handlers return, so closing the server does not wait on them
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def wait_released(self, seconds: float) -> None:
        self._release.wait(seconds)


def _handler_for(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def _send_json(self, status: int, body: Any) -> None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if not self.path.split("?")[0].endswith("/chat/completions"):  # Azure: /openai/deployments/…
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            body = json.loads(raw)
            server.requests.append(
                RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            problem = request_problem(server.rules, body) if server.rules else None
            if problem is not None:
                server.rejected.append(problem)
                self._send_json(400, rejection(server.rules or "openai", problem))
                return
            reply = server.next_reply()
            if server.rules and body.get("stream") and reply.status == 200 and isinstance(reply.body, dict):
                reply = Reply(events=as_stream(reply.body))  # a real API streams when asked to
            if reply.hang:
                server.wait_released(30)
                return
            if reply.raw is not None:
                self._send_json(reply.status, reply.raw)
                return
            if reply.events is None:
                self._send_json(reply.status, reply.body)
                return
            self.send_response(reply.status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()  # HTTP/1.0: the stream ends when the connection closes
            for number, event in enumerate(reply.events):
                if number and reply.event_delay:
                    time.sleep(reply.event_delay)
                data = event if isinstance(event, str) else json.dumps(event)
                try:
                    self.wfile.write(f"data: {data}\n\n".encode())
                    self.wfile.flush()
                except OSError:  # the client closed the stream: stop making the answer
                    server.hung_up.set()
                    return
                server.events_sent += 1

    return Handler
