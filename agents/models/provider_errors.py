"""How a chat provider's failure reaches the turn: one error class, and the kinds of failure."""

from __future__ import annotations

from typing import Literal

from agents.errors import AgentError

FailureKind = Literal["rate_limited", "server_error", "timeout", "unreachable", "rejected", "malformed"]


class ProviderError(AgentError, RuntimeError):
    """A chat provider failed; ``str(error)`` is one sentence telling the user what to do next."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        kind: FailureKind | Literal["not_configured"],
        status_code: int | None = None,
        attempts: int = 0,
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.kind = kind
        self.status_code = status_code
        self.attempts = attempts
