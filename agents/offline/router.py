"""The offline model's tool calls: which tools a visitor message needs, with which arguments.

Weather words call ``get_weather`` (the date named, else today), a route from a named origin calls
``get_travel_info``, and a part asking about the visit itself ``search_knowledge_base``; weather or
a route for another known place (a museum, a theme park, a town) is not asked of the tools. A short
follow-up ("and by car?") reuses the previous turn's tool arguments, changed by what it names.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall

from agents.answer.visitor_terms import roles
from agents.brief import Brief
from agents.language import reply_language
from agents.offline.phrases import cues, phrases, replies, word_set
from agents.reading.question_parts import question_parts
from agents.tools.gazetteer import Gazetteer, Place, load_gazetteer
from rag.config import PROJECT_ROOT
from rag.lexicon.dates import month_names
from rag.lexicon.folding import fold, folded_positions
from rag.lexicon.languages import SUPPORTED_LANGUAGES, UNSPACED_LANGUAGES
from rag.lexicon.scripts import HAN, KATAKANA, UNSPACED_CHARACTER
from rag.lexicon.transport import kind_words
from rag.query_expansion import load_glossary

Call = tuple[str, dict[str, Any]]
FOLLOW_UP_MAX_WORDS = 10
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\d{1,2}月\d{1,2}日|\d{1,2}[号號]")
_DANGLING = frozenset({"de", "di", "da", "do", "du", "del", "of", "van", "von"})


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


@lru_cache(maxsize=1)
def _month_date() -> re.Pattern[str]:
    names = (
        name for code in SUPPORTED_LANGUAGES if code not in UNSPACED_LANGUAGES for name in month_names(code)
    )
    months = "|".join(re.escape(fold(name)) for name in dict.fromkeys(names))
    return re.compile(rf"\b\d{{1,2}}(?:er|st|nd|rd|th|\.)? (?:de )?(?:{months})\b|\b(?:{months}) \d{{1,2}}\b")


def weather_date(part: str, question: str) -> str | None:
    """The date to forecast when ``part`` asks about the weather ("today" if none named), else None."""
    if not cues("weather").find(part):
        return None
    for text in (part, question):
        folded, starts = folded_positions(text)
        found = [(m.start(), m.group()) for m in _DATE.finditer(text)]
        found += [(start, text[start:end]) for start, end in cues("dates").find(text)]
        spans = [(starts[m.start()], starts[m.end() - 1] + 1) for m in _month_date().finditer(folded)]
        found += [(start, text[start:end]) for start, end in spans]
        if found:
            return min(found)[1]
    return "today"


def travel_origin(part: str) -> str | None:
    """Where the visitor travels from, when ``part`` asks how to get to Versailles."""
    if not (cues("mode").find(part) or cues("get_there").find(part) or cues("places").find(part)):
        return None
    words = phrases()["cues"]
    for marker in words["origin_before_marker"]:  # Japanese: "パリから"
        if match := re.search(rf"[{KATAKANA}{HAN}A-Za-z0-9 ]+$", part[: max(part.find(marker), 0)]):
            return match.group().strip() or None
    ends = "|".join(re.escape(word) for word in words["origin_end_zh"])
    for marker in words["origin_after_marker"]:  # Chinese: "从巴黎"
        if match := re.search(rf"{re.escape(marker)}(.+?)(?={ends}|[，,？?。]|$)", part):
            return match.group(1).strip() or None
    markers = [(False, span) for span in cues("origin").find(part)]  # strong markers first
    for weak, (_, end) in sorted(markers) + [(True, span) for span in cues("weak_origin").find(part)]:
        phrase = _origin_phrase(part[end:])
        if phrase and (not weak or cues("places").find(phrase)):  # weak: "de", "da"... before a place
            return phrase
    return None


def _origin_phrase(text: str) -> str:
    """The place named at the start of ``text``: up to a punctuation mark or a linking word."""
    words: list[str] = []
    for word in re.split(r"[,.;:?!()¿¡？。，]", text, maxsplit=1)[0].split():
        folded = fold(word)
        if not words and folded in word_set("leading_articles"):
            continue
        word = word[2:] if not words and re.match(r"^[ld]'", folded) else word
        if folded in word_set("origin_end") or cues("mode").find(word) or len(words) == 6:
            break
        words.append(word)
    while words and fold(words[-1]) in _DANGLING:  # "desde Paris de trem" -> "Paris"
        words.pop()
    return " ".join(words)


def travel_mode(text: str) -> str | None:
    """The transport mode named in ``text`` (train, metro, bus, car, taxi, bike, walk), if any."""
    return next((kind for kind in kind_words() if cues(f"mode:{kind}").find(text)), None)


@lru_cache(maxsize=1)
def _gazetteer() -> Gazetteer:
    return load_gazetteer(PROJECT_ROOT / "data" / "travel" / "gazetteer.json")


def other_places(part: str) -> list[Place]:
    """Known places ``part`` names besides Versailles, Paris as a whole and its travel origin."""
    start = (
        {place.id for place in _gazetteer().named_in(origin)} if (origin := travel_origin(part)) else set()
    )
    return [place for place in _gazetteer().named_in(part) if place.rank > 1 and place.id not in start]


def names_places(places: Sequence[Place], text: str) -> bool:
    """Whether ``text`` names every one of ``places``."""
    return all(Gazetteer.mentions(text, place) for place in places)


def names_visit_topic(part: str, language: str) -> bool:
    """Whether a weather or travel part also asks about the visit ("if it rains, is the show
    cancelled?"): it names a glossary concept that is not weather, a date, a place or transport."""
    glossary = load_glossary()
    ignored = {*phrases()["cues"]["not_visit_topics"], *roles()["question"]}
    tool_cues = [cues(name) for name in ("weather", "dates", "places", "mode", "get_there")]
    for concept, _, _ in glossary.find(part, [language, "en"]) if glossary else []:
        terms = [term for values in concept.terms.values() for term in values]
        if concept.terms.get("en", ("",))[0] not in ignored and not any(
            c.find(t) for t in terms for c in tool_cues
        ):
            return True
    return False


def calls_for(part: str, question: str, tools: set[str], language: str) -> list[Call]:
    """The tool calls one part of the question needs (the tools' summaries in ``language``)."""
    calls: list[Call] = []
    far = bool(other_places(part))
    if (date := weather_date(part, question)) and "get_weather" in tools and not far:
        calls.append(("get_weather", {"date": date, "place": "Versailles", "language": language}))
    if (origin := travel_origin(part)) and "get_travel_info" in tools and not far:
        mode = travel_mode(part) or travel_mode(question)
        calls.append(("get_travel_info", {"origin": origin, "mode": mode, "language": language}))
    asks_tools = {"get_weather", "get_travel_info"} & tools and (
        weather_date(question, question) or travel_origin(question)
    )
    visit = far or not (calls or asks_tools) or names_visit_topic(part, reply_language(question))
    if visit and "search_knowledge_base" in tools:
        calls.append(("search_knowledge_base", {"query": part.strip()}))
    return calls


def inherited_calls(message: str, previous: Sequence[ToolCall], language: str) -> list[Call]:
    """A short follow-up of a weather or travel turn ("and by car?", "and on Sunday?") that names no
    visit topic of its own: the previous call, changed by what the follow-up names."""
    short = (
        len(UNSPACED_CHARACTER.findall(message)) < 16
        if UNSPACED_CHARACTER.search(message)
        else len(message.split()) <= FOLLOW_UP_MAX_WORDS
    )
    if not short or other_places(message) or names_visit_topic(message, reply_language(message, language)):
        return []
    calls = []
    for call in previous:
        args = dict(call["args"], language=language)
        dates = cues("dates").find(message)
        if call["name"] == "get_travel_info" and not travel_origin(message):
            args["mode"] = travel_mode(message) or args.get("mode")
        elif call["name"] == "get_weather" and (dates or cues("weather").find(message)):
            args["date"] = message[dates[0][0] : dates[0][1]] if dates else args.get("date", "today")
        else:
            continue
        calls.append((call["name"], args))
    return calls


def route(messages: Sequence[BaseMessage], brief: Brief, tools: set[str]) -> AIMessage:
    """The agent's move: tool calls for the visitor's last message, or a small-talk reply."""
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    message = messages[humans[-1]].text.strip() if humans else brief.question
    language = brief.language or reply_language(message)
    if kind := small_talk(message):
        return AIMessage(content=replies(language)[kind])
    earlier = messages[humans[-2] : humans[-1]] if len(humans) > 1 else []
    previous = [
        c
        for m in earlier
        if isinstance(m, AIMessage)
        for c in m.tool_calls
        if c["name"] != "search_knowledge_base"
    ]
    calls = inherited_calls(message, previous, language) if previous else []
    if not calls:
        question = brief.question or message  # a short follow-up, completed by the prepare node
        for part in question_parts(question, reply_language(question, language)):
            calls += calls_for(part, question, tools, language)
    unique = list({json.dumps(call, sort_keys=True): call for call in calls if call[0] in tools}.values())
    if not unique:
        return AIMessage(content=replies(language)["greeting"])
    return AIMessage(
        content="", tool_calls=[tool_call(name, args, i) for i, (name, args) in enumerate(unique)]
    )


def tool_call(name: str, args: dict[str, Any], index: int) -> dict[str, Any]:
    """A tool call with a stable id."""
    digest = hashlib.sha1(f"{index}{name}{json.dumps(args, sort_keys=True)}".encode()).hexdigest()
    return {"name": name, "args": args, "id": f"call_{digest[:16]}", "type": "tool_call"}
