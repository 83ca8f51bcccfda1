"""One app process for benchmarks/multiprocess_service.py: an AgentService behind a tiny HTTP API.

Usage: python -m benchmarks.service_process PORT   (configured by the environment like the app:
RAG_CHROMA_HOST, AGENT_CHECKPOINT_URL or AGENT_CHECKPOINT_PATH, ...). ``POST /turn`` with
``{"thread": ..., "question": ...}`` answers ``{"answer": ...}`` or ``{"error": ...}``; ``GET /health``
answers 200 once the service is built. It stands in for a Streamlit replica without a browser.
"""

from __future__ import annotations

import json
import logging
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agents.events import FinalAnswer
from agents.service import AgentService


def handler_for(service: AgentService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(200 if self.path == "/health" else 404, {})

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            try:
                result = service.ask(request["question"], request["thread"])
            except Exception as error:  # noqa: BLE001 - counted as a failed turn by the benchmark
                self._send(500, {"error": f"{type(error).__name__}: {error}"})
                return
            if isinstance(result, FinalAnswer):
                self._send(200, {"answer": result.answer})
            else:
                self._send(200, {"error": result.message})

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 resets connections when 16 visitors arrive at once


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    service = AgentService()
    server = Server(("127.0.0.1", int(sys.argv[1])), handler_for(service))
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
