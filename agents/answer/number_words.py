"""Numbers written in words ("trente", "twenty-one", "mille sept cent quatre-vingt-neuf", "二十一"),
read as digits so that the value grammar reads "trente euros" as it reads "30 euros".

The words of the seven European visitor languages come from num2words (cardinals 0 to 100, the
hundreds, and the years 1000 to 2100 both as cardinals and as years are said: "seventeen
eighty-nine"); Japanese and Chinese numerals are read with their Unicode numeric values, so no list
of number words is kept here. Offsets into the original text are kept for every character.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from num2words import num2words

from rag.lexicon.folding import fold_in_place
from rag.lexicon.languages import SPELLED_NUMBER_LANGUAGES
from rag.lexicon.table_cache import cached_table

_LETTER = r"[^\W\d_]"
_CJK_NUMERALS = "〇零一二三四五六七八九十百千万萬两兩"
_CJK_RUN = re.compile(f"[{_CJK_NUMERALS}]+")
_WORD = re.compile(_LETTER + "+")
_JOIN = re.compile(r",?[\s-]+")  # between the words of one number


def _numbers() -> Iterator[tuple[int, str]]:
    for number in (*range(101), *range(200, 1001, 100)):
        yield number, "cardinal"
    for year in range(1000, 2101):
        yield year, "cardinal"
        yield year, "year"


@functools.lru_cache(maxsize=1)
def spelled_numbers() -> dict[str, int]:
    """Folded number words of the seven languages, words joined by one space -> their value; built
    once per num2words version and kept on disk (``rag.lexicon.table_cache``)."""
    inputs = [*SPELLED_NUMBER_LANGUAGES, *(f"{number} {kind}" for number, kind in _numbers())]
    return cached_table("spelled_numbers", inputs, ["num2words"], _built_spelled_numbers)


def _built_spelled_numbers() -> dict[str, int]:
    table: dict[str, int] = {}
    for language in SPELLED_NUMBER_LANGUAGES:
        for number, kind in _numbers():
            try:
                words = num2words(number, lang=language, to=kind)
            except (NotImplementedError, OverflowError, ValueError):
                continue
            key = " ".join(re.split(r"[\s,-]+", fold_in_place(words).strip()))
            if key and not any(char.isdigit() for char in key):
                table.setdefault(key, number)
    return table


@functools.lru_cache(maxsize=1)
def _number_words() -> tuple[frozenset[str], int]:
    """The words a spelled number starts with, and the most words one has (7: "mille sept cent
    quatre vingt dix neuf")."""
    table = spelled_numbers()
    return frozenset(key.split(" ", 1)[0] for key in table), max(key.count(" ") + 1 for key in table)


def spelled_spans(folded: str) -> Iterator[tuple[int, int]]:
    """The spans of the spelled numbers in ``folded``, left to right, the longest at each word.

    Read word by word with the table, as a regex of all its entries (211,000 characters, about
    0.7 s to compile per process) would read them: a number starts and ends at the edge of a run
    of letters, its words joined by spaces, hyphens or a comma.
    """
    table, (firsts, longest) = spelled_numbers(), _number_words()
    resume = 0
    for word in _WORD.finditer(folded):
        if word.start() < resume or word.group() not in firsts:
            continue
        key, at = word.group(), word.end()
        end = at if key in table else 0
        for _ in range(longest - 1):
            join = _JOIN.match(folded, at)
            following = _WORD.match(folded, join.end()) if join else None
            if following is None:
                break
            key, at = f"{key} {following.group()}", following.end()
            end = at if key in table else end
        if end:
            yield word.start(), end
            resume = end


def cjk_number(run: str) -> int | None:
    """A run of CJK numerals as a number: positional ("一七八九") or with multipliers ("千七百八十九")."""
    values = [int(unicodedata.numeric(char, -1)) for char in run]
    if any(value < 0 for value in values):
        return None
    if all(value < 10 for value in values):
        return int("".join(map(str, values)))
    total, section, digit = 0, 0, None
    for value in values:
        if value < 10:
            digit = value
        elif value == 10_000:
            total += (section + (digit or 0)) * value
            section, digit = 0, None
        else:
            section += (1 if digit is None else digit) * value
            digit = None
    return total + section + (digit or 0)


@dataclass(frozen=True)
class Digitised:
    """A text with its spelled numbers as digits; for each character, where it came from."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    runs: tuple[tuple[int, int], ...]  # the spelled numbers' spans in the original text

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that ``text[start:end]`` came from."""
        return self.starts[start], self.ends[end - 1]


_NEXT_TO_DIGITS = re.compile(r"[0-9][\s.,]?$|^[\s.,]?[0-9]")


def _spelled(folded: str, start: int, end: int) -> tuple[int, int, int] | None:
    """A spelled number's (start, end, value); None for a lone "one" ("un", "um", "een": articles and
    words of other languages) or words beside digits ("15 sept. 2026": a month, not a seven)."""
    words = _JOIN.split(folded[start:end])
    value = spelled_numbers()[" ".join(words)]
    beside = folded[max(0, start - 2) : start], folded[end : end + 2]
    if (
        (value < 2 and len(words) == 1)
        or _NEXT_TO_DIGITS.search(beside[0])
        or _NEXT_TO_DIGITS.search(beside[1])
    ):
        return None
    return start, end, value


def _runs(folded: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of every spelled number in folded text, in order, never overlapping."""
    found = [run for start, end in spelled_spans(folded) if (run := _spelled(folded, start, end))]
    for match in _CJK_RUN.finditer(folded):
        if (value := cjk_number(match.group())) is not None:
            found.append((match.start(), match.end(), value))
    found.sort()
    kept: list[tuple[int, int, int]] = []
    for run in found:
        if not kept or run[0] >= kept[-1][1]:
            kept.append(run)
    return kept


def digitise(folded: str) -> Digitised | None:
    """``folded`` with each spelled number written in digits, or None when it spells none."""
    runs = _runs(folded) if not folded.isascii() or re.search(r"[a-z]{2}", folded) else []
    if not runs:
        return None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    last = 0
    for start, end, value in runs:
        parts += [folded[last:start], str(value)]
        starts += [*range(last, start), *[start] * len(str(value))]
        ends += [*range(last + 1, start + 1), *[end] * len(str(value))]
        last = end
    parts.append(folded[last:])
    starts += range(last, len(folded))
    ends += range(last + 1, len(folded) + 1)
    return Digitised("".join(parts), tuple(starts), tuple(ends), tuple((a, b) for a, b, _ in runs))
