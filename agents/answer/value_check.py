"""Every value an answer states must be in a passage it cites: a sentence stating one that is not is removed.

Citation checking verifies that "[1]" names a passage; this checks what the sentence says. Each
sentence (a line's sentences from ``sentencex``; a quotation with its citation counts as one; a
label line "**Price**: 21 € [1]" is one) has its values read (``value_extract``) and each must be
read, with the same kind and key, in a passage the sentence cites, or, when it cites none, in any
passage or tool result. Kept sentences are returned as written, Markdown and citations included.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel
from sentencex import segment

from agents.answer.citations import CITATION_GROUP, cited_numbers
from agents.answer.value_extract import StatedValue, extract_values, text_readings, value_spans

_LINE_PREFIX = re.compile(  # indentation, a list or quote mark, a heading's hashes, a bold label
    r"^\s*(?:(?:[-*+•]|\d{1,2}[.)])\s+|>\s*|#{1,6}\s+)?(?:\*\*[^*\n]{1,60}?(?:[:：]\*\*|\*\*\s*[:：])\s*)?"
)
_OPENING = {"«": "»", "“": "”", "„": "“", "「": "」", "『": "』", "‹": "›"}
_DEFAULT_LANGUAGE = "en"


class ValueVerdict(BaseModel):
    """One stated value: the sentence stating it, what it cites, where it was found, and whether it holds."""

    value: StatedValue
    sentence_index: int
    cited: list[int]
    found_in_passages: list[int]  # every passage stating it, cited or not
    found_in_tool: bool
    verified: bool


class ValueCheck(BaseModel):
    """The answer without the sentences whose values could not be verified, and why."""

    text: str
    verdicts: list[ValueVerdict]
    removed: list[str]
    failures: list[str]  # one line per unverified value, for a rewrite prompt

    @property
    def all_verified(self) -> bool:
        """Whether every stated value was found where the answer says it is."""
        return all(verdict.verified for verdict in self.verdicts)


@dataclass
class _Line:
    """One line of the answer: its Markdown prefix, its sentences, and what follows them."""

    prefix: str
    sentences: list[str]
    trailing: str


def check_values(
    answer: str, passages: Mapping[int, str], tool_texts: Sequence[str] = (), language: str = ""
) -> ValueCheck:
    """Verify every value ``answer`` states against the numbered ``passages`` it cites (or, uncited,
    against any passage or ``tool_texts``); drop the sentences holding one that is not found.

    Args:
        answer: the answer as Markdown, with ``[n]`` citations.
        passages: passage text by citation number.
        tool_texts: what the tools returned, for values no passage is cited for (a forecast, a trip).
        language: the answer's language (ISO 639-1), for sentence splitting.
    """
    lines = [_split_line(line, language or _DEFAULT_LANGUAGE) for line in answer.split("\n")]
    verdicts: list[ValueVerdict] = []
    failures: list[str] = []
    unverified: set[int] = set()
    index = -1
    for line in lines:
        for position, sentence in enumerate(line.sentences):
            index += 1
            stated = line.prefix + sentence if position == 0 else sentence  # "8. Juni" is no list number
            for verdict in _verdicts(stated, index, passages, tool_texts):
                verdicts.append(verdict)
                if not verdict.verified:
                    unverified.add(index)
                    failures.append(_failure(verdict))
    if not unverified:
        return ValueCheck(text=answer, verdicts=verdicts, removed=[], failures=[])
    kept, removed = _without(lines, unverified)
    return ValueCheck(text=kept, verdicts=verdicts, removed=removed, failures=failures)


def _split_line(line: str, language: str) -> _Line:
    """A line's Markdown prefix, its sentences (a quotation kept whole), and its trailing spaces."""
    body = line.rstrip()
    prefix = _LINE_PREFIX.match(body)
    start = prefix.end() if prefix and prefix.end() < len(body) else 0
    text = body[start:]
    spans = value_spans(CITATION_GROUP.sub(_blank, body))
    sentences: list[str] = []
    open_quotes: list[str] = []
    offset = start
    for piece in segment(language, text) if text.strip() else []:
        inside = bool(open_quotes)
        _follow_quotes(piece, open_quotes)
        cuts_a_value = any(a < offset < b for a, b in spans)  # "Am 11. Juni": "11." is no sentence
        if sentences and (inside or cuts_a_value or not _has_words(piece)):  # a quotation goes on; "[2]"
            sentences[-1] += piece
        else:
            sentences.append(piece)
        offset += len(piece)
    return _Line(body[:start], sentences, line[len(body) :])


