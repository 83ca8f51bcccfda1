"""OfflineChatModel: the built-in chat model used when no provider key is configured.

It plays the three roles the agent asks of a model, by rules instead of generation:

* **tool calling** (the agent node, tools bound): routes the visitor's last message by
  multilingual cues to ``get_weather``, ``get_travel_info`` or one ``search_knowledge_base`` call
  per part of the question, answers greetings and thanks itself, and stops (an empty reply) once
  tool results follow the question;
* **structured output** (``with_structured_output(GapAnalysis | Critique)``): splits the question
  into aspects and checks which ones an evidence sentence answers, by overlap of stemmed,
  accent-folded words, the visitor vocabulary glossary bridging other languages to French;
* **synthesis** (no tools): an extractive answer quoting, for each aspect, the one or two evidence
  sentences that match it best with their ``[n]`` citation, or an abstention pointing to the
  official website when nothing matches.

Limits: it never paraphrases or translates (quotes stay in the source's language, said so in the
reply language); it cannot resolve pronouns or follow-ups ("and for children?" has no topic);
a question is split on "and"-words, so "hours of the palace and the gardens" gives a second
aspect "the gardens"; words the glossary lacks only match evidence written in the question's
language; Japanese and Chinese are matched through the glossary only (no word segmentation).
It is deterministic and needs no model besides the language identifier and Snowball stemmers.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from agents import offline_phrases as phrases
from agents.language import reply_language
from agents.schemas import read_tag
from rag.answer_types import AnswerType, expected_types, type_match
from rag.bm25 import tokenizer_for
from rag.cleaning import fold_accents
from rag.language import detect_language
from rag.query_expansion import load_glossary

MODEL_NAME = "offline-extractive"
GOOD_MATCH = 0.5  # IDF-weighted share of an aspect's needs a sentence must meet to answer it
STEM_LENGTH = 6
QUOTED_PER_ASPECT = 3
SECOND_SENTENCE = 0.6  # a second sentence is quoted when it ranks this close to the best one
TYPE_BONUS = 0.5  # ranking bonus of a sentence holding the kind of value asked for (an hour, a price)
STRUCTURED_TOOLS = ("GapAnalysis", "Critique")

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_JAPANESE_CONTENT = re.compile(r"[\u30a0-\u30ff\u4e00-\u9fff]{2,}")
_STREAM_PIECE = re.compile(r"\S+\s*|\s+")
_WORD = re.compile(r"\w+(?:['-]\w+)*")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_EVIDENCE_ITEM = re.compile(r"^\[(\d+)\][ \t]*(.*?)\nsource:[^\n]*\n```text\n(.*?)\n```", re.M | re.S)
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s+")
_ITEM_NAME = re.compile(r"^\*\*(.+?)\*\*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^\sa-z])|(?<=[。！？])")
_DANGLING = frozenset({"de", "di", "da", "do", "du", "del", "of", "van", "von"})
_ASPECT_BREAK = re.compile(r"[?!;？！；。\n]+|[，](?=\S)")
_EXPLICIT_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\d{1,2}月\d{1,2}日|\d{1,2}[号號]"
)


# --- cue matching on accent-folded text ------------------------------------------------------


def _fold(text: str) -> str:
    return fold_accents(text.translate(_QUOTES))


class Cues:
    """Finds any of ``terms`` in a text, ignoring case and accents, at word boundaries."""

    def __init__(self, terms: Iterable[str], fold: bool = True) -> None:
        self.fold = fold
        parts = []
        for term in sorted({self._normal(t) for t in terms}, key=len, reverse=True):
            before = r"(?<!\w)" if re.match(r"\w", term) and not _CJK.match(term) else ""
            after = r"(?!\w)" if re.search(r"\w$", term) and not _CJK.search(term[-1]) else ""
            parts.append(before + re.escape(term) + after)
        self.pattern = re.compile("|".join(parts))

    def _normal(self, text: str) -> str:
        return _fold(text) if self.fold else text.translate(_QUOTES).lower()

    def find(self, text: str) -> list[tuple[int, int]]:
        """Spans of the matches in ``text`` itself (not in its folded copy)."""
        if not self.fold:  # lower() keeps the length of these scripts' text
            return [m.span() for m in self.pattern.finditer(self._normal(text))]
        folded, starts = _folded_positions(text)
        return [(starts[m.start()], starts[m.end() - 1] + 1) for m in self.pattern.finditer(folded)]


def _folded_positions(text: str) -> tuple[str, list[int]]:
    """The folded text and, for each of its characters, the position it comes from."""
    pieces, starts = [], []
    for position, char in enumerate(text.translate(_QUOTES)):
        folded = fold_accents(char)
        pieces.append(folded)
        starts.extend([position] * len(folded))
    return "".join(pieces), starts


@lru_cache(maxsize=1)
def _small_talk_terms() -> dict[str, tuple[str, str]]:
    """Folded greeting, thanks or goodbye -> (kind, language)."""
    return {
        _fold(term): (kind, language)
        for kind, by_language in phrases.SMALL_TALK.items()
        for language, terms in by_language.items()
        for term in terms
    }


@lru_cache(maxsize=1)
def _word_sets() -> dict[str, frozenset[str]]:
    """Folded word lists that are looked up one word at a time."""
    return {
        "origin_end": frozenset(_fold(word) for word in phrases.ORIGIN_PHRASE_END),
        "articles": frozenset(_fold(word) for word in phrases.LEADING_ARTICLES),
    }


@lru_cache(maxsize=1)
def _month_date() -> re.Pattern[str]:
    """Dates such as "14 juillet", "1er mai" or "July 14", matched on folded text."""
    months = "|".join(re.escape(_fold(month)) for month in phrases.MONTHS)
    return re.compile(rf"\b\d{{1,2}}(?:er|st|nd|rd|th|\.)? (?:de )?(?:{months})\b|\b(?:{months}) \d{{1,2}}\b")


@lru_cache(maxsize=1)
def _cues() -> dict[str, Cues]:
    """Every cue list, compiled once."""
    return {
        "weather": Cues(phrases.WEATHER_WORDS),
        "date": Cues(phrases.DATE_WORDS),
        "place": Cues(phrases.PLACES),
        "mode": Cues(word for words in phrases.TRAVEL_MODES.values() for word in words),
        "get_there": Cues(phrases.GET_THERE),
        "origin": Cues(phrases.ORIGIN_MARKERS),
        "weak_origin": Cues(phrases.WEAK_ORIGIN_MARKERS),
        "small_talk": Cues(_small_talk_terms()),
        "fillers": Cues(phrases.SMALL_TALK_FILLERS),
        **{f"mode:{mode}": Cues(words) for mode, words in phrases.TRAVEL_MODES.items()},
    }


# --- the prompt ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """One sentence of an evidence passage: its words, and those of the headings above it."""

    number: int
    text: str
    label: str  # shown before a sentence taken from a list item: its heading or the item's name
    language: str
    tokens: frozenset[str]
    context: frozenset[str]
    folded: str


def last_human_index(messages: Sequence[BaseMessage]) -> int:
    """Position of the last human message, or -1."""
    for position in range(len(messages) - 1, -1, -1):
        if isinstance(messages[position], HumanMessage):
            return position
    return -1


def evidence_sentences(text: str) -> list[Sentence]:
    """The sentences of the ``<evidence>`` block rendered by ``render_evidence``."""
    block = read_tag(text, "evidence") or ""
    sentences: list[Sentence] = []
    for match in _EVIDENCE_ITEM.finditer(block):
        sentences.extend(_passage_sentences(int(match.group(1)), match.group(2), match.group(3)))
    return sentences


def _passage_sentences(number: int, where: str, body: str) -> list[Sentence]:
    language = detect_language(body, default="fr") or "fr"
    path = where.split(" > ")
    heading = path[-1].strip(" :")
    in_section = len(path) > 1  # the heading is a section's, not the document's title
    found = []
    for line in body.splitlines():
        line = line.strip()
        if heading_match := _HEADING.match(line):
            heading, in_section = heading_match.group(1).strip(" :"), True
            continue
        bullet = _BULLET.match(line)
        item = line[bullet.end() :] if bullet else line
        name = _ITEM_NAME.match(item)
        for index, piece in enumerate(_SENTENCE_END.split(item)):
            if not re.search(r"\w\w", piece):
                continue
            # Later sentences of a list item ("21 €, reduced 13 €.") are about the item's name.
            subject = name.group(1).strip(" :–-") if bullet and name and index else ""
            # A section's heading often names what its sentences only point to ("la ferme de la
            # métairie" — "Ce kiosque… propose des sorbets"): it is shown before the quote.
            label = (subject or heading) if bullet else heading if in_section else ""
            if label and not bullet and _fold(label) in _fold(piece):
                label = ""
            tokens = _stems(f"{subject} {piece}", language)
            context = _stems(f"{where} {heading}", language)
            found.append(Sentence(number, piece.strip(), label, language, tokens, context, _fold(piece)))
    return found


def _stems(text: str, language: str) -> frozenset[str]:
    """Stems cut to a common length, so that "ouverture" and "ouvert" still meet."""
    return frozenset(stem[:STEM_LENGTH] for stem in tokenizer_for(language)(text))


def tool_summaries(text: str) -> list[str]:
    """The ``summary`` of every JSON object in the ``<tool_results>`` block."""
    block = read_tag(text, "tool_results") or ""
    decoder = json.JSONDecoder()
    summaries: list[str] = []
    position = 0
    while (start := _next_json(block, position)) >= 0:
        try:
            value, position = decoder.raw_decode(block, start)
        except ValueError:
            position = start + 1
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and isinstance(item.get("summary"), str) and item["summary"].strip():
                summaries.append(item["summary"].strip())
    return summaries


def _next_json(text: str, position: int) -> int:
    starts = [index for index in (text.find("{", position), text.find("[", position)) if index >= 0]
    return min(starts, default=-1)


# --- aspects of a question -------------------------------------------------------------------


def small_talk(text: str) -> tuple[str, str] | None:
    """(kind, language) when ``text`` is only a greeting, thanks or goodbye, else None."""
    spans = _cues()["small_talk"].find(text)
    if not spans:
        return None
    rest = text
    for start, end in [*spans, *_cues()["fillers"].find(text)]:
        rest = rest[:start] + " " * (end - start) + rest[end:]
    if re.search(r"\w", rest):
        return None
    return _small_talk_terms().get(_fold(text[spans[0][0] : spans[0][1]]))


def split_aspects(question: str, language: str) -> list[str]:
    """The parts of a question: split on "?", ";" and the language's "and"-words."""
    # Not accent-folded: Portuguese "é" (is) must not read as "e" (and).
    connectors = Cues([*phrases.CONNECTORS.get(language, ()), *phrases.CONNECTORS["en"]], fold=False)
    aspects: list[str] = []
    for part in _ASPECT_BREAK.split(question):
        start = 0
        cuts = [
            (cut, end) for cut, end in connectors.find(part) if not _inside_a_name(part, cut, end, language)
        ]
        for cut, end in [*cuts, (len(part), len(part))]:
            aspect = _without_greeting(part[start:cut]).strip(" ,.:¿¡、，\t")
            if aspect and (_has_topic(aspect, language) or (aspects and _asks(aspect))):
                aspects.append(aspect)
            start = end
    return _with_subjects(aspects, language)


