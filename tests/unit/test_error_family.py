"""One error family: every error class derives from its package's base, and the CLIs and the app
catch the one list in rag.errors and show the same sentence."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from pydantic_settings import SettingsError

from agents import cli as agents_cli
from agents.conversations.turn_locks import TurnBusy
from agents.errors import AgentError
from agents.models.provider_errors import ProviderError
from app_ui.support import INDEX_HINT, error_message, stream_turn
from rag import cli as rag_cli
from rag.errors import USER_ERRORS, RagError, UserFacingError, error_sentence
from rag.retriever import QueryError
from rag.store import IndexMissingError, KnowledgeBaseError
from rag.uploads import UploadError

ROOT = Path(__file__).resolve().parents[2]
BASES = {"agents": AgentError, "rag": RagError}


def _base_name(base: ast.expr) -> str:
    return base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")


def _exception_classes(package: str) -> list[tuple[str, str]]:
    """(module, class) of every class in ``package`` with a base named like an error or a class it
    defines (checked on the imported class); the family's shared root is the one exception."""
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ClassDef)
                and node.name != "UserFacingError"
                and any(
                    _base_name(base).endswith(("Error", "Exception", "Busy", "Unavailable", "Large"))
                    for base in node.bases
                )
            ):
                found.append((module, node.name))
    return found


@pytest.mark.parametrize("package", sorted(BASES))
def test_every_error_class_derives_from_its_package_base(package: str) -> None:
    classes = _exception_classes(package)
    assert len(classes) >= 5  # the scan found the family, not nothing
    strays = []
    for module, name in classes:
        cls = getattr(importlib.import_module(module), name)
        if issubclass(cls, BaseException) and not issubclass(cls, BASES[package]):
            strays.append(f"{module}.{name}")
    assert strays == []


@pytest.mark.parametrize(
    ("cls", "builtin"),
    [
        (QueryError, ValueError),
        (UploadError, ValueError),
        (KnowledgeBaseError, RuntimeError),
        (ProviderError, RuntimeError),
        (TurnBusy, RuntimeError),
    ],
)
def test_builtin_bases_are_kept_for_callers_that_catch_them(cls: type, builtin: type) -> None:
    assert issubclass(cls, builtin)
    assert issubclass(cls, UserFacingError)


def test_the_user_message_is_the_sentence_shown() -> None:
    busy = TurnBusy(3)
    assert busy.user_message == str(busy)
    assert error_sentence(busy) == busy.user_message
    assert "wait for it to finish" in error_sentence(busy)


def test_one_list_covers_both_packages_and_settings() -> None:
    for error in (QueryError("x"), ProviderError("x", provider="p", kind="timeout"), SettingsError("x")):
        assert isinstance(error, USER_ERRORS)
    assert not isinstance(KeyError("x"), USER_ERRORS)  # a bug keeps its traceback


def _failing(error: Exception):  # type: ignore[no-untyped-def]
    def handler(args: object) -> int:
        raise error

    return handler


@pytest.mark.parametrize(
    "error",
    [
        UploadError("That file is too large: upload a smaller one."),
        ProviderError("Set AGENT_MODEL.", provider="p", kind="not_configured"),
    ],
)
def test_both_clis_print_one_line_and_exit_2(
    error: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for cli, argv in ((agents_cli, ["forget", "t"]), (rag_cli, ["stats"])):
        parser = cli.build_parser()
        monkeypatch.setattr(cli, "build_parser", lambda parser=parser: parser)
        monkeypatch.setattr(parser, "parse_args", lambda argv, parser=parser: _namespace(_failing(error)))
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(error) in err


def _namespace(handler):  # type: ignore[no-untyped-def]
    import argparse

    return argparse.Namespace(handler=handler, verbose=False)


def test_the_app_adds_its_hints_to_the_same_sentence() -> None:
    missing = IndexMissingError("No index in idx: run `python -m rag index`.")
    assert error_message(missing) == f"The knowledge base is not ready. {missing} {INDEX_HINT}"
    unreadable = SettingsError("bad json")
    assert error_message(unreadable) == error_sentence(unreadable)


def test_an_agent_error_met_mid_turn_becomes_an_error_event() -> None:
    class Failing:
        def stream(self, question: str, thread_id: str):  # type: ignore[no-untyped-def]
            raise ProviderError("The model did not answer in time: ask again.", provider="p", kind="timeout")
            yield

    events = list(stream_turn(Failing(), "q", "t"))  # type: ignore[arg-type]
    assert [event.message for event in events] == ["The model did not answer in time: ask again."]
