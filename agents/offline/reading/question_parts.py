"""How a visitor's question is cut into parts, and what each part asks: kinds of value, concepts, words.

The question is cut on "?", ";" and each language's "and"-words (``[connectors]`` in
data/offline/phrases.toml), never inside a name ("Appartements du Roi et de la Reine"), and on
its "compared with"-words (``[comparisons]``), even between two names. A part naming fewer than
two topic words ("And how much?") is read with the first part; a part asking nothing of its own
takes the previous part's kinds of value and predicate ("when was the Chapel finished and the
Orangery?"); a compared part takes the first part's asked words ("how wide is the Canal compared
with the Pond?"); at most ``MAX_PARTS`` parts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.answer_types import AnswerType, expected_types
from rag.bm25 import tokenizer_for
from rag.lexicon.concepts import concept_name, found_in, is_subject, roles, topics
from rag.lexicon.folding import blanked, fold, folded_positions
from rag.lexicon.glossary import Concept, load_glossary
from rag.lexicon.phrases import phrases, word_set
from rag.lexicon.scripts import HAN, KATAKANA, UNSPACED_CHARACTER

MAX_PARTS = 6
_WORD = re.compile(r"\w+(?:['-]\w+)*")
_UNREAD_RUN = re.compile(rf"[{KATAKANA}{HAN}a-z]{{2,}}")  # hiragana, which marks grammar, left out
_BREAK = re.compile(r"[?!;？！；。\n]+")
_NAME_WORDS = frozenset({"de", "des", "du", "la", "le", "les", "the", "of"})


def content_words(text: str, language: str) -> list[str]:
    """Folded words of ``text`` naming a topic (no stop words, question words or common verbs)."""
    ignored = tokenizer_for(language).stopwords | word_set("question_words")
    return [w for w in _WORD.findall(fold(text)) if w not in ignored and not UNSPACED_CHARACTER.search(w)]


def _has_topic(text: str, language: str) -> bool:
    return len(UNSPACED_CHARACTER.findall(text)) >= 2 or bool(content_words(text, language))


def _asks(text: str) -> bool:
    return bool(set(_WORD.findall(fold(text))) & word_set("question_words"))


def question_parts(question: str, language: str) -> list[str]:
    """The parts of ``question`` (at most ``MAX_PARTS``), each readable on its own."""
    parts: list[tuple[str, bool]] = []  # (part, whether it is compared with the part before)
    for piece, compared in _pieces(question, language):
        piece = piece.strip(" ,.:¿¡、，\t")
        if _has_topic(piece, language) or (parts and _asks(piece)):
            parts.append((piece, compared))
    read = []
    for i, (part, compared) in enumerate(parts[:MAX_PARTS]):
        lean = i > 0 and not UNSPACED_CHARACTER.search(part) and len(content_words(part, language)) < 2
        if compared:
            read.append(_compared(part, parts[i - 1][0], language))
        elif lean:
            read.append(f"{part} ({parts[0][0]})")
        else:
            read.append(_with_predicate(part, parts[i - 1][0], language) if i else part)
    return read or ([question.strip()] if question.strip() else [])


def _pieces(question: str, language: str) -> list[tuple[str, bool]]:
    """``question`` cut at its breaks and joining words, each piece with whether a comparison word
    ("compared with") put it against the piece before."""
    comparisons = [*phrases()["comparisons"].get(language, ()), *phrases()["comparisons"]["en"]]
    words = [*comparisons, *phrases()["connectors"].get(language, ()), *phrases()["connectors"]["en"]]
    latin = "|".join(re.escape(w) for w in words if not UNSPACED_CHARACTER.search(w))
    cjk = "|".join(re.escape(w) for w in words if UNSPACED_CHARACTER.search(w))
    connector = re.compile("|".join(filter(None, [latin and rf"(?<!\w)(?:{latin})(?!\w)", cjk])), re.I)
    comparing = {fold(w) for w in comparisons}
    pieces: list[tuple[str, bool]] = []
    for sentence in _BREAK.split(question):
        start, compared = 0, False
        for match in connector.finditer(sentence):
            before, after = sentence[start : match.start()], sentence[match.end() :]
            compares = fold(match.group()) in comparing
            name_after = [w for w in after.split() if w.lower() not in _NAME_WORDS][:1]
            in_name = (
                language != "de"
                and not compares
                and _capitalised(before.split()[-1:])
                and _capitalised(name_after)
            )
            if _has_topic(before, language) and _has_topic(after, language) and not in_name:
                pieces.append((before, compared))
                start, compared = match.end(), compares
        pieces.append((sentence[start:], compared))
    return pieces


def _named(text: str, language: str) -> list[tuple[Concept, int, int]]:
    """(concept, start, end) of the glossary concepts ``text`` names, as positions in ``text``."""
    starts = folded_positions(text)[1]
    return [
        (concept, starts[start], starts[end - 1] + 1)
        for concept, start, end in found_in(text, [language, "en"])
        if end <= len(starts)
    ]


def _is_subject(concept: Concept) -> bool:
    """A place, an offer, a group of visitors, or a word standing for a place ("the palace")."""
    return is_subject(concept) or concept_name(concept) in roles()["place_stand_ins"]


def _subject_spans(text: str, language: str) -> list[tuple[int, int]]:
    """Where ``text`` names a subject."""
    return [(start, end) for concept, start, end in _named(text, language) if _is_subject(concept)]


def _compared(part: str, previous: str, language: str) -> str:
    """A part set against the previous one ("…the Theatre, compared with the Opera") asks what it
    asks: it is given the previous part's lower-case topic words outside its subjects."""
    spans = _subject_spans(previous, language)
    topic = set(content_words(previous, language))
    asked = [
        m.group()
        for m in _WORD.finditer(previous)
        if m.group().islower()
        and len(m.group()) > 2
        and fold(m.group()) in topic
        and not any(a <= m.start() < b for a, b in spans)
    ]
    return f"{part} ({' '.join(asked)})" if asked else part