def _with_subjects(aspects: list[str], language: str) -> list[str]:
    """Later parts that refer back ("…go there?") or have no topic ("by whom?") get the first
    part's subject: its capitalised names and the glossary concepts it names, in parentheses."""
    if len(aspects) < 2:
        return aspects
    subject = _subject_of(aspects[0], language)
    if not subject:
        return aspects
    return (
        [aspects[0]]
        + [
            f"{aspect} ({subject})"
            if (not _has_topic(aspect, language) or _refers_back(aspect, language))
            and not (_cues()["weather"].find(aspect) or travel_origin(aspect))  # "will *it* rain?"
            else aspect
            for aspect in aspects[1:]
        ]
    )


def _subject_of(aspect: str, language: str) -> str:
    # A capital at the very start only begins the sentence ("Au Petit Trianon" names "Petit Trianon").
    names = [
        name
        for match in _CAPITALISED.finditer(aspect)
        if (name := match.group() if match.start() else [*match.group().split(None, 1), ""][1])
    ]
    concepts = [said for _, said in _topic_concepts(aspect, language)[0]]
    folded_names = {_fold(name) for name in names}
    return " ".join(dict.fromkeys([*names, *(c for c in concepts if c not in folded_names)]))


def _refers_back(aspect: str, language: str) -> bool:
    """Whether ``aspect`` points back to an earlier part ("…y aller ?", "is it open?"). Words are
    whole tokens ("faut-il" is not "il"); phrases and Chinese or Japanese words are substrings."""
    folded = _fold(aspect)
    for pattern in phrases.EXISTENTIAL:
        folded = re.sub(pattern, " ", folded)
    words = set(_WORD.findall(folded))
    return any(
        reference in folded if " " in reference or _CJK.search(reference) else reference in words
        for reference in phrases.BACK_REFERENCES.get(language, ())
    )


