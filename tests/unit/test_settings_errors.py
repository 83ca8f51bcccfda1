"""An invalid setting is one sentence naming its variable and rule, never a pydantic dump or a secret."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from agents.config import AgentSettings
from rag.config import RagSettings
from rag.errors import error_sentence


def _sentence(build: type[BaseSettings]) -> str:
    with pytest.raises(ValidationError) as caught:
        build(_env_file=None)
    return error_sentence(caught.value)


def test_a_setting_out_of_range_names_its_variable_value_and_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_CHUNK_SIZE", "5")

    sentence = _sentence(RagSettings)

    assert sentence == (
        "RAG_CHUNK_SIZE='5' is invalid (input should be greater than or equal to 100): "
        "fix it in .env or the environment."
    )


def test_the_number_of_rounds_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MAX_ROUNDS", "1000")

    assert _sentence(AgentSettings).startswith(
        "AGENT_MAX_ROUNDS='1000' is invalid (input should be less than"
    )


def test_the_value_of_a_secret_setting_is_never_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    class RagSettings(BaseSettings):  # named like the real settings, so its variables get RAG_
        model_config = SettingsConfigDict(env_prefix="RAG_")
        api_key: int = 0

    monkeypatch.setenv("RAG_API_KEY", "sk-live-123")

    sentence = _sentence(RagSettings)

    assert sentence.startswith("RAG_API_KEY is invalid (input should be a valid integer")
    assert "sk-live-123" not in sentence


def test_another_invalid_model_is_one_sentence_too() -> None:
    class GapAnalysis(BaseModel):
        missing: list[str]

    with pytest.raises(ValidationError) as caught:
        GapAnalysis.model_validate({"missing": "not a list"})

    assert (
        error_sentence(caught.value)
        == "GapAnalysis could not be read (1 problems): Input should be a valid list."
    )


def test_a_rule_across_settings_never_repeats_the_other_values() -> None:
    """A model-level rule's error carries every input: keys and the checkpoint URL must not show."""
    with pytest.raises(ValidationError) as caught:
        AgentSettings(
            _env_file=None,
            recursion_limit=3,
            mistral_api_key="sk-secret-mistral",
            checkpoint_url="postgresql://u:pw-secret@127.0.0.1/db",
        )

    sentence = error_sentence(caught.value)

    assert sentence.startswith("AGENT_RECURSION_LIMIT=3 is too low for AGENT_MAX_ROUNDS=3")
    assert "secret" not in sentence


def test_an_invalid_checkpoint_url_is_refused_without_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_CHECKPOINT_URL", "mysql://u:pw-secret@127.0.0.1/db")

    sentence = _sentence(AgentSettings)

    assert sentence.startswith(
        "AGENT_CHECKPOINT_URL is invalid (value error, it must start with postgresql://"
    )
    assert "secret" not in sentence
