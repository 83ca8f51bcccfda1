"""The front door's limits: keyed on the client's address and on the whole server, never on a token
the client draws, each refusal saying how long to wait."""

from __future__ import annotations

import secrets

import pytest
from starlette.testclient import TestClient

from agents.serving import guard
from agents.serving.client_address import TrustedProxies, networks
from agents.serving.guard import VisitorGuard
from agents.serving.rate_limits import FrontDoorLimits, RateLimit, RequestKind
from agents.serving.settings import ServingSettings
from agents.serving.visitors import VisitorRefused
from tests.unit.test_visitor_requests import Server


def limits(**settings: str) -> FrontDoorLimits:
    return FrontDoorLimits.from_settings(ServingSettings(_env_file=None, **settings))  # type: ignore[call-arg]


def refusal(check: object, *args: object) -> VisitorRefused:
    with pytest.raises(VisitorRefused) as refused:
        check(*args)  # type: ignore[operator]
    return refused.value


def test_a_limit_counts_each_key_apart_and_says_how_long_to_wait() -> None:
    limit = RateLimit.parse("3/minute")
    for _ in range(3):
        limit.check("a")

    refused = refusal(limit.check, "a")
    limit.check("b")

    assert refused.status == 429 and 1 <= (refused.retry_after or 0) <= 60
    assert f"wait {refused.retry_after} s" in refused.message


def test_a_rate_that_is_not_one_names_its_setting() -> None:
    with pytest.raises(ValueError, match="AGENT_API_RUN_BUDGET"):
        limits(run_budget="often")


def test_new_tokens_do_not_escape_the_limit_of_their_address() -> None:
    door = limits(address_rate_limit="5/minute", rate_limit="100/minute")
    for _ in range(5):
        door.admit("203.0.113.7", f"visitor:{secrets.token_hex(8)}", RequestKind.OTHER)

    refused = refusal(door.admit, "203.0.113.7", f"visitor:{secrets.token_hex(8)}", RequestKind.OTHER)
    door.admit("203.0.113.8", None, RequestKind.OTHER)  # another address is not slowed down

    assert refused.status == 429 and refused.retry_after


def test_new_conversations_are_limited_per_address_then_for_the_whole_server() -> None:
    door = limits(address_conversation_limit="2/minute", conversation_budget="3/minute")
    door.admit("198.51.100.1", None, RequestKind.NEW_CONVERSATION)
    door.admit("198.51.100.1", None, RequestKind.NEW_CONVERSATION)

    per_address = refusal(door.admit, "198.51.100.1", None, RequestKind.NEW_CONVERSATION)
    door.admit("198.51.100.2", None, RequestKind.NEW_CONVERSATION)
    whole_server = refusal(door.admit, "198.51.100.3", None, RequestKind.NEW_CONVERSATION)
    door.admit("198.51.100.3", None, RequestKind.OTHER)  # reading is not a new conversation

    assert "new conversations from your network" in per_address.message
    assert "many visitors" in whole_server.message and whole_server.retry_after


def test_one_address_spends_only_its_share_of_the_servers_run_budget() -> None:
    door = limits(address_run_limit="2/minute", run_budget="3/minute")
    door.admit("192.0.2.1", None, RequestKind.RUN)
    door.admit("192.0.2.1", None, RequestKind.RUN)

    abuser = refusal(door.admit, "192.0.2.1", None, RequestKind.RUN)
    door.admit("192.0.2.2", None, RequestKind.RUN)  # the budget still has room for another visitor
    whole_server = refusal(door.admit, "192.0.2.3", None, RequestKind.RUN)

    assert "questions from your network" in abuser.message
    assert whole_server.status == 429 and "many visitors" in whole_server.message


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        ("203.0.113.9", "", "203.0.113.9"),  # no proxy in front
        ("203.0.113.9", "198.51.100.4", "203.0.113.9"),  # an untrusted peer's header is its own word
        ("10.0.0.2", "198.51.100.4", "198.51.100.4"),  # the proxy's entry
        ("10.0.0.2", "1.2.3.4, 198.51.100.4", "198.51.100.4"),  # the client's own entry is skipped
        ("127.0.0.1", "1.2.3.4, 198.51.100.4, 10.0.0.7", "198.51.100.4"),  # two proxies
        ("10.0.0.2", "", "10.0.0.2"),
    ],
)
def test_the_client_is_the_last_address_a_trusted_proxy_appended(
    peer: str, forwarded_for: str, client: str
) -> None:
    proxies = TrustedProxies(networks(["10.0.0.0/8", "127.0.0.1"]))

    assert proxies.client(peer, forwarded_for) == client


def test_a_proxy_setting_that_is_not_an_address_is_named() -> None:
    with pytest.raises(ValueError, match="AGENT_API_TRUSTED_PROXIES"):
        ServingSettings(_env_file=None, trusted_proxies="10.0.0.1, proxy.internal")  # type: ignore[call-arg]


def test_through_the_front_door_a_429_carries_retry_after_and_new_tokens_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    door = limits(address_conversation_limit="3/minute")
    monkeypatch.setattr(guard, "limits", lambda: door)
    client = TestClient(VisitorGuard(Server()))

    statuses = []
    for _ in range(4):
        answer = client.post(
            "/threads", json={}, headers={"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
        )
        statuses.append(answer.status_code)

    assert statuses == [200, 200, 200, 429]
    assert int(answer.headers["retry-after"]) >= 1 and answer.json()["kind"] == "rate_limited"


def test_a_mistyped_limit_stops_the_server_as_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_API_RUN_BUDGET", "lots")
    guard.limits.cache_clear()
    try:
        with (
            pytest.raises(ValueError, match="AGENT_API_RUN_BUDGET='lots' is not a rate"),
            TestClient(guard.app),
        ):
            pass
    finally:
        guard.limits.cache_clear()
