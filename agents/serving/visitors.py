"""Who an anonymous visitor is to the API, and how often they may call it: pure rules, no server.

A visitor has no account. Their page (the widget) draws a random token once, keeps it in the
browser and sends it as ``Authorization: Bearer <token>``; the server knows them by a hash of it.
Whoever holds the token owns its threads, so it is as secret as a session cookie: 128 random bits
at least, never logged (only its hash is an identity).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Mapping

from agents.errors import AgentError
from agents.runtime.admission import question_refusal

# 22 characters of base64url hold 132 bits: a token drawn with crypto.randomUUID() or
# secrets.token_urlsafe() passes; a guessable one ("visitor", "1234") does not.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,128}")
# A drawn token of 22 characters estimates at 74 bits or more (its length times the entropy of its own
# characters; 200,000 draws); "a" * 22 at 0, "ab" * 11 at 22.
MIN_TOKEN_BITS = 64


class VisitorRefused(AgentError):
    """A request the API answers with ``status`` and one sentence saying what to do; ``kind`` (as
    :class:`agents.events.ErrorOccurred` names it) lets a page word it in the visitor's language."""

    def __init__(self, status: int, message: str, kind: str = "", retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        self.retry_after = retry_after


def header(headers: Mapping[str | bytes, str | bytes], name: str) -> str:
    """One header's value whatever the server's header type (``langgraph dev``: bytes; Aegra: str)."""
    for key, value in headers.items():
        text_key = key.decode("latin-1") if isinstance(key, bytes) else key
        if text_key.lower() == name:
            return value.decode("latin-1") if isinstance(value, bytes) else value
    return ""


def token_bits(token: str) -> float:
    """An estimate of the randomness in ``token``: its length times the entropy of its own characters."""
    counts = Counter(token).values()
    return -sum(count * math.log2(count / len(token)) for count in counts)


def visitor_identity(authorization: str) -> str:
    """The identity of the visitor holding the bearer token in ``authorization``."""
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN_SHAPE.fullmatch(token) or token_bits(token) < MIN_TOKEN_BITS:
        raise VisitorRefused(
            401,
            "Send a visitor token as 'Authorization: Bearer <token>': 22 to 128 letters, digits, '-' or '_' "
            "drawn at random, not a guessable one (the widget draws one per browser).",
        )
    return "visitor:" + hashlib.sha256(token.encode("ascii")).hexdigest()[:32]


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
    if refusal := question_refusal(question):
        raise VisitorRefused(422, refusal.message)
