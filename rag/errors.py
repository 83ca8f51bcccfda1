"""The project's error family and the one place that decides what a user is shown of an error.

Every error the project raises for a user to read derives from :class:`UserFacingError`: through
:class:`RagError` here, through ``agents.errors.AgentError`` above. Its ``user_message`` is one
sentence saying what to do next. The CLIs and the app catch :data:`USER_ERRORS` and show
:func:`error_sentence`; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_settings import SettingsError

from rag.redact import redact_url


class UserFacingError(Exception):
    """An error whose message is written for the user: one sentence saying what to do next."""

    @property
    def user_message(self) -> str:
        """The sentence a user is shown."""
        return str(self)


class RagError(UserFacingError):
    """Base of the errors the ``rag`` package raises (index, embeddings, crawl, uploads)."""


# What the CLIs and the app catch and show as one sentence; every other error is a bug.
USER_ERRORS: tuple[type[Exception], ...] = (
    UserFacingError,
    FileNotFoundError,
    SettingsError,  # a setting pydantic-settings could not decode (its message names no value)
    ValidationError,  # invalid settings: error_sentence names the variable
)

SETTINGS_PREFIXES = {"RagSettings": "RAG_", "AgentSettings": "AGENT_", "ToolSettings": "TOOLS_"}


def _shown(value: object) -> object:
    """A value given to a setting, a URL without its credentials."""
    return redact_url(value) if isinstance(value, str) and "://" in value else value


def error_sentence(error: Exception) -> str:
    """One sentence for the user. An invalid setting names its variable, the rule it breaks and
    (unless it may hold a secret) the value given; other errors are their own message."""
    if isinstance(error, UserFacingError):
        return error.user_message
    if isinstance(error, SettingsError):
        return f"A setting could not be read ({error}): fix it in .env or the environment."
    if not isinstance(error, ValidationError):
        return str(error)
    prefix = SETTINGS_PREFIXES.get(error.title)
    if prefix is None:
        return (
            f"{error.title} could not be read ({error.error_count()} problems): {error.errors()[0]['msg']}."
        )
    parts = []
    for item in error.errors():
        if not item.get("loc"):  # a rule across settings: its message names them; the input holds secrets
            parts.append(item["msg"].removeprefix("Value error, ").rstrip("."))
            continue
        field = str(item["loc"][0])
        name = field if field.isupper() else f"{prefix}{field.upper()}"
        secret = any(word in name for word in ("KEY", "TOKEN", "SECRET", "PASSWORD", "CHECKPOINT_URL"))
        given = "" if secret or "input" not in item else f"={_shown(item['input'])!r}"
        parts.append(f"{name}{given} is invalid ({item['msg'][:1].lower()}{item['msg'][1:]})")
    return f"{'; '.join(parts)}: fix it in .env or the environment."
