"""Agent settings: explicit value > environment (``AGENT_*``, provider keys, ``.env``) > default."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ChatProvider = Literal["mistral", "openai", "offline"]

DEFAULT_CHAT_MODELS: dict[ChatProvider, str] = {
    "mistral": "mistral-small-latest",
    "openai": "gpt-4o-mini",
    "offline": "offline-extractive",
}


class AgentSettings(BaseSettings):
    """Every knob of the agent and its chat model, each documented where it is declared."""

    model_config = SettingsConfigDict(env_prefix="AGENT_", env_file=".env", extra="ignore")

    provider: ChatProvider | None = Field(
        None, description="mistral, openai or offline; unset = chosen from the keys that are set."
    )
    model: str | None = Field(None, description="Chat model name; default per provider.")
    mistral_api_key: SecretStr | None = Field(
        None, validation_alias="MISTRAL_API_KEY", description="Mistral API key."
    )
    mistral_base_url: str | None = Field(
        None, validation_alias="MISTRAL_BASE_URL", description="Mistral-compatible endpoint; unset = API."
    )
    openai_api_key: SecretStr | None = Field(
        None, validation_alias="OPENAI_API_KEY", description="OpenAI API key (optional with a base URL)."
    )
    openai_base_url: str | None = Field(
        None,
        validation_alias="OPENAI_BASE_URL",
        description="Any OpenAI-compatible server (Ollama, vLLM, LM Studio), e.g. http://127.0.0.1:11434/v1.",
    )

    temperature: float = Field(0.1, ge=0.0, le=1.0, description="Sampling temperature (0-1 on both APIs).")
    request_timeout_seconds: float = Field(
        30.0, gt=0, description="Longest wait for the server to answer, per attempt."
    )
    max_retries: int = Field(
        2,
        ge=0,
        description="Retries after the first attempt on rate limits, 5xx, timeouts, lost connections.",
    )
    retry_initial_wait_seconds: float = Field(
        1.0, ge=0, description="Wait before the first retry; doubles at each retry, plus jitter."
    )
    retry_max_wait_seconds: float = Field(20.0, ge=0, description="Longest wait between two attempts.")

    max_rounds: int = Field(
        3, ge=1, le=10, description="Retrieve-and-reflect rounds before answering anyway."
    )
    recursion_limit: int = Field(25, ge=1, description="LangGraph super-steps allowed per visitor turn.")
    max_tool_calls: int = Field(
        8, ge=1, le=50, description="Tool calls run per model reply; the rest are dropped (and traced)."
    )
    max_searches: int = Field(12, ge=1, le=100, description="Knowledge-base searches per visitor turn.")
    duplicate_query_threshold: float | None = Field(
        None,
        gt=0.0,
        le=1.0,
        description="Similarity above which a new search repeats an earlier one; unset = the value "
        "calibrated for the embedder (0.96 for multilingual-e5-small, 0.85 otherwise).",
    )
    checkpoint_path: Path = Field(
        Path(".agent_state/checkpoints.sqlite"), description="SQLite file of conversation checkpoints."
    )

    @field_validator(
        "provider",
        "model",
        "mistral_api_key",
        "mistral_base_url",
        "openai_api_key",
        "openai_base_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        """``MISTRAL_API_KEY=`` left empty in ``.env`` means unset, not an empty key."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @model_validator(mode="after")
    def _enough_steps_for_the_rounds(self) -> Self:
        """Each extra round costs three graph steps; too low a limit would abort a turn mid-answer."""
        needed = 3 * self.max_rounds + 5
        if self.recursion_limit < needed:
            raise ValueError(
                f"AGENT_RECURSION_LIMIT={self.recursion_limit} is too low for AGENT_MAX_ROUNDS="
                f"{self.max_rounds}: set AGENT_RECURSION_LIMIT to at least {needed}."
            )
        return self

    @property
    def resolved_provider(self) -> ChatProvider:
        """The provider asked for, else the first one whose key or URL is configured, else offline."""
        if self.provider is not None:
            return self.provider
        if self.mistral_api_key is not None:
            return "mistral"
        if self.openai_api_key is not None or self.openai_base_url is not None:
            return "openai"
        return "offline"

    @property
    def resolved_model(self) -> str:
        """The chat model name, defaulting per resolved provider."""
        return self.model or DEFAULT_CHAT_MODELS[self.resolved_provider]
