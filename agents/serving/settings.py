"""The operator's settings of the served API (``AGENT_API_*``); the allowed origins (CORS) are the
server's own setting: ``CORS_ALLOW_ORIGINS`` for ``langgraph dev``, ``http.cors`` in ``aegra.json``."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServingSettings(BaseSettings):
    """Read from the environment or ``.env`` when the server loads the auth module."""

    model_config = SettingsConfigDict(env_prefix="AGENT_API_", env_file=".env", extra="ignore")

    rate_limit: str = Field(
        "60/minute",
        description="Requests one visitor (one token) may make in a moving window; a turn is about "
        "three (create or read the thread, stream the run, read the state). Kept per process.",
    )
    upkeep_seconds: float = Field(
        3600.0,
        gt=0,
        le=86400,
        description="How often the served API deletes conversations past AGENT_CONVERSATION_RETENTION_DAYS "
        "and settles those a stopped server left busy (Aegra); it also does so when it starts.",
    )
