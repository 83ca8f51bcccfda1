"""How the offline model reads a question and its evidence (the file to read to follow it).

1. **Parts.** The question is cut on question marks and "and"-words (never inside a name such as
   "galerie des Sculptures et des Moulages"). A part with fewer than two topic words ("and when?")
   borrows the first part; a part that asks for no kind of value borrows the previous part's kinds.
2. **Candidates.** Each passage is cut into sentences by ``sentencex`` (French, CJK punctuation...).
   Markdown is read, not quoted: a heading labels the sentences under it, a table row becomes
   "row — column: value" pairs (header and separator rows are dropped), links keep their text,
   images go. Navigation debris (a few words without a value) and repeated sentences are dropped.
3. **Scores.** For each part and sentence: the multilingual embedder's query–sentence cosine, the
   part's needs met by the sentence (IDF-weighted over the evidence; a glossary concept is met by
   its terms in the sentence's language, headings count half), whether the sentence holds the
   kind of value asked for (``rag.answer_types``), and the passage's retrieval score. The
   embedder only sees the best candidates of the cheap signals (it costs ~50 ms a sentence).
4. **Verdict.** A part is answered when its best sentence scores at least ``ANSWER_THRESHOLD``,
   chosen on the "tune" half of the development questions and checked on the other half.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sentencex import segment

from agents.offline.phrases import CJK, cues, fold, phrases, word_set
from rag.answer_types import AnswerType, expected_types, type_match
from rag.bm25 import tokenizer_for
from rag.language import detect_language
from rag.query_expansion import load_glossary

Embed = Callable[[Sequence[str]], np.ndarray]

ANSWER_THRESHOLD = 0.45
SEARCH_MORE_BELOW = 0.8  # a part scoring less is searched again (gap analysis), though it may be answered
QUOTED_PER_PART, CLOSE_TO_BEST = 3, 0.7  # sentences quoted per part: the best and those close to it
WEIGHTS = {"dense": 0.75, "needs": 0.75, "type": 0.25, "retrieval": 0.1}
DENSE_FLOOR, DENSE_SPAN = 0.75, 0.15  # e5 cosines: 0.75 says little, 0.90 is a close paraphrase
EMBEDDED_PER_PART, EMBEDDED_MAX = 6, 16
MAX_PARTS = 6
STEM = 6  # stems cut to a common length, so that "ouverture" and "ouvert" still meet
MIN_WORDS = 6  # shorter sentences without a value are navigation words ("Conseils de visite.")

_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s+")
_ITEM_NAME = re.compile(r"^\*\*(.+?)\*\*")
_IMAGE = re.compile(r"!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*{1,3}|_{2,3}|`+")
_TABLE_LINE = re.compile(r"^[|:\- ]*-{3,}[|:\- ]*$")
_REFERENCE = re.compile(r"\[\d+\]|\(#\)|\(\s*\)")  # "[34]" would read as a citation
_TRAILING_DEBRIS = re.compile(r"^(.*[.!?»)])\s+([^.!?]{1,30})$")
_NUMBERED_TITLE = re.compile(r"^\d+\s*[-–.)]\s*")
_WORD = re.compile(r"\w+(?:['-]\w+)*")
_BREAK = re.compile(r"[?!;？！；。\n]+")
_LOOKS_CAPITALISED = re.compile(r"[A-ZÀ-Ý]")


@dataclass(frozen=True)
class Candidate:
    """One quotable sentence of an evidence passage."""

    number: int  # the passage's evidence number, cited as [n]
    text: str
    label: str  # the heading or table row it belongs to, shown before the quote
    language: str
    stems: frozenset[str]
    context: frozenset[str]  # stems of the passage's title and headings
    retrieval: float  # the passage's retrieval score, 0-1 within the evidence
    position: int = 0  # index in the candidate list


@dataclass
class PartReading:
    """How well the evidence answers one part: candidates with their score, best first."""

    part: str
    kinds: list[AnswerType]
    ranked: list[tuple[float, Candidate]] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.ranked[0][0] if self.ranked else 0.0

    @property
    def answered(self) -> bool:
        return self.score >= ANSWER_THRESHOLD

    @property
    def settled(self) -> bool:
        """Answered well enough that searching again is not worth it."""
        return self.score >= SEARCH_MORE_BELOW

    def best(self) -> list[Candidate]:
        """The best sentence and the next ones scoring within ``CLOSE_TO_BEST`` of it."""
        floor = max(ANSWER_THRESHOLD, CLOSE_TO_BEST * self.score)
        return [c for score, c in self.ranked[:QUOTED_PER_PART] if score >= floor]


# --- 1. parts of the question ----------------------------------------------------------------


def content_words(text: str, language: str) -> list[str]:
    """Folded words of ``text`` that name a topic (no stop words, question words or common verbs)."""
    ignored = tokenizer_for(language).stopwords | word_set("question_words")
    return [w for w in _WORD.findall(fold(text)) if w not in ignored and not CJK.search(w)]


def _has_topic(text: str, language: str) -> bool:
    return len(CJK.findall(text)) >= 2 or bool(content_words(text, language))


def question_parts(question: str, language: str) -> list[str]:
    """The parts of ``question`` (at most ``MAX_PARTS``), each readable on its own."""
    words = [*phrases()["connectors"].get(language, ()), *phrases()["connectors"]["en"]]
    latin = "|".join(re.escape(w) for w in words if not CJK.search(w))
    cjk = "|".join(re.escape(w) for w in words if CJK.search(w))
    connector = re.compile("|".join(filter(None, [latin and rf"(?<!\w)(?:{latin})(?!\w)", cjk])), re.I)
    pieces: list[str] = []
    for sentence in _BREAK.split(question):
        start = 0
        for match in connector.finditer(sentence):
            before, after = sentence[start : match.start()], sentence[match.end() :]
            inside_name = language != "de" and _capitalised(before.split()[-1:]) and _capitalised(
                [w for w in after.split() if w.lower() not in {"de", "des", "du", "la", "le", "les", "the", "of"}][:1]
            )  # fmt: skip
            if _has_topic(before, language) and _has_topic(after, language) and not inside_name:
                pieces.append(before)
                start = match.end()
        pieces.append(sentence[start:])
    parts: list[str] = []
    for piece in (p.strip(" ,.:¿¡、，\t") for p in pieces):  # "...? And how much?" asks about the first
        if _has_topic(piece, language) or (
            parts and set(_WORD.findall(fold(piece))) & word_set("question_words")
        ):
            parts.append(piece)
    return [
        f"{p} ({parts[0]})" if i and not CJK.search(p) and len(content_words(p, language)) < 2 else p
        for i, p in enumerate(parts[:MAX_PARTS])
    ] or ([question.strip()] if question.strip() else [])


def _capitalised(words: list[str]) -> bool:
    return bool(words) and bool(_LOOKS_CAPITALISED.match(words[0].strip("'\"«(")))


def part_kinds(parts: Sequence[str], language: str) -> list[list[AnswerType]]:
    """The kinds of value each part asks for; a part asking nothing of its own ("...and the Queen's
    Theatre?") takes the previous part's."""
    glossary = load_glossary()
    kinds: list[list[AnswerType]] = []
    for part in parts:
        terms = glossary.translate(part, [language, "en"], "fr") if glossary else []
        own = expected_types(" ".join([part, *terms]))
        asks = set(_WORD.findall(fold(part))) & word_set("question_words")
        kinds.append(own or ([] if asks or not kinds else kinds[-1]))
    return kinds


# --- 2. candidate sentences ------------------------------------------------------------------


def candidates(evidence: Sequence[dict[str, Any]], kb_language: str) -> list[Candidate]:
    """The quotable sentences of the evidence passages, in evidence order, each quoted once."""
    top = max((float(e.get("score") or 0.0) for e in evidence), default=0.0) or 1.0
    found: list[Candidate] = []
    seen: set[str] = set()
    for entry in evidence:
        language = detect_language(entry.get("text", ""), default=kb_language) or kb_language
        stem = _stemmer(language)
        context = stem(f"{entry.get('title', '')} {entry.get('headings', '')}")
        retrieval = max(float(entry.get("score") or 0.0), 0.0) / top
        titles = {re.sub(r"\W+", "", fold(entry.get(name, ""))) for name in ("title", "headings")}
        for label, text in _sentences(entry.get("text", ""), language):
            key = re.sub(r"\W+", "", fold(text))
            if any(key in other for other in seen) or key in titles or key == re.sub(r"\W+", "", fold(label)):
                continue  # a repeat (maybe inside a longer quote), or a title standing alone
            seen.add(key)
            found.append(
                Candidate(
                    int(entry["number"]), text, label, language, stem(f"{label} {text}"), context, retrieval
                )
            )
    return found


def _sentences(body: str, language: str) -> list[tuple[str, str]]:
    """(label, sentence) pairs of a passage's Markdown."""
    found: list[tuple[str, str]] = []
    heading, header = "", None
    pending = ""  # a question ("Can I take photos?") is quoted with the sentence answering it
    lines = [line.strip() for line in body.splitlines()]
    for index, line in enumerate(lines):
        if not line or _TABLE_LINE.match(line):
            header = None if not line else header
            continue
        if "|" in line and index + 1 < len(lines) and _TABLE_LINE.match(lines[index + 1]):
            header = [_inline(cell) for cell in line.strip("|").split("|")]  # a header row: not quoted
            continue
        if match := _HEADING.match(line):
            heading, header = _clean_title(match.group(1)), None
            pending = ""
            continue
        label = heading
        if header is not None and "|" in line:
            cells = [_inline(cell) for cell in line.strip("|").split("|")]
            label = cells[0]
            line = "; ".join(
                f"{name}: {cell}" for name, cell in zip(header[1:], cells[1:], strict=False) if cell
            )
        else:
            header = None
            item = _BULLET.sub("", line)
            if item != line and (name := _ITEM_NAME.match(item)):  # "- **Passeport** – ... 32 €."
                label = _clean_title(name.group(1)).strip(" –-")  # its sentences are about that item
            line = _inline(item)
        for piece in line.split(" | "):  # cells of a table flattened into one line
            for sentence in _joined(segment(language, piece)):
                if not (text := _tidy(sentence)):
                    continue
                if text.endswith(("?", "？")):  # a question without its answer is not quoted
                    pending = text
                    continue
                text, pending = f"{pending} {text}".strip(), ""
                found.append((label if fold(label) not in fold(text) else "", text))
    return found


def _joined(sentences: Iterator[str]) -> list[str]:
    """Sentences, a piece starting in lower case joined to the one before it: the splitter took
    an abbreviation's full stop for a sentence end ("John D. Rockefeller Jr. | envoie...")."""
    joined: list[str] = []
    for sentence in sentences:
        if joined and sentence[:1].islower():
            joined[-1] += sentence
        else:
            joined.append(sentence)
    return joined


def _inline(text: str) -> str:
    text = _REFERENCE.sub("", _EMPHASIS.sub("", _LINK.sub(r"\1", _IMAGE.sub("", text))))
    for start, end in reversed(cues("navigation").find(text)):
        text = text[:start] + text[end:]
    return re.sub(r"\s+(?=[.,])", "", re.sub(r"\s{2,}", " ", text)).strip(" |")


def _clean_title(text: str) -> str:
    return _NUMBERED_TITLE.sub("", _inline(text)).strip(" :")


def _tidy(sentence: str) -> str:
    """The sentence without doubled stops or a trailing navigation fragment; "" when it is debris."""
    text = re.sub(r"\s+", " ", re.sub(r"(?<=[.!?])\.+", "", sentence)).strip()
    if (match := _TRAILING_DEBRIS.match(text)) and len(match.group(2).split()) <= 3:
        text = match.group(1)
    has_value = bool(re.search(r"\d", text))
    long_enough = len(CJK.findall(text)) >= 8 or len(text.split()) >= MIN_WORDS
    return text if (has_value or long_enough) and re.search(r"\w\w", text) else ""


def _stemmer(language: str) -> Callable[[str], frozenset[str]]:
    tokenize = tokenizer_for(language)
    return lambda text: frozenset(stem[:STEM] for stem in tokenize(text))


# --- 3. scores -------------------------------------------------------------------------------


def part_needs(part: str, language: str, target: str) -> list[frozenset[tuple[str, ...]]]:
    """What a ``target``-language sentence must hold to answer ``part``: per glossary concept, any
    of its terms (each a tuple of stems); per other topic word, that word."""
    glossary = load_glossary()
    stem = _stemmer(target)
    asking = phrases()["cues"]["question_concepts"]
    found = glossary.find(part, [language, "en"]) if glossary else []
    hits = [hit for hit in found if hit[0].terms.get("en", ("",))[0] not in asking]
    needs = [
        frozenset(tuple(sorted(stem(term))) for term in concept.terms.get(target, ())) - {()}
        for concept, _, _ in hits
    ]
    folded = fold(part)
    outside = "".join(" " if any(a <= i < b for _, a, b in found) else c for i, c in enumerate(folded))
    needs += [frozenset({tuple(sorted(stem(w)))}) for w in content_words(outside, language) if stem(w)]
    return list(dict.fromkeys(need for need in needs if need))


def _met(need: frozenset[tuple[str, ...]], stems: frozenset[str]) -> bool:
    return any(set(term) <= stems for term in need)


def need_coverage(needs: Sequence[frozenset[tuple[str, ...]]], pool: Sequence[Candidate]) -> list[float]:
    """For each candidate, the IDF-weighted share of ``needs`` it meets (headings count half)."""
    weights = [math.log(1 + len(pool) / (1 + sum(_met(n, c.stems) for c in pool))) for n in needs]
    total = sum(weights) or 1.0
    return [
        sum(
            w if _met(n, c.stems) else w / 2 if _met(n, c.context) else 0.0
            for n, w in zip(needs, weights, strict=True)
        )
        / total
        if any(_met(n, c.stems) for n in needs)
        else 0.0
        for c in pool
    ]


class SentenceVectors:
    """Passage vectors of sentences, cached across calls (a turn reads the same evidence 2-4 times)."""

    def __init__(self, embed_passages: Embed, limit: int = 4096) -> None:
        self.embed_passages = embed_passages
        self.limit = limit
        self.cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            for text, vector in zip(missing, self.embed_passages([t[:400] for t in missing]), strict=True):
                self.cache[text] = vector
        for text in texts:
            self.cache.move_to_end(text)
        while len(self.cache) > self.limit:
            self.cache.popitem(last=False)
        return np.array([self.cache[t] for t in texts])


def read_parts(
    parts: Sequence[str],
    language: str,
    pool: Sequence[Candidate],
    embed_queries: Embed | None = None,
    sentence_vectors: SentenceVectors | None = None,
) -> list[PartReading]:
    """Score every candidate for every part and rank them."""
    readings: list[PartReading] = []
    cheap: list[list[float]] = []
    for part, kinds in zip(parts, part_kinds(parts, language), strict=True):
        scores = [0.0] * len(pool)
        for target in {c.language for c in pool}:
            needs = part_needs(part, language, target)
            group = [i for i, c in enumerate(pool) if c.language == target]
            for i, coverage in zip(group, need_coverage(needs, [pool[i] for i in group]), strict=True):
                scores[i] = (
                    WEIGHTS["needs"] * coverage
                    + WEIGHTS["type"] * type_match(kinds, pool[i].text)
                    + WEIGHTS["retrieval"] * pool[i].retrieval
                )
        readings.append(PartReading(part, kinds))
        cheap.append(scores)
    dense = _dense(parts, pool, cheap, embed_queries, sentence_vectors)
    for reading, scores, closeness in zip(readings, cheap, dense, strict=True):
        total = [s + WEIGHTS["dense"] * d for s, d in zip(scores, closeness, strict=True)]
        reading.ranked = sorted(zip(total, pool, strict=True), key=lambda item: -item[0])
    return readings


def _dense(
    parts: Sequence[str],
    pool: Sequence[Candidate],
    cheap: list[list[float]],
    embed_queries: Embed | None,
    sentence_vectors: SentenceVectors | None,
) -> list[list[float]]:
    """Query–sentence closeness (0-1) of the best cheap candidates of each part; 0 for the rest."""
    closeness = [[0.0] * len(pool) for _ in parts]
    if embed_queries is None or sentence_vectors is None or not pool:
        return closeness
    chosen: list[int] = []
    for scores in cheap:  # each part's best, then each passage's best for the part
        order = sorted(range(len(pool)), key=lambda i: -scores[i])
        by_passage = {pool[i].number: i for i in reversed(order)}
        chosen += [i for i in [*order[:EMBEDDED_PER_PART], *by_passage.values()] if i not in chosen]
    chosen = sorted(chosen, key=lambda i: -max(scores[i] for scores in cheap))[:EMBEDDED_MAX]
    queries = embed_queries(list(parts))
    vectors = sentence_vectors(
        [f"{pool[i].label}: {pool[i].text}" if pool[i].label else pool[i].text for i in chosen]
    )
    similarity = queries @ vectors.T
    for row in range(len(parts)):
        for column, i in enumerate(chosen):
            closeness[row][i] = float(np.clip((similarity[row, column] - DENSE_FLOOR) / DENSE_SPAN, 0.0, 1.0))
    return closeness


def follower(candidate: Candidate, pool: Sequence[Candidate]) -> Candidate | None:
    """The sentence right after ``candidate`` in its passage and section: answers often come just
    after the sentence naming their subject ("The Temple of Love... It was finished in 1778.")."""
    after = pool[candidate.position + 1] if candidate.position + 1 < len(pool) else None
    return after if after and (after.number, after.label) == (candidate.number, candidate.label) else None


KEY_FACT_KINDS = ("price", "hours", "date", "duration", "phone", "distance", "age", "area")


def key_values(kinds: Sequence[AnswerType], text: str, limit: int = 3) -> list[tuple[str, str]]:
    """(kind, value) pairs of the kinds asked for found in ``text``, as written there (counts are
    left out: any number would pass for one)."""
    folded = fold(text)
    same_length = len(folded) == len(text)
    found: list[tuple[str, str]] = []
    for kind in sorted(
        (k for k in kinds if k.name in KEY_FACT_KINDS), key=lambda k: KEY_FACT_KINDS.index(k.name)
    ):
        for match in kind.value.finditer(folded):
            value = (text[match.start() : match.end()] if same_length else match.group()).strip()
            if value and (kind.name, value) not in found and len(found) < limit:
                found.append((kind.name, value))
        if found:  # the most specific kind found
            break
    return found
