"""Spelled numbers read word by word, as the regex of every number word read them, from a table
kept on disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.answer import number_words
from agents.answer.value_grammar import alternation
from rag.lexicon.folding import fold_in_place
from rag.lexicon.table_cache import cached_table

TEXTS = [
    "Le château ouvre à neuf heures et ferme à dix-huit heures trente.",
    "Construit en mille six cent soixante-huit, agrandi en seventeen eighty-nine.",
    "Il y a vingt et un bassins, deux cent trente-quatre statues et un, deux, trois escaliers.",
    "quatre vingt dix  ,  huit; quatre-vingt-dix-huit; dreiundzwanzig-vier; tre,  quattro, cinque",
    "un2deux trois_quatre cinquante-cinqième 15 sept. 2026 sept2 twenty-one, thirty",
    "Ticket: trente-deux euros, twenty-one dollars, vierundzwanzig Euro, diecinueve euros.",
]


def _regex_spans(text: str) -> list[tuple[int, int]]:
    """What the regex of the whole table (as it was built before) finds."""
    body = alternation(number_words.spelled_numbers()).replace(r"\ ", r",?[\s-]+")
    letter = r"[^\W\d_]"
    pattern = re.compile(rf"(?<!{letter})(?:{body})(?!{letter})")
    return [match.span() for match in pattern.finditer(text)]


def test_spans_are_those_of_the_regex_of_every_number_word() -> None:
    keys = list(number_words.spelled_numbers())
    texts = [fold_in_place(text) for text in TEXTS]
    texts += [
        " et ".join(keys[start : start + 40]).replace(" ", "-", 3) for start in range(0, len(keys), 997)
    ]

    for text in texts:
        assert list(number_words.spelled_spans(text)) == _regex_spans(text), text


def test_a_table_is_built_once_then_read_from_its_file(tmp_path: Path) -> None:
    builds: list[int] = []

    def build() -> dict[str, int]:
        builds.append(1)
        return {"vingt et un": 21}

    first = cached_table("numbers", ["fr"], ["num2words"], build, folder=tmp_path)
    second = cached_table("numbers", ["fr"], ["num2words"], build, folder=tmp_path)
    other = cached_table("numbers", ["fr", "en"], ["num2words"], build, folder=tmp_path)

    assert first == second == other == {"vingt et un": 21} and len(builds) == 2


@pytest.mark.parametrize("content", ["{not json", '{"vingt": "21"}', "[1, 2]"])
def test_a_damaged_table_file_is_built_again(tmp_path: Path, content: str) -> None:
    cached_table("numbers", ["fr"], [], lambda: {"vingt": 20}, folder=tmp_path)
    (path,) = tmp_path.iterdir()
    path.write_text(content, encoding="utf-8")

    assert cached_table("numbers", ["fr"], [], lambda: {"vingt": 20}, folder=tmp_path) == {"vingt": 20}
