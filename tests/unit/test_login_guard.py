"""Console access through a proxy, and failed logins slowed down exponentially."""

from __future__ import annotations

from app_ui.login_guard import LoginGuard, client_address


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_forwarding_header_makes_a_loopback_connection_remote() -> None:
    assert client_address(None, {}) is None
    assert client_address(None, {"X-Forwarded-For": "203.0.113.5"}) == "203.0.113.5"
    assert client_address(None, {"forwarded": "for=203.0.113.5"}) == "for=203.0.113.5"
    assert client_address(None, {"X-Real-IP": ""}) == "X-Real-IP"
    assert client_address("198.51.100.2", {}) == "198.51.100.2"


def test_delays_double_after_three_failures_and_fade_with_time() -> None:
    clock = Clock()
    guard = LoginGuard(clock=clock)
    waits = []
    for _ in range(6):
        guard.failed(["client:a"])
        waits.append(guard.wait_seconds(["client:a", "session:s"]))
    assert waits == [0, 0, 2, 4, 8, 16]
    clock.now += 10
    assert guard.wait_seconds(["client:a"]) == 6
    assert guard.wait_seconds(["client:b"]) == 0
    guard.succeeded(["client:a"])
    assert guard.wait_seconds(["client:a"]) == 0


def test_the_delay_is_capped() -> None:
    guard = LoginGuard(clock=Clock())
    for _ in range(40):
        guard.failed(["k"])
    assert guard.wait_seconds(["k"]) == 15 * 60
