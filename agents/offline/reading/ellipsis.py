"""What a follow-up takes from the previous turn: only what it leaves unsaid, only when elliptical.

"Et dimanche ?", "and by car?", "what about the Trianon?", "from there": such a turn keeps the
previous request's topics and changes only the slots it names. A turn that states a topic of its
own ("Is the palace accessible by wheelchair?") starts fresh. Pure functions of typed data.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.offline.reading.request import (
    KnowledgeBaseSlots,
    Topic,
    TravelMode,
    TravelSlots,
    TurnRequest,
    WeatherSlots,
)
from rag.lexicon.concepts import concept_name, found_in, roles, subject_kind

DEICTIC = "there"  # what a turn says for an origin it leaves to the conversation


@dataclass(frozen=True)
class Said:
    """The slot values a turn names itself (None: not named)."""

    day: str | None = None
    place: str | None = None  # where the weather is asked for, besides Versailles
    place_far: bool = False  # that place is not near Versailles (a museum, a town of the gazetteer)
    origin: str | None = None
    mode: TravelMode | None = None
    deictic_origin: bool = False  # "from there", "d'ici"


@dataclass(frozen=True)
class Form:
    """What the turn's wording says about its being a follow-up."""

    slot_only: bool  # nothing but slot values and function words: "and on Sunday?", "by car?"
    fragment: bool  # short, or opening with "and"/"what about", with at most a couple of topic words
    own_topic_clear: bool  # its meaning points to one topic well ahead of the others
    names_visit_terms: bool = False  # it names a place, offer, group of visitors or rate of the visit


def is_elliptical(own: TurnRequest, previous: TurnRequest | None, said: Said, form: Form) -> bool:
    """Whether the turn leaves unsaid what ``previous`` asked: it names only slots, points back
    ("from there"), is a fragment without a clear topic of its own or on the same topics, or asks
    for a route without saying from where after a turn that said it."""
    if previous is None:
        return False
    if said.deictic_origin or form.slot_only:
        return True
    if form.fragment and (not form.own_topic_clear or set(own.topics) <= set(previous.topics)):
        return True
    if _topic_unsaid(own, said, form):
        return True
    return "travel" in own.topics and said.origin is None and previous_place(previous) is not None


def follow_up_query(message: str, subject: str) -> str:
    """One query for a follow-up: its words, then the subject they complete ("Et le lundi ? (horaires
    d'ouverture du château)"), so the search looks for what the follow-up changes about the subject."""
    return f"{message.strip()} ({subject.strip().rstrip('?？ ')})" if subject.strip() else message.strip()


def previous_place(previous: TurnRequest) -> str | None:
    """Where "there" is: the previous origin, else the place of the previous weather, else the
    first place the previous turn named."""
    if previous.travel and previous.travel.origin:
        return previous.travel.origin
    if previous.weather and previous.weather.place != WeatherSlots().place:
        return previous.weather.place
    return previous.places[0] if previous.places else None


def inherit(own: TurnRequest, previous: TurnRequest, said: Said, form: Form) -> TurnRequest:
    """``own`` completed from ``previous``: its topics when it names none clearly, and each slot it
    leaves unsaid; the knowledge base searched with the previous subject and the new words, when the
    previous turn asked the knowledge base."""
    inherited: list[str] = []
    topics: list[Topic] = list(own.topics)
    if form.slot_only or (form.fragment and not form.own_topic_clear) or _topic_unsaid(own, said, form):
        travel_words = said.mode is not None or said.deictic_origin
        topics = ["travel"] if travel_words and "travel" not in previous.topics else list(previous.topics)
        topics = [t for t in topics if _names_a_slot_of(t, said)] or ["knowledge_base"]
        inherited.append("topics")
    elif said.deictic_origin and "travel" not in topics:
        topics.append("travel")
    weather = _weather(said, previous, inherited) if "weather" in topics else None
    travel = _travel(own, said, previous, inherited) if "travel" in topics else None
    knowledge_base = own.knowledge_base
    if "knowledge_base" in previous.topics:  # a forecast or a route is no subject to search with
        replaced = subject_replaced(previous.knowledge_base.subject, own.message, own.language)
        subject = replaced or previous.knowledge_base.subject
        search = replaced or follow_up_query(own.message, subject)
        knowledge_base = KnowledgeBaseSlots(subject=subject, search=search, queries=[search])
        inherited.append("subject")
    return own.model_copy(
        update={
            "topics": topics,
            "weather": weather,
            "travel": travel,
            "knowledge_base": knowledge_base,
            "elliptical": True,
            "inherited": inherited,
        }
    )


def _topic_unsaid(own: TurnRequest, said: Said, form: Form) -> bool:
    """A fragment read as a tool's topic that names none of that tool's slots but a term of the visit
    ("and reduced?", "and for a teenager?"): its meaning was the tool's by chance, not by what it says."""
    tools = [t for t in own.topics if t != "knowledge_base"]
    return (
        form.fragment
        and form.names_visit_terms
        and bool(tools)
        and not any(_names_a_slot_of(t, said) for t in tools)
    )


def subject_replaced(subject: str, message: str, language: str) -> str | None:
    """The previous question asked of what the follow-up names instead: "When was the Grand Trianon
    built?" then "And the Petit Trianon?" is "When was the Petit Trianon built?". Only a place, an offer
    or a group of visitors replaces one of the same kind (a neutral "palace" stands for a place); None
    when the follow-up names none, or the subject none of its kind."""
    named = [
        (kind, message[start:end])
        for concept, start, end in found_in(message, [language])
        if (kind := subject_kind(concept))
    ]
    if not named:
        return None
    kind, term = named[0]
    for concept, start, end in found_in(subject, [language]):
        stands_in = kind == "places" and concept_name(concept) in roles()["place_stand_ins"]
        if subject_kind(concept) == kind or stands_in:
            if subject[start:end].casefold() == term.casefold():
                return None  # the same subject: not a replacement
            return f"{subject[:start]}{term}{subject[end:]}"
    return None


def _names_a_slot_of(topic: Topic, said: Said) -> bool:
    """Whether the turn changes something ``topic`` is asked with: a tool is asked again only for a
    new day or place (weather) or a new origin or mode (travel); "and the prices?" is not a route."""
    if topic == "weather":
        return said.day is not None or said.place is not None
    if topic == "travel":
        return said.origin is not None or said.mode is not None or said.deictic_origin
    return True


def _weather(said: Said, previous: TurnRequest, inherited: list[str]) -> WeatherSlots:
    before = previous.weather or WeatherSlots()
    if said.day is None and previous.weather:
        inherited.append("weather.day")
    if said.place is None and previous.weather:
        inherited.append("weather.place")
    return WeatherSlots(
        day=said.day or before.day,
        place=said.place or before.place,
        far=before.far if said.place is None else said.place_far,
    )


def _travel(own: TurnRequest, said: Said, previous: TurnRequest, inherited: list[str]) -> TravelSlots:
    before = previous.travel or TravelSlots()
    origin = said.origin
    if origin is None and (place := previous_place(previous)):
        origin = place
        inherited.append("travel.origin")
    mode = said.mode or before.mode
    if said.mode is None and before.mode:
        inherited.append("travel.mode")
    far = own.travel.far if own.travel else False
    return TravelSlots(origin=origin, mode=mode, far=far)
