"""Start a server subprocess on 127.0.0.1 for a test, wait until it answers, always stop it."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(
    command: Sequence[str],
    health_url: str,
    *,
    timeout: float = 30.0,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    output: IO[bytes] | int = subprocess.DEVNULL,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` until the block ends; enter once ``health_url`` answers HTTP 200."""
    server = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_healthy(health_url, server, timeout)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_healthy(url: str, server: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"{server.args[0]} exited with code {server.returncode} at start")
        try:
            with opener.open(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"no answer from {url} within {timeout:.0f} s")
