"""A passage's Markdown read as quotable sentences, each with the label it belongs under.

Sentences come from ``sentencex`` (Wikimedia's splitter: French abbreviations, CJK punctuation).
Markdown is read, not quoted: a heading labels the sentences under it, a list item's bold name
labels its sentences, a table row becomes "column: value" pairs labelled by its first cell (the
header and rule rows are never quoted), links keep their text, images and "[34]"-style references
go. A question is kept with the sentence that answers it; debris (a few words without a value,
link texts such as "Lire la suite") is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sentencex import segment

from rag.cleaning import display_title
from rag.lexicon.folding import fold_accents
from rag.lexicon.scripts import UNSPACED_CHARACTER

MIN_WORDS = 6  # shorter sentences without a figure are headings or navigation ("Conseils de visite.")
NAVIGATION = (
    "lire la suite",
    "en savoir plus",
    "voir plus",
    "voir tout",
    "read more",
    "learn more",
    "see more",
)

_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s+")
_ITEM_NAME = re.compile(r"^\*\*(.+?)\*\*")
_TABLE_RULE = re.compile(r"^[|:\- ]*-{3,}[|:\- ]*$")
_IMAGE = re.compile(r"!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?")
_NOISE = re.compile(  # references ("[34]" would read as a citation), emphasis, link texts
    r"\[\d+\]|\(#\)|\(\s*\)|\*{1,3}|_{2,3}|`+|(?i:" + "|".join(re.escape(p) for p in NAVIGATION) + ")"
)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TRAILING_DEBRIS = re.compile(r"^(.*[.!?»)])\s+([^.!?]{1,30})$")


def labelled_sentences(markdown: str, language: str) -> list[tuple[str, str]]:
    """(label, sentence) pairs of a passage; the label is "" when the sentence names it itself."""
    found: list[tuple[str, str]] = []
    heading, header, question = "", None, ""
    lines = [line.strip() for line in markdown.splitlines()]
    for index, line in enumerate(lines):
        if not line or _TABLE_RULE.match(line):
            header = header if line else None
            continue
        if "|" in line and index + 1 < len(lines) and _TABLE_RULE.match(lines[index + 1]):
            header = [inline(cell) for cell in line.strip("|").split("|")]
            continue
        if match := _HEADING.match(line):
            heading, header, question = title(match.group(1)), None, ""
            continue
        label = heading
        if header is not None and "|" in line:
            cells = [inline(cell) for cell in line.strip("|").split("|")]
            label, line = (
                cells[0],
                "; ".join(f"{h}: {c}" for h, c in zip(header[1:], cells[1:], strict=False) if c),
            )
        else:
            header, item = None, _BULLET.sub("", line)
            if item != line and (name := _ITEM_NAME.match(item)):
                label = title(name.group(1)).strip(" –-")
            line = inline(item)
        for piece in line.split(" | "):  # cells of a table flattened into one line
            for sentence in _rejoined(segment(language, piece)):
                if not (text := _tidy(sentence)):
                    continue
                if text.endswith(("?", "？")):  # kept for the sentence that answers it
                    question = text
                    continue
                text, question = f"{question} {text}".strip(), ""
                found.append((label if fold_accents(label) not in fold_accents(text) else "", text))
    return found


def inline(text: str) -> str:
    """Inline Markdown as plain text: link texts kept, images, emphasis and references gone."""
    text = _NOISE.sub("", _LINK.sub(r"\1", _IMAGE.sub("", text)))
    return re.sub(r"\s+(?=[.,])", "", re.sub(r"\s{2,}", " ", text)).strip(" |")


def title(text: str) -> str:
    """A heading as a reader sees it: no numbering prefix ("134- FAQ Horaires" -> "FAQ Horaires")."""
    return display_title(inline(text)).strip(" :")


def _rejoined(sentences: Iterable[str]) -> list[str]:
    """A piece starting in lower case goes back to the sentence before it: the splitter took an
    abbreviation's full stop for an end ("John D. Rockefeller Jr. | envoie une lettre")."""
    joined: list[str] = []
    for sentence in sentences:
        if joined and sentence[:1].islower():
            joined[-1] += sentence
        else:
            joined.append(sentence)
    return joined


def _tidy(sentence: str) -> str:
    """The sentence without doubled stops or a trailing navigation fragment; "" for debris."""
    text = re.sub(r"\s+", " ", re.sub(r"(?<=[.!?])\.+", "", sentence)).strip()
    if (match := _TRAILING_DEBRIS.match(text)) and len(match.group(2).split()) <= 3:
        text = match.group(1)
    long_enough = len(UNSPACED_CHARACTER.findall(text)) >= 8 or len(text.split()) >= MIN_WORDS
    return text if (long_enough or re.search(r"\d", text)) and re.search(r"\w\w", text) else ""
