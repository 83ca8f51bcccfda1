"""Credentials out of anything shown: a URL's user info and secret-named parameters become ``***``.

Written by hand rather than with ``urllib.parse``: ``urlsplit`` raises on an unclosed ``[`` in the
host, the very typo whose error message has to be shown without the password. Nothing here raises;
at worst a whole URL becomes :data:`HIDDEN`.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import Iterable

HIDDEN = "(a URL, not shown)"
MASK = "***"
# Parameter names that carry a credential, matched anywhere in the name, case-insensitively
# ("sslpassword", "X-Amz-Signature", "api-key", "access_token", "authorization").
SECRET_NAME = re.compile(r"pass|pwd|key|token|secret|sig|auth|credential|session|cookie|jwt|bearer", re.I)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# A URL inside free text: a scheme, then anything up to whitespace or a quote closing it.
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>`]*")
_SHORTEST_SECRET = 3  # shorter values would mask ordinary words of the message


def _secret_name(name: str) -> bool:
    return bool(SECRET_NAME.search(urllib.parse.unquote(name)))


def _redacted_parameters(text: str) -> str:
    """``a=1&password=x;sig=y`` with the secret-named values masked."""
    pieces = re.split(r"([&;])", text)
    for index, piece in enumerate(pieces):
        name, equals, _value = piece.partition("=")
        if equals and _secret_name(name):
            pieces[index] = f"{name}={MASK}"
    return "".join(pieces)


def _split(url: str) -> tuple[str, str, str, str, str] | None:
    """Scheme with ``://``, user info, host and path, query, fragment; None when not a URL.

    The user info runs to the last ``@`` before the query: a password holding an unescaped ``/``
    is hidden with the host part rather than shown as a path.
    """
    scheme = _SCHEME.match(url)
    if scheme is None:
        return None
    rest = url[scheme.end() :]
    rest, hash_, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    userinfo, at, location = rest.rpartition("@")
    return scheme.group(), userinfo + at, location, question + query, hash_ + fragment


def _without_stray_password(location: str) -> str:
    """``bob:secret`` from a URL cut short (at a space in the password) has no ``@`` left: whatever
    follows a colon in the host part, when it is not a port, is masked."""
    authority, slash, path = location.partition("/")
    host, colon, port = authority.partition(":")
    if colon and not authority.startswith("[") and not port.isdigit():
        return f"{host}:{MASK}{slash}{path}"
    return location


def redact_url(url: object) -> str:
    """``url`` without credentials: user info and secret-named query or fragment values as ``***``.

    Never raises; text that is not a URL (no ``scheme://``) is returned as :data:`HIDDEN`.
    """
    try:
        parts = _split(str(url))
        if parts is None:
            return HIDDEN
        scheme, userinfo, location, query, fragment = parts
        if not userinfo:
            location = _without_stray_password(location)
        return "".join(
            (
                scheme,
                f"{MASK}@" if userinfo else "",
                location,
                _redacted_parameters(query),
                _redacted_parameters(fragment),
            )
        )
    except Exception:  # noqa: BLE001 - a redactor that fails would show what it was given
        return HIDDEN


def url_secrets(url: object) -> set[str]:
    """The secret values in ``url`` (user info, its password, secret-named parameters), raw and
    percent-decoded, for masking where a library quoted them outside the URL."""
    try:
        parts = _split(str(url))
        if parts is None:
            return set()
        _scheme, userinfo, _location, query, fragment = parts
        found = {userinfo.removesuffix("@"), userinfo.removesuffix("@").partition(":")[2]}
        for parameters in (query.lstrip("?"), fragment.lstrip("#")):
            for piece in re.split(r"[&;]", parameters):
                name, equals, value = piece.partition("=")
                if equals and _secret_name(name):
                    found.add(value)
        found |= {urllib.parse.unquote(value) for value in found}
        return {value for value in found if len(value) >= _SHORTEST_SECRET}
    except Exception:  # noqa: BLE001
        return set()


def redact_text(text: object, urls: Iterable[object] = ()) -> str:
    """``text`` with every URL in it redacted and the secrets of ``urls`` masked wherever they appear.

    ``urls`` are the configured URLs an error may quote in pieces (libpq quotes a bad password alone).
    Never raises: at worst the whole text becomes :data:`HIDDEN`.
    """
    try:
        shown = _URL_IN_TEXT.sub(lambda match: redact_url(match.group()), str(text))
        secrets: set[str] = set()
        for url in urls:
            secrets |= url_secrets(url)
        for secret in sorted(secrets, key=len, reverse=True):  # the longest first: one may hold another
            shown = shown.replace(secret, MASK)
        return shown
    except Exception:  # noqa: BLE001
        return HIDDEN


# HTTP clients log each request's full URL (httpx at INFO: user info and query string included).
CLIENT_LOGGERS = ("httpx", "httpx2", "httpcore", "httpcore2", "openai._base_client", "mistralai")


class RedactingFilter(logging.Filter):
    """Rewrites a record's message with :func:`redact_text` before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact_text(record.getMessage()), ()
        return True


def redact_client_logs() -> None:
    """Put a :class:`RedactingFilter` on the HTTP clients' loggers, once (called where clients are built)."""
    for name in CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactingFilter) for existing in logger.filters):
            logger.addFilter(RedactingFilter())
