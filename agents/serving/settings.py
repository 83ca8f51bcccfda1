"""The operator's settings of the served API (``AGENT_API_*``); the allowed origins (CORS) are the
server's own setting: ``CORS_ALLOW_ORIGINS`` for ``langgraph dev``, ``http.cors`` in ``aegra.json``."""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from agents.serving.client_address import networks


class ServingSettings(BaseSettings):
    """Read from the environment or ``.env`` when the server loads the front door. Every limit is kept in
    the process's memory: several server processes each keep their own."""

    model_config = SettingsConfigDict(env_prefix="AGENT_API_", env_file=".env", extra="ignore")

    rate_limit: str = Field(
        "60/minute",
        description="Requests one visitor (one token) may make in a moving window; a turn is about "
        "three (create or read the thread, stream the run, read the state).",
    )
    upkeep_seconds: float = Field(
        3600.0,
        gt=0,
        le=86400,
        description="How often the served API deletes conversations past AGENT_CONVERSATION_RETENTION_DAYS "
        "and settles those a stopped server left busy (Aegra); it also does so when it starts.",
    )
    address_rate_limit: str = Field(
        "600/minute",
        description="Requests one client address may make, whatever tokens it sends: a museum's Wi-Fi "
        "puts many visitors behind one address, so this is ten visitors' worth.",
    )
    address_conversation_limit: str = Field(
        "30/minute",
        description="New conversations one client address may open.",
    )
    address_run_limit: str = Field(
        "30/minute",
        description="Questions (runs) one client address may ask: a quarter of the server's run budget, "
        "so one abuser cannot spend it all.",
    )
    run_budget: str = Field(
        "120/minute",
        description="Questions (runs) the whole server starts: past it every visitor is asked to wait, "
        "so the model and the machine are never asked for more than they can answer.",
    )
    conversation_budget: str = Field(
        "240/minute",
        description="New conversations the whole server opens.",
    )
    trusted_proxies: str = Field(
        "",
        description="Comma-separated addresses or networks of the reverse proxies in front of the API; "
        "a request from one of them is counted under the client address it appended to "
        "X-Forwarded-For. Empty: the socket's peer is the client.",
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        networks(entry for entry in value.split(",") if entry.strip())
        return value

    def proxy_networks(self) -> tuple[str, ...]:
        return tuple(entry.strip() for entry in self.trusted_proxies.split(",") if entry.strip())
