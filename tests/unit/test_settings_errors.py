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


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400", "Infinity"])
@pytest.mark.parametrize(
    "variable",
    [
        "AGENT_REQUEST_TIMEOUT_SECONDS",
        "AGENT_RETRY_MAX_WAIT_SECONDS",
        "AGENT_CHECKPOINT_TIMEOUT_SECONDS",
        "AGENT_TURN_WAIT_SECONDS",
        "RAG_REMOTE_TIMEOUT_SECONDS",
        "RAG_CRAWL_TIMEOUT_SECONDS",
        "RAG_CRAWL_MAX_RETRY_WAIT_SECONDS",
        "RAG_FRESHNESS_CHECK_SECONDS",
        "RAG_BM25_WEIGHT",
        "TOOLS_TIMEOUT_SECONDS",
    ],
)
def test_a_time_or_weight_must_be_a_finite_number(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    from agents.tool_settings import ToolSettings

    monkeypatch.setenv(variable, value)
    settings = {"AGENT": AgentSettings, "RAG": RagSettings, "TOOLS": ToolSettings}[variable.split("_")[0]]

    sentence = _sentence(settings)

    assert sentence.startswith(f"{variable}=")
    assert "finite number" in sentence or "less than or equal" in sentence or "greater than" in sentence


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("AGENT_REQUEST_TIMEOUT_SECONDS", "100000"),
        ("AGENT_RETRY_INITIAL_WAIT_SECONDS", "3600"),
        ("RAG_REMOTE_TIMEOUT_SECONDS", "86400"),
        ("RAG_CRAWL_TIMEOUT_SECONDS", "86400"),
        ("TOOLS_TIMEOUT_SECONDS", "3600"),
    ],
)
def test_a_timeout_has_a_sane_maximum(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    from agents.tool_settings import ToolSettings

    monkeypatch.setenv(variable, value)
    settings = {"AGENT": AgentSettings, "RAG": RagSettings, "TOOLS": ToolSettings}[variable.split("_")[0]]

    assert _sentence(settings).startswith(
        f"{variable}='{value}' is invalid (input should be less than or equal"
    )


@pytest.mark.parametrize("overlap", ["700", "701", "5000"])
def test_the_chunk_overlap_must_stay_below_the_chunk_size(
    monkeypatch: pytest.MonkeyPatch, overlap: str
) -> None:
    monkeypatch.setenv("RAG_CHUNK_OVERLAP", overlap)

    assert _sentence(RagSettings).startswith(
        f"RAG_CHUNK_OVERLAP={overlap} must be smaller than RAG_CHUNK_SIZE=700"
    )


@pytest.mark.parametrize("value", ["", " ", "\t", "crawler\r\nX-Injected: 1"])
def test_the_crawler_user_agent_cannot_be_blank_or_hold_line_breaks(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("RAG_CRAWL_USER_AGENT", value)

    assert _sentence(RagSettings).startswith("RAG_CRAWL_USER_AGENT=")


@pytest.mark.parametrize(
    "name", ["a", "ab", "-abc", "abc.", "a..b", "a b c", "é-abc", "192.168.1.1", "x" * 513]
)
def test_a_collection_name_follows_chromas_rule(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("RAG_COLLECTION", name)

    assert _sentence(RagSettings).startswith("RAG_COLLECTION=")


@pytest.mark.parametrize("name", ["abc", "knowledge_base", "kb-2.fr", "x" * 512])
def test_a_collection_name_chroma_accepts_is_accepted(name: str) -> None:
    import chromadb

    assert RagSettings(_env_file=None, collection=name).collection == name
    chromadb.EphemeralClient().get_or_create_collection(name)  # Chroma agrees


@pytest.mark.parametrize("value", ["[/srv/corpus", "[1, 2", '{"a": 1}', '"/srv'])
def test_a_malformed_list_of_index_roots_is_one_sentence(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("RAG_APP_INDEX_ROOTS", value)

    assert _sentence(RagSettings).startswith("RAG_APP_INDEX_ROOTS=")


def test_one_folder_given_alone_is_read_as_a_list_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_APP_INDEX_ROOTS", "/srv/corpus")

    assert [str(root) for root in RagSettings(_env_file=None).app_index_roots] == ["/srv/corpus"]


def test_a_url_given_to_a_setting_is_repeated_without_its_credentials() -> None:
    class AgentSettings(BaseSettings):  # named like the real settings, so its variables get AGENT_
        model_config = SettingsConfigDict(env_prefix="AGENT_")
        endpoint: int = 0

    with pytest.raises(ValidationError) as caught:
        AgentSettings(_env_file=None, endpoint="http://bob:pw-secret@host/v1?api_key=k-secret")  # type: ignore[arg-type]

    sentence = error_sentence(caught.value)
    assert "host/v1" in sentence and "secret" not in sentence


@pytest.mark.parametrize(
    ("cli", "variable", "value"),
    [
        ("agents", "AGENT_REQUEST_TIMEOUT_SECONDS", "inf"),
        ("agents", "RAG_CHUNK_OVERLAP", "900"),
        ("agents", "RAG_APP_INDEX_ROOTS", "[/srv/corpus"),
        ("rag", "RAG_COLLECTION", "a"),
        ("rag", "RAG_CRAWL_USER_AGENT", " "),
        ("rag", "RAG_REMOTE_TIMEOUT_SECONDS", "1e400"),
    ],
)
def test_the_clis_exit_2_with_the_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cli: str, variable: str, value: str
) -> None:
    import agents.cli
    import rag.cli

    monkeypatch.setenv(variable, value)
    argv = ["ask", "Opening hours?"] if cli == "agents" else ["stats"]

    code = {"agents": agents.cli.main, "rag": rag.cli.main}[cli](argv)

    err = capsys.readouterr().err
    assert code == 2
    assert variable in err and "Traceback" not in err
