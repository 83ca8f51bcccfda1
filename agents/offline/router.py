"""The offline model's tool calls, from the turn's request (``agents.offline.reading``).

The weather topic calls ``get_weather`` for its day, the travel topic ``get_travel_info`` from its
origin with its mode, and the knowledge-base topic ``search_knowledge_base`` with the standalone
search text, one query per part. Weather or a route for another known place (a museum, a theme
park, a town), or a route with no origin, is not asked of the tools: the knowledge base is.
An opening, closing, free-entry or price word also calls ``get_visit_calendar`` (once per place
named, the Palace when none; for the day named, if any), besides the knowledge base.
Greetings and thanks get a reply without tools.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages import AIMessage

from agents.offline.reading import slots
from agents.offline.reading.asked import (
    aspects_asked,
    months_asked,
    names_offer,
    names_other_subject,
    names_place,
    place_spans,
    places_asked,
    tickets_named,
)
from agents.offline.reading.question_parts import part_kinds, question_parts
from agents.offline.reading.request import TurnRequest
from agents.offline.reading.visitor import visitor_asked, visitor_spans
from agents.tools.day_phrases import date_phrase_in
from rag.lexicon.calendar_names import months_covered
from rag.lexicon.concepts import concept_name, found_in, is_estate_place, roles
from rag.lexicon.folding import blanked
from rag.lexicon.phrases import cues, fold, phrases, replies

Call = tuple[str, dict[str, Any]]
RULE_OF_DAYS = "first sunday"  # the glossary's concept of a day said by a rule, not a date
TICKET = "ticket"  # the glossary's concept of a ticket or an entry


def small_talk(text: str) -> str | None:
    """ "greeting", "thanks" or "goodbye" when ``text`` is only that, else None."""
    if not (spans := cues("small_talk").find(text)):
        return None
    rest = list(text)
    for start, end in [*spans, *cues("small_talk_fillers").find(text)]:
        rest[start:end] = " " * (end - start)
    said = fold(text[spans[0][0] : spans[0][1]])
    tables = phrases()["small_talk"].items()
    kinds = [kind for kind, table in tables for terms in table.values() if said in map(fold, terms)]
    return None if re.search(r"\w", "".join(rest)) else kinds[0]


def calls_for(request: TurnRequest, tools: set[str]) -> list[Call]:
    """The tool calls ``request`` needs, among ``tools``."""
    calls: list[Call] = []
    weather, travel, language = request.weather, request.travel, request.language
    if weather and not weather.far and "get_weather" in tools:
        calls.append(("get_weather", {"date": weather.day, "place": weather.place, "language": language}))
    if (
        travel
        and travel.origin
        and not travel.far
        and "get_travel_info" in tools
        and not _asks_a_fare(request)
    ):
        calls.append(
            ("get_travel_info", {"origin": travel.origin, "mode": travel.mode, "language": language})
        )
    calls += calendar_calls(request, tools)
    if ("knowledge_base" in request.topics or not calls) and "search_knowledge_base" in tools:
        asked = request.knowledge_base.queries if "knowledge_base" in request.topics else []
        queries = asked or question_parts(request.message, language) or [request.message]
        calls += [("search_knowledge_base", {"query": query}) for query in queries]
    return calls


def _asks_a_fare(request: TurnRequest) -> bool:
    """Whether the turn asks what a journey costs: the travel tool gives routes and their times, never
    a fare, so the knowledge base is asked (and says plainly when it does not know)."""
    parts = question_parts(request.message, request.language) or [request.message]
    return any(kind.name == "price" for kinds in part_kinds(parts, request.language) for kind in kinds)


def calendar_calls(request: TurnRequest, tools: set[str]) -> list[Call]:
    """``get_visit_calendar`` when the turn asks about opening, closing, free entry or a price of the
    estate, for the day it names if any (a follow-up such as "and on Monday?" asks what its subject
    asked). Only the parts for the knowledge base count: "how many degrees on Sunday?" asks the
    weather, not a price, and a day named in a weather part is the forecast's. Another site ("the
    Eiffel Tower", "la Reggia di Caserta") is never asked of the estate's facts, nor a tool's turn
    the knowledge base is searched beside (``KnowledgeBaseSlots.beside_tool``)."""
    kb = request.knowledge_base
    if "get_visit_calendar" not in tools or "knowledge_base" not in request.topics or kb.beside_tool:
        return []
    question, language = request.question, request.language
    if slots.named_sites(question, language) or other_sites(question, language):
        return []
    day = asked_day(question, language)
    aspects = aspects_asked(question, language, dated=day is not None) or meant_aspects(request, day)
    if not aspects or (day is None and not facts_asked_of_the_estate(request, aspects)):
        return []
    when = (
        {"date": day} if day else {"months": months} if (months := months_asked(question, language)) else {}
    )
    tickets = {"tickets": named} if (named := tickets_named(question)) else {}
    # a price asked with free entry is the rate of those who enter free: a reduced one
    reduced = (
        {"reduced": True}
        if "price" in aspects and ("free" in aspects or rate_asked(question, language))
        else {}
    )
    who = {"visitor": visitor.said()} if (visitor := visitor_asked(question, language, aspects)) else {}
    arguments = {"aspects": aspects, "language": language, **when, **tickets, **reduced, **who}
    return [
        ("get_visit_calendar", {"place": place, **arguments}) for place in places_asked(question, language)
    ]


def meant_aspects(request: TurnRequest, day: str | None) -> list[str]:
    """What the turn asks of the visit facts by meaning, when its words name no aspect: only when it
    names a day, a place or a ticket of the facts ("from what time can we get into the gardens?").
    A day and a place with nothing else read ("can we see the coaches on 2 May?") asks whether that
    place is open that day."""
    question, language = request.question, request.language
    place = names_place(question, language)
    if not (day or place or tickets_named(question)):
        return []
    if meant := list(request.knowledge_base.aspects):
        return meant
    # a day and a place of the facts (or a room of one), and no offer: whether it is open that day
    named = place or bool(place_spans(question, language))
    return ["hours"] if day and named and not names_offer(question, language) else []


def asked_day(question: str, language: str) -> str | None:
    """The day the question names, or None: a weekday said with another month ("a Sunday in July"),
    or one of a rule of days ("the first Sunday of the month", a glossary concept), is no day."""
    day = date_phrase_in(question)
    if day is None or months_covered(question.replace(day, " ")) - months_covered(day):
        return None
    return (
        None if RULE_OF_DAYS in {concept_name(c) for c, _, _ in found_in(question, [language, "en"])} else day
    )


def other_sites(question: str, language: str) -> list[str]:
    """Known places the question names that are not the estate's ("the Louvre", "the Eiffel Tower")."""
    return [
        m.spelling for m in slots.places_in(question) if m.far and not is_estate_place(m.spelling, language)
    ]