def _asks(aspect: str) -> bool:
    return bool(set(_WORD.findall(_fold(aspect))) & set(phrases.ELLIPTICAL_QUESTION_WORDS))


_CAPITALISED = re.compile(r"\b[A-ZÀ-Ý][\w'’-]*(?:\s+(?:de la|de|du|des|d'|of|the)?\s*[A-ZÀ-Ý][\w'’-]*)*")
_NAME_BEFORE = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-ZÀ-Ý][\w'’-]*\s*$")
_NAME_AFTER = re.compile(
    r"^\s*(?:(?:des|de la|du|de|les|la|le|l'|d'|the|of|del|della|dei|di|do|da|dos)\s*)?[A-ZÀ-Ý]"
)


def _inside_a_name(text: str, cut: int, end: int, language: str) -> bool:
    """True when the connector joins two capitalised words, as in a proper name ("galerie des
    Sculptures et des Moulages"), not two parts of a question. German capitalises every noun."""
    if language == "de":
        return False
    return bool(_NAME_BEFORE.search(text[:cut]) and _NAME_AFTER.match(text[end:]))


def _without_greeting(text: str) -> str:
    spans = _cues()["small_talk"].find(text)
    if spans and not text[: spans[0][0]].strip(" ,.!¡¿"):
        return text[spans[0][1] :].lstrip(" ,.!")
    return text


def _has_topic(text: str, language: str) -> bool:
    if small_talk(text):
        return False
    if len(_CJK.findall(text)) >= 2:
        return True
    return bool(_content_words(text, language))


@lru_cache(maxsize=16)
def _ignored_words(language: str) -> frozenset[str]:
    return tokenizer_for(language).stopwords | {_fold(word) for word in phrases.QUESTION_WORDS}


def _content_words(text: str, language: str, skip: Sequence[tuple[int, int]] = ()) -> list[str]:
    """Words of ``text`` (folded) that name a topic, outside the ``skip`` spans of the folded text."""
    ignored = _ignored_words(language)
    return [
        match.group()
        for match in _WORD.finditer(_fold(text))
        if match.group() not in ignored
        and not _CJK.search(match.group())
        and not any(start <= match.start() < end for start, end in skip)
    ]


# --- routing the agent's tool calls ----------------------------------------------------------


def weather_date(aspect: str, question: str) -> str | None:
    """The date to forecast when ``aspect`` asks about the weather ("today" if none), else None."""
    if not _cues()["weather"].find(aspect):
        return None
    for text in (aspect, question):
        found = [(m.start(), m.group()) for m in _EXPLICIT_DATE.finditer(text)]
        found += [(start, text[start:end]) for start, end in _cues()["date"].find(text)]
        found += _month_dates(text)
        if found:
            return min(found)[1]
    return "today"


def _month_dates(text: str) -> list[tuple[int, str]]:
    folded, starts = _folded_positions(text)
    spans = [(starts[m.start()], starts[m.end() - 1] + 1) for m in _month_date().finditer(folded)]
    return [(start, text[start:end]) for start, end in spans]


def travel_origin(aspect: str) -> str | None:
    """Where the visitor travels from, when ``aspect`` asks how to get to Versailles."""
    cues = _cues()
    travel_words = cues["mode"].find(aspect) or cues["get_there"].find(aspect) or cues["place"].find(aspect)
    if not travel_words:
        return None
    if origin := _cjk_origin(aspect):
        return origin
    markers = [(False, span) for span in cues["origin"].find(aspect)]
    markers += [(True, span) for span in cues["weak_origin"].find(aspect)]
    for weak, (_, end) in sorted(markers):
        phrase = _origin_phrase(aspect[end:])
        if phrase and (not weak or cues["place"].find(phrase)):
            return phrase
    return None


def _cjk_origin(text: str) -> str | None:
    """The origin before Japanese "から" (katakana, kanji, Latin) or after Chinese "从"."""
    for marker in phrases.ORIGIN_MARKER_BEFORE:
        before = text[: max(text.find(marker), 0)]
        if m := re.search(r"[\u30a0-\u30ff\u4e00-\u9fff・A-Za-z0-9 ]+$", before):
            return m.group().strip() or None
    ends = "|".join(re.escape(word) for word in phrases.ZH_ORIGIN_END)
    for marker in phrases.ORIGIN_MARKER_AFTER:
        if m := re.search(rf"{re.escape(marker)}(.+?)(?={ends}|[，,？?。]|$)", text):
            return m.group(1).strip() or None
    return None


def _origin_phrase(text: str) -> str:
    """The place named at the start of ``text``: up to a punctuation mark or a linking word."""
    stops, articles = _word_sets()["origin_end"], _word_sets()["articles"]
    words: list[str] = []
    for word in re.split(r"\s+", re.split(r"[,.;:?!()¿¡？。，]", text, maxsplit=1)[0].strip()):
        folded = _fold(word)
        if not words and (folded in articles or not word):
            continue
        if not words and re.match(r"^[ld]'", folded):
            word = word[2:]
        if folded in stops or _cues()["mode"].find(word) or len(words) == 6:
            break
        words.append(word)
    while words and _fold(words[-1]) in _DANGLING:  # "desde Paris de trem" -> "Paris"
        words.pop()
    return " ".join(words)


def travel_mode(text: str) -> str | None:
    """The transport mode named in ``text`` (train, metro, bus, car, taxi, bike, walk), if any."""
    return next((mode for mode in phrases.TRAVEL_MODES if _cues()[f"mode:{mode}"].find(text)), None)


def route(messages: Sequence[BaseMessage], tools: set[str]) -> AIMessage:
    """The agent's move: tool calls for the last human message, or a greeting."""
    question = _human_text(messages)
    if kind := small_talk(question):
        language = reply_language(question, _conversation_language(messages) or kind[1])
        return AIMessage(content=phrases.REPLIES.get(language, phrases.REPLIES["en"])[kind[0]])
    calls: list[tuple[str, dict[str, Any]]] = []
    language = reply_language(question, _conversation_language(messages))
    for aspect in split_aspects(question, reply_language(question)) or [question]:
        calls.extend(_calls_for(aspect, question, tools, language))
    unique = list({json.dumps(call, sort_keys=True): call for call in calls}.values())
    if not unique:
        language = reply_language(question, _conversation_language(messages))
        return AIMessage(content=phrases.REPLIES.get(language, phrases.REPLIES["en"])["greeting"])
    return AIMessage(
        content="", tool_calls=[_tool_call(name, args, i) for i, (name, args) in enumerate(unique)]
    )


def _calls_for(
    aspect: str, question: str, tools: set[str], language: str = "en"
) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls one part of the question needs (the tools' summaries in ``language``)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    date = weather_date(aspect, question)
    if date and "get_weather" in tools:
        calls.append(("get_weather", {"date": date, "place": "Versailles", "language": language}))
    origin = travel_origin(aspect)
    if origin and "get_travel_info" in tools:
        mode = travel_mode(aspect) or travel_mode(question)
        calls.append(("get_travel_info", {"origin": origin, "mode": mode, "language": language}))
    # A part of a weather or travel question ("and how long will it take?") goes to the knowledge
    # base only if it names a visit topic of its own.
    tool_question = bool(calls) or bool(
        ("get_weather" in tools and weather_date(question, question))
        or ("get_travel_info" in tools and travel_origin(question))
    )
    wants_kb = not tool_question or _names_a_visit_topic(aspect, reply_language(question))
    if wants_kb and "search_knowledge_base" in tools and aspect.strip():
        calls.append(("search_knowledge_base", {"query": aspect.strip()}))
    return calls


_NOT_VISIT_TOPICS = frozenset(
    {"versailles town", "palace", "paris", "airport", "how long", "how to get", "afternoon", "morning",
     "evening", "night", "weekend"}
)  # fmt: skip


def _names_a_visit_topic(aspect: str, language: str) -> bool:
    """Whether a weather or travel part also asks about the visit ("if it rains, is the show
    cancelled?"): it names a glossary concept that is not weather, a date, a place or transport."""
    glossary = load_glossary()
    if glossary is None:
        return False
    for index, _ in _topic_concepts(aspect, language)[0]:
        terms = glossary.concepts[index].terms
        english = terms.get("en", ("",))[0]
        words = [t for values in terms.values() for t in values]
        cues = ("weather", "date", "place", "mode", "get_there")
        answered_by_tools = any(_cues()[cue].find(word) for word in words for cue in cues)
        if english not in _NOT_VISIT_TOPICS and not answered_by_tools:
            return True
    return False


def _tool_call(name: str, args: dict[str, Any], index: int) -> dict[str, Any]:
    digest = hashlib.sha1(f"{index}{name}{json.dumps(args, sort_keys=True)}".encode()).hexdigest()
    return {"name": name, "args": args, "id": f"call_{digest[:16]}", "type": "tool_call"}


def _human_text(messages: Sequence[BaseMessage]) -> str:
    position = last_human_index(messages)
    text = messages[position].text if position >= 0 else ""
    return (read_tag(text, "question") or text).strip()


def _conversation_language(messages: Sequence[BaseMessage]) -> str | None:
    """The language the conversation is held in: a ``<language>`` tag, else an earlier message."""
    for message in reversed(messages):
        if tag := read_tag(message.text, "language"):
            return tag.strip()
    earlier = [m.text for m in messages[: max(last_human_index(messages), 0)] if isinstance(m, HumanMessage)]
    for text in reversed(earlier):
        if len(text.split()) >= 3 or len(_CJK.findall(text)) >= 4:
            return reply_language(text)
    return None


# --- matching aspects to evidence ------------------------------------------------------------


@dataclass(frozen=True)
class Need:
    """What a sentence must hold to answer an aspect: any one of ``terms`` (each a tuple of stems),
    or, for a need that asks for a kind of value ("price", "what time"), a value of that kind."""

    terms: frozenset[tuple[str, ...]]
    kinds: tuple[AnswerType, ...] = ()

    def met_by(self, tokens: frozenset[str], folded: str = "") -> bool:
        return any(set(term) <= tokens for term in self.terms) or any(
            kind.value.search(folded) for kind in self.kinds
        )


@dataclass
class AspectMatch:
    """How well the evidence answers one aspect: (coverage, rank, sentence), best ranked first."""

    aspect: str
    scored: list[tuple[float, float, Sentence]]

    @property
    def answered(self) -> bool:
        return any(coverage >= GOOD_MATCH for coverage, _, _ in self.scored)

    def best(self, limit: int = QUOTED_PER_ASPECT) -> list[Sentence]:
        """Up to ``limit`` answering sentences: the best ranked, and those close to it."""
        good = [(rank, sentence) for coverage, rank, sentence in self.scored if coverage >= GOOD_MATCH]
        return [sentence for rank, sentence in good[:limit] if rank >= SECOND_SENTENCE * good[0][0]]


@lru_cache(maxsize=16)
def _concept_patterns(language: str) -> list[tuple[re.Pattern[str], int]]:
    glossary = load_glossary()
    patterns = []
    for index, concept in enumerate(glossary.concepts if glossary else []):
        for term in concept.terms.get(language, ()):
            # Latin-script terms also match their plural ("fountain show" in "fountain shows").
            pattern = re.escape(term) if _CJK.search(term) else rf"(?<!\w){re.escape(term)}(?:e?s)?(?!\w)"
            patterns.append((re.compile(pattern), index))
    return patterns


def concepts_in(text: str, languages: Iterable[str]) -> list[tuple[int, int, int]]:
    """(concept index, start, end) of the glossary concepts ``text`` mentions, nested ones dropped."""
    folded = _fold(text)
    found = {
        (index, match.start(), match.end())
        for language in dict.fromkeys(languages)
        for pattern, index in _concept_patterns(language)
        if (match := pattern.search(folded))
    }
    return sorted(
        hit for hit in found
        if not any(o[1] <= hit[1] and hit[2] <= o[2] and o[2] - o[1] > hit[2] - hit[1] for o in found)
    )  # fmt: skip


def _topic_concepts(aspect: str, language: str) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    """Glossary concepts naming a topic (not "where", "who"...) with the words that named them, and
    the spans of all concepts in the folded aspect."""
    glossary = load_glossary()
    found = concepts_in(aspect, [language, "en"])
    folded = _fold(aspect)
    topical = [
        (index, folded[start:end]) for index, start, end in found
        if glossary and glossary.concepts[index].terms.get("en", ("",))[0] not in phrases.QUESTION_CONCEPTS
    ]  # fmt: skip
    return topical, [(start, end) for _, start, end in found]


def aspect_needs(aspect: str, language: str, target: str, kinds: Sequence[AnswerType]) -> list[Need]:
    """What a ``target``-language sentence must hold to answer ``aspect`` (written in ``language``).

    Each glossary concept the aspect mentions is one need, met by any of its ``target`` terms; each
    other content word is one need. A need that asks for one of the ``kinds`` of value the aspect
    expects ("cost", "close") is also met by such a value ("21 €", "18 h 30").
    """
    glossary = load_glossary()
    concepts, spans = _topic_concepts(aspect, language)
    needs = []
    for index, said in concepts:
        terms = glossary.concepts[index].terms if glossary else {}
        answering = [*terms.get(target, ()), *_related_terms(index, target)]
        stems = frozenset(tuple(sorted(_stems(term, target))) for term in answering) - {()}
        # The cues of answer types are French and English words: look at the French terms too.
        words = " ".join([said, *terms.get("fr", ())[:3], *terms.get(target, ())[:3]])
        if stems:
            needs.append(Need(stems, tuple(kind for kind in kinds if kind.cues.search(words))))
    for word in _content_words(aspect, language, spans):
        if word_stems := _stems(word, target):
            needs.append(
                Need(frozenset({tuple(sorted(word_stems))}), tuple(k for k in kinds if k.cues.search(word)))
            )
    # Japanese words the glossary cannot translate are needs too (met only where written as such),
    # as untranslated Latin-script words are: "日本食" is what a question about restaurants asks for.
    needs += [Need(frozenset({(word,)})) for word in _japanese_content_words(aspect, language, spans)]
    return list(dict.fromkeys(needs))


def _japanese_content_words(aspect: str, language: str, skip: Sequence[tuple[int, int]]) -> list[str]:
    """Runs of kanji or katakana (hiragana holds the grammar) outside the glossary's ``skip`` spans,
    question words ("何本", "何時") left out."""
    if language != "ja":
        return []
    folded = _fold(aspect)
    kept = "".join(" " if any(start <= i < end for start, end in skip) else c for i, c in enumerate(folded))
    return [run for run in _JAPANESE_CONTENT.findall(kept) if "何" not in run]


@lru_cache(maxsize=64)
def _related_terms(index: int, target: str) -> tuple[str, ...]:
    """``target`` terms of the concepts that also answer concept ``index`` (closed for open, the
    low season for December), from ``phrases.ALSO_ANSWERED_BY``."""
    glossary = load_glossary()
    if glossary is None:
        return ()
    by_name = {concept.terms.get("en", ("",))[0]: concept for concept in glossary.concepts}
    name = glossary.concepts[index].terms.get("en", ("",))[0]
    related = [by_name[other] for other in phrases.ALSO_ANSWERED_BY.get(name, ()) if other in by_name]
    return tuple(term for concept in related for term in concept.terms.get(target, ()))


def match_aspects(aspects: Sequence[str], language: str, sentences: Sequence[Sentence]) -> list[AspectMatch]:
    """Score every evidence sentence against every aspect."""
    by_language: dict[str, list[Sentence]] = {}
    for sentence in sentences:
        by_language.setdefault(sentence.language, []).append(sentence)
    matches = []
    for aspect in aspects:
        kinds = expected_types(" ".join([_fold(aspect), *_glossary_terms(aspect, language, "fr")]))
        scored = []
        for target, group in by_language.items():
            needs = _weighted(aspect_needs(aspect, language, target, kinds), group)
            for sentence in group:
                coverage = _coverage(needs, sentence)
                scored.append((coverage, coverage + TYPE_BONUS * type_match(kinds, sentence.text), sentence))
        scored.sort(key=lambda item: -item[1])
        matches.append(AspectMatch(aspect, scored))
    return matches


def _weighted(needs: list[Need], sentences: list[Sentence]) -> list[tuple[Need, float]]:
    """Each need with its IDF over the evidence: a need that every sentence meets says little."""
    total = len(sentences)
    return [
        (need, math.log(1.0 + total / (1.0 + sum(need.met_by(s.tokens, s.folded) for s in sentences))))
        for need in needs
    ]


def _coverage(needs: list[tuple[Need, float]], sentence: Sentence) -> float:
    """Weighted share of the needs the sentence meets (half for its headings only), 0 if none."""
    met = total = 0.0
    in_sentence = False
    for need, weight in needs:
        total += weight
        if need.met_by(sentence.tokens, sentence.folded):
            met += weight
            in_sentence = True
        elif need.met_by(sentence.context):
            met += weight / 2
    return met / total if in_sentence and total else 0.0


def _glossary_terms(aspect: str, language: str, target: str) -> list[str]:
    glossary = load_glossary()
    return glossary.translate(aspect, [language, "en"], target) if glossary else []


def follow_up_query(aspect: str, language: str, target: str) -> str:
    """A short keyword query for a missing aspect: glossary terms in ``target`` + its own words."""
    glossary = load_glossary()
    concepts, spans = _topic_concepts(aspect, language)
    terms = [
        term
        for index, _ in concepts
        if glossary and glossary.concepts[index].terms.get(target)
        for term in (glossary.concepts[index].terms[target][0], *_related_terms(index, target)[:1])
    ]
    return " ".join(dict.fromkeys([*terms, *_content_words(aspect, language, spans)])) or aspect


# --- the three kinds of output ---------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """The tagged prompt of a reasoning node, read and matched against its evidence."""

    question: str
    language: str
    matches: list[AspectMatch]
    summaries: list[str]
    sentences: list[Sentence]

    @classmethod
    def of(cls, messages: Sequence[BaseMessage]) -> Reading:
        position = last_human_index(messages)
        text = messages[position].text if position >= 0 else ""
        question = (read_tag(text, "question") or text).strip()
        language = (read_tag(text, "language") or reply_language(question)).strip()
        summaries = tool_summaries(text)
        aspects = split_aspects(question, reply_language(question)) or ([question] if question else [])
        if summaries:  # the weather and travel parts are answered by the tools, not the evidence
            asked_in = reply_language(question)
            aspects = [
                a for a in aspects
                if not (weather_date(a, question) or travel_origin(a)) and _names_a_visit_topic(a, asked_in)
            ]  # fmt: skip
        sentences = evidence_sentences(text)
        matches = match_aspects(aspects, reply_language(question), sentences)
        return cls(question, language, matches, summaries, sentences)

    @property
    def knowledge_base_language(self) -> str:
        counts = Counter(sentence.language for sentence in self.sentences)
        return counts.most_common(1)[0][0] if counts else "fr"


def gap_analysis(reading: Reading) -> dict[str, Any]:
    """Arguments of a GapAnalysis tool call."""
    missing = [m for m in reading.matches if not m.answered]
    target = reading.knowledge_base_language
    question_language = reply_language(reading.question)
    return {
        "answered": [m.aspect for m in reading.matches if m.answered],
        "missing": [m.aspect for m in missing],
        "follow_up_queries": [follow_up_query(m.aspect, question_language, target) for m in missing],
    }


def critique(reading: Reading) -> dict[str, Any]:
    """Arguments of a Critique tool call."""
    missing = [m.aspect for m in reading.matches if not m.answered]
    if not reading.matches and not reading.summaries:
        return {"sufficient": False, "reason": "The question has no part the evidence could answer."}
    if missing:
        return {"sufficient": False, "reason": f"The evidence does not answer: {'; '.join(missing)}."}
    return {"sufficient": True, "reason": "The evidence answers every part of the question."}


def synthesis(reading: Reading) -> str:
    """The extractive answer: quoted sentences with their citation, or an abstention."""
    replies = phrases.REPLIES.get(reading.language, phrases.REPLIES["en"])
    quoted = list(dict.fromkeys(sentence for match in reading.matches for sentence in match.best()))
    missing = [m.aspect for m in reading.matches if not m.answered]
    if not quoted and not reading.summaries:
        return replies["abstain"].format(url=phrases.OFFICIAL_WEBSITE)
    parts = []
    if reading.summaries:
        parts.append("\n".join([replies["tools"], *(f"- “{summary}”" for summary in reading.summaries)]))
    if quoted:
        lines = [replies["intro"].format(note=_quoted_note(quoted, reading.language))]
        followers = _followers(quoted, reading.sentences)
        lines += [f"- {_quote(sentence, followers.get(sentence))} [{sentence.number}]" for sentence in quoted]
        parts.append("\n".join(lines))
    if missing:
        parts.append(replies["partial"].format(aspects=" ; ".join(missing), url=phrases.OFFICIAL_WEBSITE))
    return "\n\n".join(parts)


def _followers(quoted: Sequence[Sentence], sentences: Sequence[Sentence]) -> dict[Sentence, Sentence]:
    """For each quoted sentence, the next sentence of its passage when not quoted itself: the answer
    often comes right after the sentence that names the subject ("Its construction... in 1778.")."""
    chosen = set(quoted)
    followers: dict[Sentence, Sentence] = {}
    for current, following in itertools.pairwise(sentences):
        same_place = following.number == current.number and following.label == current.label
        if current in chosen and same_place and following not in chosen:
            followers[current] = following
            chosen.add(following)
    return followers


def _quote(sentence: Sentence, follower: Sentence | None = None) -> str:
    """A quoted evidence sentence (and the one after it), in quotation marks: the model's own words
    stay apart from the quote."""
    body = f"{sentence.text} {follower.text}" if follower else sentence.text
    text = f"“{body}”"
    return f"*{sentence.label}* — {text}" if sentence.label else text


def _quoted_note(quoted: Sequence[Sentence], language: str) -> str:
    names = phrases.SOURCE_LANGUAGE_NAMES.get(language, phrases.SOURCE_LANGUAGE_NAMES["en"])
    others = [names.get(code, code) for code in dict.fromkeys(s.language for s in quoted) if code != language]
    if not others:
        return ""
    template = phrases.REPLIES.get(language, phrases.REPLIES["en"])["quoted"]
    return f" ({template.format(language=', '.join(others))})"


# --- the chat model --------------------------------------------------------------------------


def _tool_names(tools: Any) -> set[str]:
    names = set()
    for tool in tools or []:
        if isinstance(tool, dict):
            names.add(str(tool.get("function", tool).get("name", "")))
    return names - {""}


def respond(messages: Sequence[BaseMessage], tools: set[str]) -> AIMessage:
    """The offline model's reply to ``messages`` with ``tools`` bound."""
    structured = [name for name in STRUCTURED_TOOLS if name in tools]
    if structured:
        reading = Reading.of(messages)
        args = gap_analysis(reading) if structured[0] == "GapAnalysis" else critique(reading)
        return AIMessage(content="", tool_calls=[_tool_call(structured[0], args, 0)])
    if tools:
        position = last_human_index(messages)
        if any(isinstance(message, ToolMessage) for message in messages[position + 1 :]):
            return AIMessage(content="")
        return route(messages, tools)
    return AIMessage(content=synthesis(Reading.of(messages)))


class OfflineChatModel(BaseChatModel):
    """Extractive, rule-based chat model for running the assistant without a provider key.

    Tool calling routes by multilingual cues, structured output (GapAnalysis, Critique) compares
    question aspects with evidence sentences, and plain calls quote the best evidence sentences
    with their citations or abstain. It never generates new facts and never translates quotes;
    see the module docstring for its limits.
    """

    model_name: str = MODEL_NAME

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind ``tools`` (converted to the OpenAI tool format) like any tool-calling model."""
        return self.bind(
            tools=[convert_to_openai_tool(tool) for tool in tools], tool_choice=tool_choice, **kwargs
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = respond(messages, _tool_names(kwargs.get("tools")))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """A reply word by word, as a provider streams it (tool calls come whole, in one chunk)."""
        message = respond(messages, _tool_names(kwargs.get("tools")))
        if message.tool_calls:
            chunk = AIMessageChunk(
                content="",
                tool_call_chunks=[
                    {"name": call["name"], "args": json.dumps(call["args"]), "id": call["id"], "index": i}
                    for i, call in enumerate(message.tool_calls)
                ],
            )
            yield ChatGenerationChunk(message=chunk)
            return
        for piece in _STREAM_PIECE.findall(message.text):
            if run_manager is not None:
                run_manager.on_llm_new_token(piece)
            yield ChatGenerationChunk(message=AIMessageChunk(content=piece))
