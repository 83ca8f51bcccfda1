"""Read a visitor turn into a ``TurnRequest``: language, topics by meaning, slots, ellipsis."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from agents.answer.language import read_language
from agents.offline.reading import slots
from agents.offline.reading.asked import asks_calendar, asks_when, names_place
from agents.offline.reading.ellipsis import Form, Said, inherit, is_elliptical
from agents.offline.reading.intent import OWN_TOPIC_MARGIN, IntentIndex, TopicScores
from agents.offline.reading.question_parts import content_words, part_kinds, question_parts
from agents.offline.reading.request import (
    TOPICS,
    KnowledgeBaseSlots,
    Topic,
    TravelSlots,
    TurnRequest,
    WeatherSlots,
)
from agents.offline.reading.visitor import visitor_in, visitor_spans
from agents.tools.day_phrases import date_phrase_in, day_in
from agents.tools.travel.tool import parse_mode
from rag.lexicon.concepts import (
    concept_name,
    found_in,
    is_estate_place,
    is_qualifier,
    is_subject,
    roles,
    subject_kind,
    unambiguous_in,
)
from rag.lexicon.folding import fold
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.lexicon.terms import TermMatcher
from rag.lexicon.transport import mode_words

PLACE_BONUS = 0.02  # a part naming where a journey could start leans that much towards travel
# A part that names none of a tool's own slots (for travel: a mode, "from <place>", "from there";
# for the weather: a day) must beat the knowledge base by this much more: a museum's opera house,
# "the four seasons" or "the estate of Versailles" are topics of the knowledge base, not requests.
UNMARKED_PENALTY = 0.03
# What a route never answers: a place after a "from" that also means "of" ("le prix du musée
# d'Orsay", "o horário do Louvre") marks no journey in a part asking for one of these.
NOT_A_ROUTES_VALUE = frozenset({"price", "hours", "date", "phone", "age", "area", "count"})
FRAGMENT_WORDS = 5  # a turn this short, with at most two topic words, may be a follow-up
OPENED_FRAGMENT_WORDS = 8  # the same opening with "and" or "what about"
FRAGMENT_TOPIC_WORDS = 2
FRAGMENT_CJK = 8
FRAGMENT_CJK_TOPIC = 4  # Japanese or Chinese characters left once slots are removed, in a fragment
SLOT_ONLY_CJK = 2  # Japanese or Chinese left once slots are removed: a particle or two ("は", "那…呢")
_PUNCTUATION = re.compile(r"[\s\W_]+")


def read_turn(
    message: str, previous: TurnRequest | None, conversation_language: str | None, index: IntentIndex
) -> TurnRequest:
    """The request of ``message``, inheriting from ``previous`` only what it leaves unsaid."""
    message = message.strip()
    reply = read_language(message, conversation_language or (previous.language if previous else None))
    language = reply.code
    parts = question_parts(message, language) or [message]
    topic_scores = index.score(parts, later=[message])  # the message: what it asks of the visit facts
    scores = [_weighed(part, s, language) for part, s in zip(parts, topic_scores, strict=True)]
    stated = _statements(message, parts)
    topics = [
        topic
        for topic in TOPICS
        if any(
            s.best == topic and (topic == "knowledge_base" or not said_only)
            for s, said_only in zip(scores, stated, strict=True)
        )
    ] or ["knowledge_base"]
    said = _said(message, parts, scores, language)
    if "travel" in topics and _asks_where_it_lies(message, said, language):
        topics = [
            topic for topic in TOPICS if (topic in topics or topic == "knowledge_base") and topic != "travel"
        ]
    checked = [_checked(part, s, topics) for part, s in zip(parts, scores, strict=True)]
    beside_tool = "knowledge_base" not in topics and any(checked)
    if beside_tool:  # the knowledge base is searched too
        topics = [topic for topic in TOPICS if topic in topics or topic == "knowledge_base"]
    asked = [
        p
        for p, s, check in zip(parts, scores, checked, strict=True)
        if s.best == "knowledge_base" or s.best not in topics or check
    ]
    search = message if len(asked) in (0, len(parts)) else " ".join(asked)
    own = TurnRequest(
        message=message,
        topics=topics,
        knowledge_base=KnowledgeBaseSlots(
            subject=search,
            search=search,
            queries=question_parts(search, language),
            aspects=index.aspects(search),
            beside_tool=beside_tool,
        ),
        weather=_weather(said) if "weather" in topics else None,
        travel=_travel(message, said, language) if "travel" in topics else None,
        places=[
            m.spelling for m in slots.places_in(message) if not m.is_versailles or m.place.kind == "station"
        ],
        language=language,
        unsupported_language=reply.unsupported,
    )
    form = _form(message, language, said, scores)
    return (
        inherit(own, previous, said, form) if previous and is_elliptical(own, previous, said, form) else own
    )


# a dash or a comma joins two questions; Japanese and Chinese end a sentence with no space after it
_SENTENCE_END = re.compile(r"[.;:!?]+(?=\s|$)|[。！？；]+")
_QUESTION_MARKS = frozenset("?？")


def _statements(message: str, parts: Sequence[str]) -> list[bool]:
    """Which parts only state something beside a question the turn asks: the sentence they end in
    closes without a question mark while a later one asks ("We arrive on Friday 2 April; what time
    does the palace close that day?"). A statement asks no tool: its day is the question's."""
    if len(parts) < 2 or not _QUESTION_MARKS & set(message):
        return [False] * len(parts)
    ends = [(m.start(), bool(_QUESTION_MARKS & set(m.group()))) for m in _SENTENCE_END.finditer(message)]
    stated = []
    for part in parts:
        start = message.find(part)
        end = start + len(part) if start >= 0 else -1
        closing = next((asks for position, asks in ends if position >= end), None) if end >= 0 else None
        stated.append(closing is False and any(asks for position, asks in ends if position >= end))
    return stated


def read_conversation(
    messages: Sequence[str], index: IntentIndex, language: str | None = None
) -> TurnRequest:
    """The request of the last of ``messages``, each turn read after the one before it."""
    return _read_turns(tuple(messages), index, language) or read_turn("", None, language, index)


@lru_cache(maxsize=512)
def _read_turns(messages: tuple[str, ...], index: IntentIndex, language: str | None) -> TurnRequest | None:
    """The request of the last of ``messages``; a conversation is read again at every turn, and by
    every reader of it, so each of its beginnings is kept (a request is frozen)."""
    if not messages:
        return None
    previous = _read_turns(messages[:-1], index, language)
    return read_turn(messages[-1], previous, previous.language if previous else language, index)


def _asks_where_it_lies(message: str, said: Said, language: str) -> bool:
    """Whether a turn read as travel asks how far a place of the estate lies ("is the estate of
    Marly far from the palace?"), which the place's page says: the place is no journey's marked
    origin ("from Marly") and no mode is named ("by car")."""
    place = said.origin
    if not place or said.mode or not is_estate_place(place, language):
        return False
    return slots.marked_origin_in(_names_as_place(message, place, language), language) is None


def _names_as_place(message: str, place: str, language: str) -> str:
    """``message`` with the glossary's longer names of ``place`` written as ``place`` alone: the "de"
    of "dominio de Marly" marks no origin."""
    text = message
    for concept, start, end in sorted(found_in(message, [language]), key=lambda found: -found[1]):
        name = message[start:end]
        if subject_kind(concept) == "places" and fold(place) in fold(name) and len(name) > len(place):
            text = text[:start] + place + text[end:]
    return text


def _weighed(part: str, scores: TopicScores, language: str) -> TopicScores:
    """The part's scores with its slots weighed in: a place it names leans towards travel; a tool
    none of whose own slots it names leans away from that tool, and so does the weather from a
    part asking when about a place of the visit facts ("until what time can we get into the
    gallery of coaches on Saturday?")."""
    if slots.origin_in(part, language):
        scores = scores.plus("travel", PLACE_BONUS)
    asks_route = not {kind.name for kind in part_kinds([part], language)[0]} & NOT_A_ROUTES_VALUE
    routed = slots.mode_in(part) or slots.marked_origin_in(part, language, genitive=asks_route)
    if not (routed or slots.deictic_origin_in(part, language)):
        scores = scores.plus("travel", -UNMARKED_PENALTY)
    asks_facts = asks_calendar(part, language) or (names_place(part, language) and asks_when(part, language))
    if not day_in(part) or asks_facts:  # a day's opening or price is no forecast's
        scores = scores.plus("weather", -UNMARKED_PENALTY)
    return scores


def _checked(part: str, scores: TopicScores, topics: Sequence[str]) -> bool:
    """Whether a part read as a tool's is searched in the knowledge base too: the tool was read by a
    narrow margin, or it is a route asked for a day (the travel tool's routes hold no day; works or a
    strike that day are the knowledge base's)."""
    if scores.best == "knowledge_base" or scores.best not in topics:
        return False
    return not scores.tool_alone or (scores.best == "travel" and day_in(part) is not None)


def _day_said(text: str) -> str | None:
    """The day ``text`` names, as precisely as it says it: "Thursday 5 February 2026" is that date,
    not the coming Thursday."""
    return date_phrase_in(text) if day_in(text) else None


def _said(message: str, parts: list[str], scores: list[TopicScores], language: str) -> Said:
    """The slot values named: the weather's place in the parts about weather, the rest anywhere."""
    weather_text = " ".join(p for p, s in zip(parts, scores, strict=True) if s.best == "weather") or message
    travel_text = " ".join(p for p, s in zip(parts, scores, strict=True) if s.best == "travel")
    origin = slots.origin_in(travel_text or message, language)
    named = slots.places_in(weather_text)  # a weather part's place is not an origin ("in Giverny")
    elsewhere = [m for m in named if not m.is_versailles and not (travel_text and m.spelling == origin)]
    return Said(
        day=_day_said(weather_text) or _day_said(message),
        place=(slots.weather_spelling(elsewhere[0]) or elsewhere[0].spelling) if elsewhere else None,
        place_far=bool(elsewhere) and slots.weather_spelling(elsewhere[0]) is None,
        origin=origin,
        mode=slots.mode_in(message),
        deictic_origin=slots.deictic_origin_in(message, language),
    )


def _weather(said: Said) -> WeatherSlots:
    return WeatherSlots(day=said.day or "today", place=said.place or WeatherSlots().place, far=said.place_far)


def _travel(message: str, said: Said, language: str) -> TravelSlots:
    """The route's slots; a journey ending at another known place (not the Palace) is ``far``. A
    journey leaving Versailles ends at the other place it names, even where that was read as the
    origin, and so does one going from somewhere to a place that is not the estate ("from Tokyo to
    Paris"): the travel tool's routes all end at the Palace."""
    leaving = slots.leaves_versailles(message, language)
    others = [
        m for m in slots.places_in(message) if not m.is_versailles and (leaving or m.spelling != said.origin)
    ]
    elsewhere = slots.destination_elsewhere(message, language) is not None and not _names_estate(
        message, language
    )
    return TravelSlots(origin=said.origin, mode=said.mode, far=elsewhere or any(m.far for m in others))


def _names_estate(message: str, language: str) -> bool:
    """Whether the turn names the Palace or a place of its estate ("the palace", "le Trianon")."""
    return any(
        subject_kind(concept) == "places" or concept_name(concept) in roles()["place_stand_ins"]
        for concept in unambiguous_in(message, [language, "en"])
    )


def _form(message: str, language: str, said: Said, scores: list[TopicScores]) -> Form:
    """Whether the turn says anything besides its slots, and how much."""
    rest = _without_slots(message, language, said)
    cjk = len(UNSPACED_CHARACTER.findall(message)) > 0
    words = len(message.split())
    latin_words = [w for w in content_words(rest, language) if not w.isdigit()]  # "for 3 people?"
    topic_words = _unspaced_topic_size(rest, language) if cjk else len(latin_words)
    slot_only = topic_words <= (SLOT_ONLY_CJK if cjk else 0) and _PUNCTUATION.sub(
        "", rest
    ) != _PUNCTUATION.sub("", message)
    short = len(UNSPACED_CHARACTER.findall(message)) <= FRAGMENT_CJK if cjk else words <= FRAGMENT_WORDS
    opened = slots.opens_follow_up(message, language) and words <= OPENED_FRAGMENT_WORDS
    fragment = slot_only or (
        (short or opened) and topic_words <= (FRAGMENT_CJK_TOPIC if cjk else FRAGMENT_TOPIC_WORDS)
    )
    visit_terms = [c for c in unambiguous_in(message, [language]) if is_subject(c) or is_qualifier(c)]
    return Form(
        slot_only=slot_only,
        fragment=fragment,
        own_topic_clear=all(s.margin >= OWN_TOPIC_MARGIN for s in scores),
        names_visit_terms=bool(visit_terms),
    )


def _unspaced_topic_size(rest: str, language: str) -> int:
    """How much a Japanese or Chinese turn says besides its slots: its characters, a term of the
    glossary counting as one ("トリアノン" is one thing named, not five characters)."""
    found = found_in(rest, [language])
    text = list(rest)
    for _, start, end in found:
        text[start:end] = " " * (end - start)
    return len(UNSPACED_CHARACTER.findall("".join(text))) + len({(s, e) for _, s, e in found})


def _without_slots(message: str, language: str, said: Said) -> str:
    """The message with its day, places, modes, "from there" and visitor blanked out."""
    spans = TermMatcher([said.day] if said.day else []).find(message)
    spans += slots.lexicon_cues("deictic_origins", language).find(message)
    spans += TermMatcher(
        w for words in mode_words().values() for w in words if UNSPACED_CHARACTER.search(w)
    ).find(message)
    names = [m.spelling for m in slots.places_in(message)]
    spans += TermMatcher(names).find(message)
    if visitor_in(message, language):  # who the visit is for is a slot too: "and for my son, 12?"
        spans += visitor_spans(message, language)
    text = list(message)
    for start, end in spans:
        text[start:end] = " " * (end - start)
    kept = "".join(text)
    return " ".join(w for w in kept.split() if parse_mode(w) is None)


__all__ = ["Topic", "read_conversation", "read_turn"]
