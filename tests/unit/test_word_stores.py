"""The word stores of the transport modes, the answer types and the value grammar have the shape
their modules read; the modules keep the logic and no word tables of their own."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import pytest

from agents.answer import value_grammar
from rag import answer_types
from rag.lexicon import transport
from rag.lexicon.stores import read_store
from rag.lexicon.transport import TravelMode

ROOT = Path(__file__).resolve().parents[2]
MOST_WORDS = 8  # a collection holding more lower-case strings than this is a word table (codes: "EUR")


def _words(values: object) -> bool:
    return isinstance(values, tuple | list) and bool(values) and all(isinstance(w, str) and w for w in values)


def test_every_mode_has_its_words_and_its_named_kinds() -> None:
    modes = get_args(TravelMode)
    assert tuple(transport.mode_words()) == modes
    assert all(_words(words) for words in transport.mode_words().values())
    assert tuple(transport.named_kinds()) == modes
    for kinds in transport.named_kinds().values():
        assert kinds and all(isinstance(kind, str) and _words(words) for kind, words in kinds.items())


def test_a_transport_store_naming_another_mode_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "transport.toml"
    store.write_text('[mode_words]\ncar = ["car"]\nboat = ["boat"]\n', encoding="utf-8")
    monkeypatch.setattr(transport, "TRANSPORT_FILE", store)
    transport.mode_words.cache_clear()
    try:
        with pytest.raises(ValueError, match="should name"):
            transport.mode_words()
    finally:
        transport.mode_words.cache_clear()


def test_every_answer_type_has_cues_and_the_count_has_number_words() -> None:
    store = read_store(answer_types.WORDS_FILE)
    assert list(store["cues"]) == [kind.name for kind in answer_types.answer_types()]
    assert all(_words(stems) for stems in store["cues"].values())
    assert _words(store["number_words"])


def test_every_unit_names_an_answer_kind_a_factor_and_its_words() -> None:
    kinds = {kind.name for kind in answer_types.answer_types()}
    units = read_store(value_grammar.WORDS_FILE)["units"]
    for unit in units.values():
        assert unit["kind"] in kinds
        assert isinstance(unit["factor"], int) and unit["factor"] > 0
        assert isinstance(unit.get("name", ""), str)
        assert _words(unit["words"])
    assert (units["minute"]["kind"], units["minute"]["factor"]) == ("duration", 1)
    assert (units["hour"]["kind"], units["hour"]["factor"]) == ("duration", 60)


def test_the_value_grammar_reads_its_ranges_free_words_and_meridiems() -> None:
    store = read_store(value_grammar.WORDS_FILE)
    assert _words(store["range_connectors"]) and _words(store["free"])
    assert value_grammar.cjk_meridiem() and set(value_grammar.cjk_meridiem().values()) <= {"a", "p"}
    re.compile(value_grammar.connector())
    re.compile(value_grammar.free_words())


@pytest.mark.parametrize(
    "module", ["rag/lexicon/transport.py", "rag/answer_types.py", "agents/answer/value_grammar.py"]
)
def test_the_module_keeps_no_word_table(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    tables = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict | ast.Call)
        and sum(
            isinstance(c, ast.Constant) and isinstance(c.value, str) and not c.value.isupper()
            for c in ast.iter_child_nodes(node)
        )
        > MOST_WORDS
    ]
    assert not tables, f"{module} holds word tables at lines {tables}; move them to a store under data/"
