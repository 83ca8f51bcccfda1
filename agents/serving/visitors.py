"""Who an anonymous visitor is to the API, and how often they may call it: pure rules, no server.

A visitor has no account. Their page (the widget) draws a random token once, keeps it in the
browser and sends it as ``Authorization: Bearer <token>``; the server knows them by a hash of it.
Whoever holds the token owns its threads, so it is as secret as a session cookie: 128 random bits
at least, never logged (only its hash is an identity).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from agents.errors import AgentError
from agents.service import MAX_QUESTION_CHARS, is_blank

# 22 characters of base64url hold 132 bits: a token drawn with crypto.randomUUID() or
# secrets.token_urlsafe() passes; a guessable one ("visitor", "1234") does not.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,128}")


class VisitorRefused(AgentError):
    """A request the API answers with ``status`` and one sentence saying what to do; ``kind`` (as
    :class:`agents.events.ErrorOccurred` names it) lets a page word it in the visitor's language."""

    def __init__(self, status: int, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind


def header(headers: Mapping[str | bytes, str | bytes], name: str) -> str:
    """One header's value whatever the server's header type (``langgraph dev``: bytes; Aegra: str)."""
    for key, value in headers.items():
        text_key = key.decode("latin-1") if isinstance(key, bytes) else key
        if text_key.lower() == name:
            return value.decode("latin-1") if isinstance(value, bytes) else value
    return ""


def visitor_identity(authorization: str) -> str:
    """The identity of the visitor holding the bearer token in ``authorization``."""
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN_SHAPE.fullmatch(token):
        raise VisitorRefused(
            401,
            "Send a visitor token as 'Authorization: Bearer <token>': 22 to 128 random letters, digits, "
            "'-' or '_' (the widget draws one per browser).",
        )
    return "visitor:" + hashlib.sha256(token.encode("ascii")).hexdigest()[:32]


@dataclass
class RateLimit:
    """At most ``limit`` requests per client in a moving window, kept in this process's memory."""

    limit: RateLimitItem

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """``"60/minute"``, ``"1000 per hour"``… (the ``limits`` notation)."""
        try:
            return cls(parse(text))
        except ValueError as error:
            raise ValueError(
                f"AGENT_API_RATE_LIMIT={text!r} is not a rate: write it like '60/minute'."
            ) from error

    def check(self, client: str) -> None:
        """Count one request of ``client``; refused with 429 past the limit."""
        if not self._limiter.hit(self.limit, client):
            raise VisitorRefused(
                429, f"Too many requests (at most {self.limit}): wait a moment and ask again."
            )


def question_of(run_input: object) -> str | None:
    """The text of the last message a run's input sends (``{"messages": [...]}``), or None."""
    if not isinstance(run_input, Mapping):
        return None
    messages = run_input.get("messages")
    if not isinstance(messages, list) or not messages:
        return None
    last = messages[-1]
    content = last.get("content") if isinstance(last, Mapping) else getattr(last, "content", None)
    if isinstance(content, list):  # content blocks: the text ones
        content = " ".join(str(block.get("text", "")) for block in content if isinstance(block, Mapping))
    return content if isinstance(content, str) else None


def check_question(run_input: object) -> None:
    """Refuse a run whose input is not one visitor question the visitor page would accept."""
    question = question_of(run_input)
    if question is None:
        raise VisitorRefused(422, 'Send the question as {"messages": [{"role": "user", "content": "..."}]}.')
    if is_blank(question):
        raise VisitorRefused(422, "The question is empty: type a question about your visit.")
    if len(question.strip()) > MAX_QUESTION_CHARS:
        raise VisitorRefused(
            422,
            f"The question is too long ({len(question.strip())} characters; at most "
            f"{MAX_QUESTION_CHARS}). Shorten it or split it into several questions.",
        )
