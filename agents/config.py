"""Agent settings: explicit value > environment (``AGENT_*``, provider keys, ``.env``) > default."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ChatProvider = Literal["mistral", "openai", "offline"]

DEFAULT_CHAT_MODELS: dict[str, str] = {
    "mistral": "mistral-small-latest",
    "openai": "gpt-4o-mini",
    "offline": "offline-extractive",
}
# Our provider names where LangChain's init_chat_model spells them differently.
LANGCHAIN_PROVIDER_NAMES = {"mistral": "mistralai"}
OUR_PROVIDER_NAMES = {langchain: ours for ours, langchain in LANGCHAIN_PROVIDER_NAMES.items()}
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def langchain_providers() -> frozenset[str]:
    """The ``provider`` prefixes ``init_chat_model`` accepts in ``provider:model``."""
    from langchain.chat_models import base

    return frozenset(base._BUILTIN_PROVIDERS)


class AgentSettings(BaseSettings):
    """Every knob of the agent and its chat model, each documented where it is declared."""

    # inf, nan and 1e400 (read as inf) are refused by every number: a timeout must end.
    model_config = SettingsConfigDict(
        env_prefix="AGENT_", env_file=".env", extra="ignore", allow_inf_nan=False
    )

    provider: ChatProvider | None = Field(
        None, description="mistral, openai or offline; unset = chosen from the keys that are set."
    )
    model: str | None = Field(
        None,
        description="Chat model name, default per provider; or `provider:model` for any provider LangChain's "
        "init_chat_model knows (e.g. `mistralai:mistral-small-latest`, `anthropic:claude-sonnet-4-5`).",
    )
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

    temperature: float | None = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="Sampling temperature (0-1 on both APIs); unset = the model's default. Never sent to "
        "models whose profile says they refuse one (OpenAI's o-series and other reasoning models).",
    )
    streaming: bool = Field(
        True,
        description="Stream answers token by token; false = one request per answer, shown when complete "
        "(for proxies or servers that do not stream).",
    )
    request_timeout_seconds: float = Field(
        30.0, gt=0, le=600, description="Longest wait for the server to answer, per attempt."
    )
    max_retries: int = Field(
        2,
        ge=0,
        description="Retries after the first attempt on rate limits, 5xx, timeouts, lost connections.",
    )
    retry_initial_wait_seconds: float = Field(
        1.0, ge=0, le=60, description="Wait before the first retry; doubles at each retry, plus jitter."
    )
    retry_max_wait_seconds: float = Field(
        20.0, ge=0, le=600, description="Longest wait between two attempts."
    )
    model_call_deadline_seconds: float = Field(
        60.0,
        gt=0,
        le=3600,
        allow_inf_nan=False,
        description="Longest time one model call may take in all, a streamed answer included.",
    )
    max_answer_chars: int = Field(
        20_000, ge=1000, le=1_000_000, description="Longest answer one model call may send, in characters."
    )

    offline_word_seconds: float = Field(
        0.0,
        ge=0,
        le=1,
        description="Pause between the words the offline model streams (0: none); a few milliseconds "
        "show the answer arriving as a provider's would (demonstrations, the browser tests).",
    )

    max_rounds: int = Field(
        3, ge=1, le=10, description="Retrieve-and-reflect rounds before answering anyway."
    )
    recursion_limit: int = Field(25, ge=1, description="LangGraph super-steps allowed per visitor turn.")
    max_tool_calls: int = Field(
        8, ge=1, le=50, description="Tool calls run per model reply; the rest are dropped (and traced)."
    )
    max_searches: int = Field(12, ge=1, le=100, description="Knowledge-base searches per visitor turn.")
    history_full_turns: int = Field(
        1,
        ge=0,
        le=50,
        description="Earlier turns the tool-choosing model sees whole (retrieved passages included); older "
        "ones are sent as their question and answer only. The checkpoint keeps everything.",
    )
    history_max_tokens: int = Field(
        4000,
        ge=500,
        le=200_000,
        description="Most of the conversation the tool-choosing model is sent, in approximate tokens; the "
        "oldest turns are left out first.",
    )
    duplicate_query_threshold: float | None = Field(
        None,
        gt=0.0,
        le=1.0,
        description="Similarity above which a new search repeats an earlier one; unset = the value "
        "calibrated for the embedder (0.96 for multilingual-e5-small, 0.85 otherwise).",
    )
    checkpoint_path: Path = Field(
        Path(".agent_state/checkpoints.sqlite"),
        description="SQLite file of conversation checkpoints (used when AGENT_CHECKPOINT_URL is unset).",
    )
    checkpoint_url: SecretStr | None = Field(
        None,
        description="postgresql://user:password@host:port/db: conversations in PostgreSQL, shared by every "
        "app process; unset = the SQLite file. Secret: never shown.",
    )
    checkpoint_pool_size: int = Field(
        20,
        ge=2,
        le=200,
        description="PostgreSQL: turns one app process answers at once; it opens two pools of this size "
        "(checkpoint writes, and one connection per turn for its lock).",
    )
    checkpoint_timeout_seconds: float = Field(
        10.0, gt=0, le=300, description="Longest wait to connect to PostgreSQL or get a pooled connection."
    )
    questions_log: bool = Field(
        True,
        description="Keep a log of visitors' questions (masked) in the conversations' database, for the "
        "operators' insights; false = keep none.",
    )
    questions_retention_days: int = Field(
        90, ge=1, le=3650, description="Days a logged question is kept; older ones are deleted."
    )
    checkpoints_per_thread: int = Field(
        1,
        ge=1,
        le=1000,
        description="Checkpoints kept per conversation after each turn (the latest hold all a later turn "
        "needs; more keep older states for inspection).",
    )
    conversation_retention_days: float = Field(
        90,
        ge=0,
        le=36500,
        description="Conversations whose last turn is older are deleted when the service starts and by "
        "python -m agents prune; 0 keeps them forever.",
    )
    max_turns_per_conversation: int = Field(
        50,
        ge=1,
        le=10000,
        description="Questions one conversation may hold; the next is refused politely (start a new one).",
    )
    turn_wait_seconds: float = Field(
        30.0,
        ge=0,
        le=600,
        description="Longest wait for another turn of the same conversation to finish before refusing.",
    )

    @field_validator(
        "provider",
        "model",
        "mistral_api_key",
        "mistral_base_url",
        "openai_api_key",
        "openai_base_url",
        "checkpoint_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        """``MISTRAL_API_KEY=`` left empty in ``.env`` means unset, not an empty key."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("checkpoint_url")
    @classmethod
    def _postgres_only(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(POSTGRES_SCHEMES):
            raise ValueError("it must start with postgresql:// (unset it to keep the SQLite file)")
        return value

    @model_validator(mode="after")
    def _one_provider_named(self) -> Self:
        """``AGENT_PROVIDER`` and a ``provider:`` prefix in ``AGENT_MODEL`` must not disagree."""
        prefixed = self.model_provider_prefix
        named = LANGCHAIN_PROVIDER_NAMES.get(self.provider, self.provider) if self.provider else None
        if prefixed is not None and named is not None and named != prefixed:
            raise ValueError(
                f"AGENT_PROVIDER={self.provider} and AGENT_MODEL={self.model} name different "
                "providers; unset AGENT_PROVIDER or drop the prefix"
            )
        return self

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
    def model_provider_prefix(self) -> str | None:
        """The LangChain provider named by ``AGENT_MODEL=provider:model``, if it has such a prefix.

        Only a provider LangChain knows counts, so an Ollama model such as ``mistral:7b`` stays a name.
        """
        if self.model is None or ":" not in self.model:
            return None
        prefix = self.model.split(":", 1)[0]
        return prefix if prefix in langchain_providers() else None

    @property
    def resolved_provider(self) -> str:
        """``AGENT_MODEL``'s ``provider:`` prefix, else the provider asked for, else the first one whose
        key or URL is configured, else offline. Mistral and OpenAI keep our names (mistral, openai)."""
        prefixed = self.model_provider_prefix
        if prefixed is not None:
            return OUR_PROVIDER_NAMES.get(prefixed, prefixed)
        if self.provider is not None:
            return self.provider
        if self.mistral_api_key is not None:
            return "mistral"
        if self.openai_api_key is not None or self.openai_base_url is not None:
            return "openai"
        return "offline"

    @property
    def langchain_provider(self) -> str:
        """The resolved provider as ``init_chat_model`` names it."""
        provider = self.resolved_provider
        return LANGCHAIN_PROVIDER_NAMES.get(provider, provider)

    @property
    def resolved_model(self) -> str:
        """The chat model name (without a ``provider:`` prefix), defaulting per resolved provider."""
        if self.model_provider_prefix is not None and self.model is not None:
            return self.model.split(":", 1)[1]
        return self.model or DEFAULT_CHAT_MODELS[self.resolved_provider]
