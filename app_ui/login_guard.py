"""Who may reach the operator console, and how fast a wrong password may be tried again.

Without a password the console opens only to a browser on the machine itself, connected directly:
a reverse proxy on the same machine connects from loopback too, so any forwarding header means the
visitor is elsewhere. With a password, failures slow the next attempt down, per browser session
and per client address (a new session does not reset the address's count).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

FORWARDING_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")
FREE_FAILURES = 3  # typing mistakes cost nothing
FIRST_DELAY_SECONDS = 2.0  # then 2, 4, 8… seconds between attempts
MAX_DELAY_SECONDS = 15 * 60.0
FORGET_AFTER_SECONDS = 60 * 60.0  # a key's failures are forgotten after an hour of quiet


def forwarded_for(headers: Mapping[str, str] | None) -> str | None:
    """The forwarding header's value when the request came through a proxy, else None."""
    for name, value in (headers or {}).items():
        if name.lower() in FORWARDING_HEADERS:
            return value or name
    return None


def client_address(ip_address: str | None, headers: Mapping[str, str] | None) -> str | None:
    """The client as the console sees it: None only for a direct connection from this machine."""
    return ip_address or forwarded_for(headers)


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
