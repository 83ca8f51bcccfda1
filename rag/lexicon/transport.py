"""Transport modes: the travel tool's four, and the words that name them in the nine languages.

The travel tool's modes are canonical. A visitor names a kind of transport ("the RER", "a taxi");
``named_kinds`` files each kind under the mode that serves it, and the kind's name is itself a word
the tool reads as that mode. ``mode_words`` is wider: the tool also reads what a model may write
("public transport", "transit"), words too loose to show that a message asks for a route. The words
live in ``data/lexicon/transport.toml``.
"""

from __future__ import annotations

import functools
from typing import Any, Literal, cast, get_args

from rag.config import PROJECT_ROOT
from rag.lexicon.stores import read_store

TravelMode = Literal["public_transport", "car", "bike", "walk"]

TRANSPORT_FILE = PROJECT_ROOT / "data" / "lexicon" / "transport.toml"


def _by_mode(table: dict[str, Any]) -> dict[TravelMode, Any]:
    """``table``, in the file's order, once its keys are checked to be the four modes."""
    if set(table) != set(modes := get_args(TravelMode)):
        raise ValueError(f"{TRANSPORT_FILE} names the modes {sorted(table)}; it should name {list(modes)}.")
    return {cast(TravelMode, mode): value for mode, value in table.items()}


@functools.cache
def mode_words() -> dict[TravelMode, tuple[str, ...]]:
    """Words a visitor (or the model) may use for each mode, in the nine languages; matched after
    ``gazetteer.normalise`` (no case, no accents), as whole words except in Japanese and Chinese."""
    table = _by_mode(read_store(TRANSPORT_FILE)["mode_words"])
    return {mode: tuple(words) for mode, words in table.items()}


@functools.cache
def named_kinds() -> dict[TravelMode, dict[str, tuple[str, ...]]]:
    """The kinds of transport a visitor's message names, by the mode that serves them, with the
    words naming each kind (compared folded, at word boundaries), kinds in search order."""
    table = _by_mode(read_store(TRANSPORT_FILE)["named_kinds"])
    return {mode: {kind: tuple(words) for kind, words in kinds.items()} for mode, kinds in table.items()}


def kind_words() -> dict[str, tuple[str, ...]]:
    """The words of every named kind ("train", "taxi"...), kinds in search order."""
    return {kind: words for kinds in named_kinds().values() for kind, words in kinds.items()}
