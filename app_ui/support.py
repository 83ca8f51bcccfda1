"""What the Streamlit app needs from the agent, kept outside Streamlit: the service and its settings.

The app builds one :class:`AgentService` per configuration (``st.cache_resource`` keyed by
``agents.service.configuration_key``) and shares it between browser sessions; each session has its
own thread id, so conversations never mix. Configuration comes from the environment and ``.env`` only.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from agents.events import AgentEvent, ErrorOccurred
from agents.service import AgentService
from app_ui.login_guard import local_browser
from rag.errors import USER_ERRORS, error_sentence
from rag.store import KnowledgeBaseError

OFFLINE_NOTICE = (
    "Offline model: extractive answers quoting the sources. Set MISTRAL_API_KEY or OPENAI_API_KEY "
    "(or OPENAI_BASE_URL) in .env for a full LLM."
)

EXAMPLE_QUESTIONS: list[tuple[str, str]] = [
    ("Français", "Quels sont les horaires d'ouverture du château ?"),
    ("English", "How much is a ticket for the Palace?"),
    ("Español", "¿Cómo llego a Versalles en tren desde París?"),
    ("Deutsch", "Ist der Eintritt für Kinder kostenlos?"),
    ("日本語", "庭園の噴水ショーはいつ見られますか？"),
    ("Italiano", "Si possono noleggiare barche sul Grand Canal?"),
]

SERVICE_ERRORS = USER_ERRORS  # the one list (rag.errors): the CLIs catch the same
INDEXING_ERRORS: tuple[type[Exception], ...] = (*SERVICE_ERRORS, ValueError)  # an unreadable upload too
INDEX_HINT = "An operator can also index documents from the operator console."


ConsoleAccess = Literal["open", "password", "closed"]


class AppSettings(BaseSettings):
    """The app's own settings (``APP_*``): who may open the operator console."""

    model_config = SettingsConfigDict(env_prefix="APP_", env_file=".env", extra="ignore")

    operator_password: SecretStr | None = Field(
        None, description="Password of the operator console; unset = closed (see local_console)."
    )
    local_console: bool = Field(
        False,
        description="With no password, open the console to a browser on this machine (the app bound to "
        "127.0.0.1, loopback Host and Origin, no proxy header). Never set it on a machine behind a proxy.",
    )


def operator_password(secrets: Mapping[str, Any] | None = None) -> str | None:
    """``APP_OPERATOR_PASSWORD``, else ``operator_password`` in Streamlit's secrets; None when unset."""
    configured = AppSettings().operator_password
    if configured is not None and configured.get_secret_value():
        return configured.get_secret_value()
    value = (secrets or {}).get("operator_password")
    return str(value) if value else None


def console_access(
    password: str | None,
    server_address: str | None,
    ip_address: str | None,
    headers: Mapping[str, str] | None = None,
    local_console: bool = False,
) -> ConsoleAccess:
    """Whether the console opens: behind its password when one is set; with none, closed unless the
    operator opted in (``APP_LOCAL_CONSOLE``) and the request is a local browser's in every respect
    (:func:`app_ui.login_guard.local_browser`): no header a proxy leaves out can open it."""
    if password:
        return "password"
    if local_console and local_browser(server_address, ip_address, headers):
        return "open"
    return "closed"


def password_matches(given: str, expected: str) -> bool:
    """Constant-time comparison, so timing says nothing about the password."""
    return hmac.compare_digest(given.encode(), expected.encode())


CONSOLE_CLOSED = "The operator console is closed."  # how to open it is in the README, not for anyone


def build_service() -> AgentService:
    """The agent service for the configuration in the environment and ``.env``."""
    return AgentService()


def error_message(error: Exception) -> str:
    """A sentence for the visitor and the operator; index problems also say how to build one."""
    sentence = error_sentence(error)
    if isinstance(error, ValidationError):
        return f"The configuration is invalid: {sentence}"
    if isinstance(error, KnowledgeBaseError):
        return f"The knowledge base is not ready. {sentence} {INDEX_HINT}"
    return sentence


def stream_turn(service: AgentService, question: str, thread_id: str) -> Iterator[AgentEvent]:
    """The service's events; an index or configuration problem met mid-turn becomes an error event."""
    try:
        yield from service.stream(question, thread_id)
    except SERVICE_ERRORS as error:
        kind = "knowledge_base" if isinstance(error, KnowledgeBaseError) else "other"
        yield ErrorOccurred(message=error_message(error), kind=kind)
