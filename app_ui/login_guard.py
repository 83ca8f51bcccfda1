"""Who may reach the operator console, and how fast a wrong password may be tried again.

Without a password the console is closed unless the operator opts in (``APP_LOCAL_CONSOLE=true``),
and even then it opens only to a browser on the machine itself: the app bound to loopback, the peer
loopback, the ``Host`` and the ``Origin`` loopback, and no header any proxy adds. A reverse proxy on
the same machine also connects from loopback and may forward a loopback ``Host`` and an ``Origin``
an attacker wrote, so no set of headers alone can prove a local user: the opt-in is what a proxy
cannot fake. With a password, failures slow the next attempt down, per browser session and per
client address (a new session does not reset the address's count).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

# Headers only a proxy, a CDN or a load balancer adds: any of them means the browser is elsewhere.
PROXY_HEADERS = frozenset(
    {"forwarded", "via", "x-real-ip", "x-client-ip", "true-client-ip", "client-ip", "cf-connecting-ip",
     "fastly-client-ip", "x-cluster-client-ip", "x-original-forwarded-for", "x-envoy-external-address",
     "x-appengine-user-ip", "akamai-origin-hop", "cdn-loop", "cf-ray", "x-amzn-trace-id"}
)  # fmt: skip
PROXY_HEADER_PARTS = ("forwarded", "client-ip", "real-ip", "connecting-ip", "original-host")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
FREE_FAILURES = 3  # typing mistakes cost nothing
FIRST_DELAY_SECONDS = 2.0  # then 2, 4, 8… seconds between attempts
MAX_DELAY_SECONDS = 15 * 60.0
FORGET_AFTER_SECONDS = 60 * 60.0  # a key's failures are forgotten after an hour of quiet


def is_proxy_header(name: str) -> bool:
    """Whether a header is one a proxy adds (``X-Forwarded-*``, ``Via``, ``CF-Connecting-IP``…)."""
    lowered = name.lower()
    return lowered in PROXY_HEADERS or any(part in lowered for part in PROXY_HEADER_PARTS)


def forwarded_for(headers: Mapping[str, str] | None) -> str | None:
    """A proxy header's value (or its name when empty) when the request came through a proxy, else None."""
    for name, value in (headers or {}).items():
        if is_proxy_header(name):
            return value or name
    return None


def client_address(ip_address: str | None, headers: Mapping[str, str] | None) -> str | None:
    """The client as the console sees it: None only for a direct connection from this machine."""
    return ip_address or forwarded_for(headers)


def is_loopback_host(host: str | None) -> bool:
    """Whether a host name or address (an ``Origin``'s, a ``Host`` header's, a bind address) is loopback."""
    if not host:
        return False
    name = host.strip().lower().strip("[]")
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _header(headers: Mapping[str, str], wanted: str) -> str | None:
    return next((value for name, value in headers.items() if name.lower() == wanted), None)


def local_browser(
    server_address: str | None, ip_address: str | None, headers: Mapping[str, str] | None
) -> bool:
    """Whether every sign of the request says a browser on this machine, connected directly: the app
    bound to loopback, no peer address (Streamlit gives none for loopback), a loopback ``Host`` and
    ``Origin`` (a browser always sends one on the websocket), and no proxy header."""
    headers = headers or {}
    host, origin = _header(headers, "host"), _header(headers, "origin")
    return (
        is_loopback_host(server_address)
        and client_address(ip_address, headers) is None
        and host is not None
        and is_loopback_host(urlsplit(f"//{host}").hostname)
        and origin is not None
        and urlsplit(origin).scheme in ("http", "https")
        and is_loopback_host(urlsplit(origin).hostname)
    )


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0


@dataclass
class LoginGuard:
    """Failed logins per key (a session id, a client address), shared by every session of the app."""

    clock: Callable[[], float] = field(default_factory=lambda: time.monotonic)
    _failures: dict[str, _Failures] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_seconds(self, keys: Iterable[str]) -> int:
        """Seconds before the next attempt may be checked (0: now)."""
        now = self.clock()
        with self._lock:
            known = [self._failures[key] for key in keys if key in self._failures]
            waits = [self._delay(failures) - (now - failures.last) for failures in known]
        return math.ceil(max([0.0, *waits]))

    def failed(self, keys: Iterable[str]) -> None:
        now = self.clock()
        with self._lock:
            self._forget_old(now)
            for key in keys:
                failures = self._failures.setdefault(key, _Failures())
                failures.count += 1
                failures.last = now

    def succeeded(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    @staticmethod
    def _delay(failures: _Failures) -> float:
        if failures.count < FREE_FAILURES:
            return 0.0
        return min(FIRST_DELAY_SECONDS * 2 ** (failures.count - FREE_FAILURES), MAX_DELAY_SECONDS)

    def _forget_old(self, now: float) -> None:
        for key in [k for k, f in self._failures.items() if now - f.last > FORGET_AFTER_SECONDS]:
            del self._failures[key]
