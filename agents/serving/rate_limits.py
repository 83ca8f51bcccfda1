"""The front door's limits, keyed on what a client cannot invent: pure rules over the ``limits`` package.

A visitor token is drawn by the browser, so a client drawing a new one per request would escape a limit
kept per token. The limits that hold are kept per client address (as the trusted proxy gives it,
:mod:`agents.serving.client_address`) and for the whole server: a budget of runs and of new conversations
per minute, so one abuser cannot slow everyone. The per-token limit stays, as a visitor's own share.
Counters live in this process's memory (one set per server process).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from enum import Enum

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from agents.serving.settings import ServingSettings
from agents.serving.visitors import VisitorRefused

WHOLE_SERVER = "server"


class RequestKind(Enum):
    """What a request costs beyond its count: a run and a new conversation draw on budgets of their own."""

    RUN = "run"
    NEW_CONVERSATION = "new conversation"
    OTHER = "other"


def rate(text: str, setting: str) -> RateLimitItem:
    """``"60/minute"``, ``"1000 per hour"``… (the ``limits`` notation), or a sentence naming ``setting``."""
    try:
        return parse(text)
    except ValueError as error:
        raise ValueError(f"{setting}={text!r} is not a rate: write it like '60/minute'.") from error


@dataclass
class RateLimit:
    """At most ``limit`` requests per key in a moving window, kept in this process's memory."""

    limit: RateLimitItem
    refusal: str = "Too many requests (at most {limit}): wait {seconds} s and ask again."
    _limiter: MovingWindowRateLimiter = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    @classmethod
    def parse(cls, text: str, setting: str = "AGENT_API_RATE_LIMIT", refusal: str = "") -> RateLimit:
        return cls(rate(text, setting), *((refusal,) if refusal else ()))

    def check(self, key: str) -> None:
        """Count one request of ``key``; past the limit, a 429 saying how many seconds to wait."""
        if self._limiter.hit(self.limit, key):
            return
        reset = self._limiter.get_window_stats(self.limit, key).reset_time
        seconds = max(1, math.ceil(reset - time.time()))
        raise VisitorRefused(
            429, self.refusal.format(limit=self.limit, seconds=seconds), "rate_limited", retry_after=seconds
        )


BUSY_SERVER = "The assistant is answering many visitors at the moment: wait {seconds} s and ask again."


@dataclass
class FrontDoorLimits:
    """Every limit the front door applies, in the order a request meets them."""

    per_token: RateLimit
    per_address: RateLimit
    conversations_per_address: RateLimit
    runs_per_address: RateLimit
    run_budget: RateLimit
    conversation_budget: RateLimit

    @classmethod
    def from_settings(cls, settings: ServingSettings) -> FrontDoorLimits:
        return cls(
            per_token=RateLimit.parse(settings.rate_limit, "AGENT_API_RATE_LIMIT"),
            per_address=RateLimit.parse(settings.address_rate_limit, "AGENT_API_ADDRESS_RATE_LIMIT"),
            conversations_per_address=RateLimit.parse(
                settings.address_conversation_limit,
                "AGENT_API_ADDRESS_CONVERSATION_LIMIT",
                "Too many new conversations from your network (at most {limit}): go on in the one you have, "
                "or wait {seconds} s.",
            ),
            runs_per_address=RateLimit.parse(
                settings.address_run_limit,
                "AGENT_API_ADDRESS_RUN_LIMIT",
                "Too many questions from your network (at most {limit}): wait {seconds} s and ask again.",
            ),
            run_budget=RateLimit.parse(settings.run_budget, "AGENT_API_RUN_BUDGET", BUSY_SERVER),
            conversation_budget=RateLimit.parse(
                settings.conversation_budget, "AGENT_API_CONVERSATION_BUDGET", BUSY_SERVER
            ),
        )

    def admit(self, address: str, visitor: str | None, request: RequestKind) -> None:
        """Count one request; the client's own limits first, so an abuser spends theirs before the
        server's budgets."""
        self.per_address.check(address)
        if visitor is not None:
            self.per_token.check(visitor)
        if request is RequestKind.NEW_CONVERSATION:
            self.conversations_per_address.check(address)
            self.conversation_budget.check(WHOLE_SERVER)
        elif request is RequestKind.RUN:
            self.runs_per_address.check(address)
            self.run_budget.check(WHOLE_SERVER)
