"""A request body as the front door accepts it, before any route rule or server reads it: at most
64 KB, JSON, an object nested no deeper than a visitor's page nests one, and text without the control
characters no visitor's page sends (PostgreSQL refuses a NUL in text, and Aegra's 500 then showed the
SQL statement with the visitor's words).

JSON nesting is measured on the raw bytes, without recursion, before it is parsed: a body of 100,000
brackets would otherwise exhaust Python's recursion limit in the parser.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from starlette.types import Receive

from agents.serving.visitors import VisitorRefused

MAX_BODY_BYTES = 64 * 1024
# A run's body nests deepest of what a visitor sends: body > input > messages > message (4 levels).
MAX_DEPTH = 8
ALLOWED_CONTROLS = frozenset("\t\n\r")  # what a text box lets a visitor type
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
TOO_LARGE = "The request is too large: send one question at a time."
TOO_DEEP = "The request nests too deeply: send a question as the widget does, in a flat JSON object."


async def read_body(receive: Receive, declared: str = "") -> bytes:
    """The whole body, refused (413) past :data:`MAX_BODY_BYTES` as soon as it is announced or read."""
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise VisitorRefused(413, TOO_LARGE)
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > MAX_BODY_BYTES:
            raise VisitorRefused(413, TOO_LARGE)
        if not message.get("more_body"):
            return body


def nesting_depth(body: bytes) -> int:
    """How deep ``body``'s JSON arrays and objects nest (strings skipped), counted without recursion."""
    depth = deepest = 0
    for bracket in _JSON_STRING.sub(b'""', body).translate(None, _NOT_BRACKETS):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def control_character(value: Any) -> str | None:
    """The first control character or lone surrogate in any key or string of ``value``, or None."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and not item.isprintable():
            for char in item:
                if unicodedata.category(char) in {"Cc", "Cs"} and char not in ALLOWED_CONTROLS:
                    return char
    return None


def json_object(body: bytes) -> dict[str, Any]:
    """``body`` as a JSON object (an empty body is an empty one), or a 4xx sentence."""
    if nesting_depth(body) > MAX_DEPTH:
        raise VisitorRefused(422, TOO_DEEP)
    try:
        payload = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise VisitorRefused(422, "The request body is not JSON: send a JSON object.") from None
    if not isinstance(payload, dict):
        raise VisitorRefused(422, "The request body is not a JSON object: send one, as the widget does.")
    char = control_character(payload)
    if char is not None:
        raise VisitorRefused(
            422,
            f"The request holds a control character (U+{ord(char):04X}) that no visitor's page sends: "
            "remove it and send the text again.",
        )
    return payload


def without_nulls(payload: dict[str, Any]) -> bytes:
    """``payload`` as the server gets it: a field sent as null is left out, as the SDK leaves it (Aegra
    answered ``"config": null`` with a 500)."""
    return json.dumps({key: value for key, value in payload.items() if value is not None}).encode()