def _with_predicate(part: str, previous: str, language: str) -> str:
    """A part asking nothing of its own, given the previous part's predicate: "when were the Temple
    and the Theatre finished?" asks "finished" of "the Theatre" too. A predicate is a glossary concept
    that is none of a subject, a qualifier or a question, written in lower case (not a name):
    "finished", "designed", "inaugurated"."""
    if _asks(part):
        return part
    own = {concept_name(concept) for concept, _, _ in _named(part, language)}
    spans = [
        previous[start:end]
        for concept, start, end in _named(previous, language)
        if topics([concept]) and not _is_subject(concept) and concept_name(concept) not in own
    ]
    predicates = [span for span in spans if span.islower()]
    return f"{part} ({' '.join(predicates)})" if predicates else part


def _capitalised(words: list[str]) -> bool:
    return bool(words) and words[0].strip("'\"«(")[:1].isupper()


def part_kinds(parts: Sequence[str], language: str) -> list[list[AnswerType]]:
    """The kinds of value each part asks for (a part asking nothing takes the previous part's)."""
    glossary = load_glossary()
    kinds: list[list[AnswerType]] = []
    for part in parts:
        own = expected_types(
            " ".join([part, *(glossary.translate(part, [language, "en"], "fr") if glossary else [])])
        )
        kinds.append(own or ([] if _asks(part) or not kinds else kinds[-1]))
    return kinds


def concepts_and_words(part: str, language: str) -> tuple[list[Concept], list[str]]:
    """The glossary concepts ``part`` names (those that only ask "when", "how many"... left out) and
    its other topic words."""
    found = found_in(part, [language, "en"])
    outside = blanked(fold(part), ((a, b) for _, a, b in found))
    asking = roles()["question"]
    concepts = [concept for concept, _, _ in found if concept_name(concept) not in asking]
    return concepts, content_words(outside, language)


def unread_words(part: str, language: str) -> list[str]:
    """A Chinese or Japanese part's runs of two or more ideographs, katakana or Latin letters
    outside the glossary's terms ("電気代", "故宫博物院"): what it says that the reader cannot read,
    since ``content_words`` finds no word in them."""
    outside = fold(part)
    for concept, _, _ in found_in(part, [language, "en"]):  # every time a term is named, not only once
        terms = {t for lang in (language, "en") for t in concept.terms.get(lang, ())}
        for term in sorted(terms, key=len, reverse=True):
            outside = outside.replace(term, " " * len(term))
    return _UNREAD_RUN.findall(outside)


def topic_words(part: str, language: str, kinds: Sequence[AnswerType]) -> list[str]:
    """The part's topic words outside glossary concepts, less those that only ask for its kind of
    value ("coûte", "loin"): a sentence answering it need not repeat them."""
    return [w for w in concepts_and_words(part, language)[1] if not any(k.cues.search(w) for k in kinds)]