def facts_asked_of_the_estate(request: TurnRequest, aspects: list[str]) -> bool:
    """Whether a question naming no day asks the visit facts: the whole of it, or one of its parts
    whose own words ask an aspect ("the gardens close at what time? We'd like a late picnic"). It
    asks no forecast ("do the gardens close in a storm?")."""
    if "weather" in request.topics:
        return False
    question, language = request.question, request.language
    asking = [p for p in question_parts(question, language) if p != question and aspects_asked(p, language)]
    return any(_asks_the_facts(text, language, aspects) for text in [question, *asking])


def _asks_the_facts(question: str, language: str, aspects: list[str]) -> bool:
    """A price is the facts' only when a ticket or an entry is asked about, or nothing else is named
    once the aspect words, places and tickets are set aside ("a night at the Trianon Palace hotel",
    "the gardens' upkeep"); hours, closures and free entry are when it names a place or a ticket of
    the facts and no other offer ("the audio guide"), or nothing else."""
    named = {concept_name(c) for c, _, _ in found_in(question, [language, "en"])}
    ticket = TICKET in named or bool(tickets_named(question))
    visitor = visitor_asked(question, language, aspects)  # one the facts' rules read whole
    if {"price", "free"} & set(aspects) and rate_asked(question, language) == "group" and visitor is None:
        return False  # who pays which rate, or enters free, is in the knowledge base, not the facts
    if visitor is not None:  # who it is for ("23 years old, from Spain") is no other subject
        question = blanked(question, visitor_spans(question, language))
    if "price" in aspects and not ticket:
        return not names_other_subject(question, language, topics_too=True)
    if ticket or names_place(question, language):
        return not names_offer(question, language)
    return not names_other_subject(question, language)


def rate_asked(question: str, language: str) -> str | None:
    """ "reduced" when the question asks a reduced rate, "group" when it asks the price for a group of
    visitors ("students", "a large family": who pays which rate is not a visit fact), else None."""
    named = {concept_name(c) for c, _, _ in found_in(question, [language, "en"])}
    if named & set(roles()["visitors"]):
        return "group"
    return "reduced" if named & set(roles()["rates_for_some"]) else None


def route(request: TurnRequest, tools: set[str]) -> AIMessage:
    """The agent's move for ``request``: tool calls, or a small-talk reply."""
    if kind := small_talk(request.message):
        return AIMessage(content=replies(request.language)[kind])
    unique = list({json.dumps(call, sort_keys=True): call for call in calls_for(request, tools)}.values())
    if not unique:
        return AIMessage(content=replies(request.language)["greeting"])
    return AIMessage(
        content="", tool_calls=[tool_call(name, args, i) for i, (name, args) in enumerate(unique)]
    )


def tool_call(name: str, args: dict[str, Any], index: int) -> dict[str, Any]:
    """A tool call with a stable id."""
    digest = hashlib.sha1(f"{index}{name}{json.dumps(args, sort_keys=True)}".encode()).hexdigest()
    return {"name": name, "args": args, "id": f"call_{digest[:16]}", "type": "tool_call"}