def _follow_quotes(text: str, open_quotes: list[str]) -> None:
    """Update the stack of quotation marks still open after ``text``."""
    for char in text:
        if open_quotes and char == _OPENING.get(open_quotes[-1], open_quotes[-1]):
            open_quotes.pop()
        elif char in _OPENING or char == '"':
            open_quotes.append(char)


def _has_words(text: str) -> bool:
    return bool(re.search(r"\w", CITATION_GROUP.sub("", text)))


def _verdicts(
    sentence: str, index: int, passages: Mapping[int, str], tool_texts: Sequence[str]
) -> list[ValueVerdict]:
    """A verdict for each distinct value the sentence states."""
    cited = cited_numbers(sentence)
    blanked = CITATION_GROUP.sub(_blank, sentence)
    values = {(value.kind, value.key): value for value in extract_values(blanked)}
    verdicts = []
    for value in values.values():
        readings = value.readings
        found = [number for number in sorted(passages) if readings & text_readings(passages[number])]
        in_tool = any(readings & text_readings(text) for text in tool_texts)
        # A tool result states its values itself (a visit fact's day, a forecast); a passage's value
        # must be in a passage the sentence cites.
        verified = in_tool or (any(number in found for number in cited) if cited else bool(found))
        verdicts.append(
            ValueVerdict(
                value=value,
                sentence_index=index,
                cited=cited,
                found_in_passages=found,
                found_in_tool=in_tool,
                verified=verified,
            )
        )
    return verdicts


def _blank(match: re.Match[str]) -> str:
    """Spaces in place of a citation, so its digits read as no value and offsets stay."""
    return " " * len(match.group())


def _failure(verdict: ValueVerdict) -> str:
    """One line naming the value and where it was looked for, for a model asked to rewrite."""
    value = verdict.value
    stated = f'Sentence {verdict.sentence_index + 1} states "{value.text}" ({value.kind} {value.key})'
    if not verdict.cited:
        return f"{stated} without a citation, and no passage or tool result states it."
    line = f"{stated} citing {_numbers(verdict.cited)}, which does not state it."
    if verdict.found_in_passages:
        line += f" It is in {_numbers(verdict.found_in_passages)}."
    return line


def _numbers(numbers: list[int]) -> str:
    return ("passage " if len(numbers) == 1 else "passages ") + ", ".join(f"[{n}]" for n in numbers)


def _without(lines: list[_Line], unverified: set[int]) -> tuple[str, list[str]]:
    """The answer without the unverified sentences (a line left without words goes), and those sentences."""
    kept_lines: list[str] = []
    removed: list[str] = []
    index = -1
    for line in lines:
        kept = []
        for sentence in line.sentences:
            index += 1
            if index in unverified:  # a label line is reported with its label
                removed.append((line.prefix + sentence if len(line.sentences) == 1 else sentence).strip())
            else:
                kept.append(sentence)
        if len(kept) == len(line.sentences):
            kept_lines.append(line.prefix + "".join(kept) + line.trailing)
        elif _has_words(body := "".join(kept).strip()):
            kept_lines.append(line.prefix + body + line.trailing)
    text = re.sub(r"\n(?:[ \t]*\n){2,}", "\n\n", "\n".join(kept_lines))  # a paragraph gone leaves one gap
    return text.strip("\n"), removed
