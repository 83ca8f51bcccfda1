"""Whether a turn asks the visit facts: an opening, closing, free-entry or price word, with or
without a day, about a place of the calendar (or none: the Palace).

A slot rule rather than a topic of its own: the question stays a knowledge-base question (its other
parts are searched as before), and the calendar tool is called besides it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

from babel import Locale

from agents.offline.reading.question_parts import concepts_and_words, unread_words
from agents.offline.reading.slots import day_modifiers
from agents.tools.day_phrases import day_spans
from agents.tools.results import ToolOutcome
from agents.visit_calendar.answer import load_phrases
from agents.visit_calendar.facts import CALENDAR_SEASONS, season_months
from agents.visit_calendar.rules import CALENDAR_FILE, load_calendar
from rag.bm25 import tokenizer_for
from rag.lexicon.calendar_names import months_covered
from rag.lexicon.concepts import concept_name, found_in, roles, topics
from rag.lexicon.folding import blanked
from rag.lexicon.languages import UNSPACED_LANGUAGES
from rag.lexicon.terms import TermMatcher

DEFAULT_PLACE = "palace"
_CONTEXT = re.compile(r"\s*\([^()]*\)\s*$")
MAX_PLACES = 3


ASPECTS = ("hours", "closed", "holidays", "free", "price")  # what a visitor asks of the visit facts
QUANTITY, TICKET = "how many", "ticket"  # "combien … le billet": how much a ticket is
WHEN = "when"
# Needing or paying for a ticket for a place or on a day asks whether entry is free ("do we need a
# ticket for the park?", "チケットは必要ですか"), unless the question asks where, when, which or how
# many, or about booking, buying online or on site, or a proof.
NEEDING = frozenset({"required", "payment"})
ASKING_ELSE = frozenset({"where", "when", "which", "how many", "book", "online", "on site", "proof"})


def aspect_spans(text: str, language: str, dated: bool = False) -> list[tuple[str, int, int]]:
    """Each aspect ``text`` asks and where: the glossary's terms in its language or English. With a
    day or a month named, or asking when, asking to visit or to get in asks whether it is open and
    its hours ("can we visit the Palace on 1 May?", "until when can we get in in August?"); needing
    a ticket asks whether entry is free."""

    asking = roles()["asked_by"]  # the glossary's concepts asking each aspect
    found = [(concept_name(concept), start, end) for concept, start, end in found_in(text, [language, "en"])]
    spans = [(aspect, a, b) for name, a, b in found for aspect in ASPECTS if name in asking[aspect]]
    names = {name for name, _, _ in found}
    if not spans and (dated or WHEN in names or months_covered(text)):  # "can we visit on 1 May?"
        spans += [("hours", a, b) for name, a, b in found if name in asking["on_a_day"]]
    if WHEN in names:  # "what time does it shut?" asks its hours
        spans += [("hours", a, b) for aspect, a, b in spans if aspect == "closed"]
    if {QUANTITY, TICKET} <= names:
        spans += [("price", a, b) for name, a, b in found if name == QUANTITY]
    elif _needs_a_ticket(names, spans) and (dated or place_spans(text, language)):  # not "must I print it?"
        spans += [("free", a, b) for name, a, b in found if name in NEEDING]
    return spans


def _needs_a_ticket(names: set[str], spans: list[tuple[str, int, int]]) -> bool:
    """Whether the concepts ``names`` ask whether a ticket is needed, and nothing else (see NEEDING)."""
    return TICKET in names and bool(names & NEEDING) and not spans and not names & ASKING_ELSE


@functools.lru_cache(maxsize=4)
def _place_cues(path: Path) -> tuple[tuple[str, TermMatcher], ...]:

    return tuple(
        (key, TermMatcher([*place.aliases, *place.names.values()]))
        for key, place in load_calendar(path).places.items()
    )


def place_spans(text: str, language: str, path: Path = CALENDAR_FILE) -> list[tuple[int, int, str]]:
    """Where ``text`` names a place of the calendar in ``path``, and which: by its names and aliases,
    by the glossary concept one of its aliases names (the concept "garden" is the Gardens in every
    language the glossary knows: "ガーデン", "Schlossgarten"), or by a room or building it contains
    ("the Hall of Mirrors" is the Palace's)."""
    spans = [(a, b, key) for key, cues in _place_cues(path) for a, b in cues.find(text)]
    rooms = {room: key for key, place in load_calendar(path).places.items() for room in place.contains}
    rooms |= {alias: key for key, place in load_calendar(path).places.items() for alias in place.aliases}
    if rooms:
        found = [(concept_name(concept), a, b) for concept, a, b in found_in(text, [language, "en"])]
        spans += [(a, b, rooms[name]) for name, a, b in found if name in rooms]
    return sorted(spans)


def aspects_asked(text: str, language: str, dated: bool = False) -> list[str]:
    """What ``text`` asks of the visit facts: "hours", "closed", "free", "price" (none: not asked)."""
    asked = {aspect for aspect, _, _ in aspect_spans(text, language, dated)}
    return [aspect for aspect in ASPECTS if aspect in asked]


# The months a season of the year names (northern hemisphere), by the glossary's concept naming it.
YEAR_SEASONS = {"winter": {12, 1, 2}, "spring": {3, 4, 5}, "summer": {6, 7, 8}, "autumn": {9, 10, 11}}


def months_asked(text: str, language: str, path: Path = CALENDAR_FILE) -> list[int]:
    """The months ``text`` asks about: named ("en juillet"), or as a season ("in winter", "en
    basse saison"); none when it names none."""

    months = set(months_covered(text))
    for concept, _, _ in found_in(text, [language, "en"]):
        name = concept_name(concept)
        months |= YEAR_SEASONS.get(name, set())
        if name in CALENDAR_SEASONS:
            months |= season_months(load_calendar(path), CALENDAR_SEASONS[name])
    return sorted(months)


def asks_calendar(text: str, language: str) -> bool:
    """``text`` asks whether something is open, closed, free, or what it costs."""
    return bool(aspect_spans(text, language))


def asks_when(text: str, language: str) -> bool:
    """``text`` asks when ("what time", "hoe laat", "何時")."""
    return any(concept_name(concept) == WHEN for concept, _, _ in found_in(text, [language, "en"]))


def places_asked(text: str, language: str, path: Path = CALENDAR_FILE) -> list[str]:
    """The places of the calendar in ``path`` that ``text`` names, in order; when it names none,
    the Palace (whose facts hold the tickets' prices), unless it asks about something else ("the
    pharmacy", "the Louvre") and names no ticket of the facts: none then."""
    if found := place_spans(text, language, path):
        owners = _owners_named(text, language, found, path)
        return list(dict.fromkeys(key for _, _, key in found if key not in owners))[:MAX_PLACES]
    if ticket_cues().find(text) or not names_other_subject(text, language, path):
        return [DEFAULT_PLACE]
    return []


def _owners_named(text: str, language: str, found: list[tuple[int, int, str]], path: Path) -> set[str]:
    """The places named only as the whole another place of ``found`` belongs to: the place whose name
    stands for the estate (the Palace) right before or after another with no more than stop words
    between ("les jardins du château", "the palace gardens", "宮殿の庭園"), not in a list ("the palace
    and the gardens": Babel's words for "and" and "or", or a comma)."""
    stand_ins = set(roles()["place_stand_ins"])
    owners = {key for key, place in load_calendar(path).places.items() if stand_ins & set(place.aliases)}
    stop = tokenizer_for(language).stopwords
    joins = {_list_word(language, kind) for kind in ("standard", "or")}
    named = set()
    for a, b, key in found:
        for c, d, other in found:
            if key not in owners or other == key:
                continue
            between = text[b:c] if b <= c else text[d:a] if d <= a else None
            if between is None or "," in between or "、" in between:
                continue
            words = re.findall(r"\w+", between.lower())
            if language in UNSPACED_LANGUAGES:
                linked = between.strip() in ("", _OF.get(language, ""))
            else:
                linked = all(w in stop and w not in joins for w in words)
            if linked:
                named.add(key)
    return named


_OF = {"ja": "の", "zh": "的"}  # the particle of belonging between two nouns


@functools.lru_cache(maxsize=32)
def _list_word(language: str, kind: str) -> str:
    """The word joining the last two items of a list in ``language`` (CLDR: "and", "et", "oder")."""
    pattern = Locale.parse(language).list_patterns[kind]["end"]
    return pattern.replace("{0}", "").replace("{1}", "").strip(" ,、").lower()


def names_place(text: str, language: str, path: Path = CALENDAR_FILE) -> bool:
    """Whether ``text`` names a place of the visit facts by its own name: a room it contains is
    asked about for much else than its hours ("who built the Royal Chapel?")."""
    return any(cues.find(text) for _, cues in _place_cues(path))


@functools.lru_cache(maxsize=1)
def _ticket_names() -> dict[str, tuple[str, ...]]:
    """Each ticket of the visit facts and its names in the nine languages ("Passeport", "Palace
    ticket"): a ticket the facts price is one of their subjects, not another offer."""
    names: dict[str, set[str]] = {}
    for table in load_phrases().values():
        for key, name in (table.get("tickets") or {}).items() if isinstance(table, dict) else ():
            if _CONTEXT.sub("", name).strip():
                names.setdefault(key, set()).add(_CONTEXT.sub("", name))
    return {key: tuple(sorted(found)) for key, found in names.items()}


@functools.lru_cache(maxsize=1)
def _ticket_cues_by_key() -> tuple[tuple[str, TermMatcher], ...]:

    return tuple((key, TermMatcher(names)) for key, names in _ticket_names().items())


@functools.lru_cache(maxsize=1)
def ticket_cues() -> TermMatcher:
    """Any ticket name of the visit facts."""

    return TermMatcher(name for names in _ticket_names().values() for name in names)


def tickets_named(text: str) -> list[str]:
    """The keys of the visit facts' tickets ``text`` names."""
    return [key for key, cues in _ticket_cues_by_key() if cues.find(text)]


def names_offer(text: str, language: str) -> bool:
    """Whether ``text`` names an offer or a service of the glossary ("audio guide", "horse") other
    than a ticket of the visit facts."""

    return _names_offer(blanked(text, ticket_cues().find(text)), language)


def _names_offer(text: str, language: str) -> bool:

    offers = set(roles()["offers"])
    return any(concept_name(concept) in offers for concept, _, _ in found_in(text, [language, "en"]))


def names_other_subject(
    text: str, language: str, path: Path = CALENDAR_FILE, topics_too: bool = False
) -> bool:
    """Whether ``text``, less its day, its calendar words, the calendar's places and tickets, still
    names a subject: an offer or service of the glossary ("pharmacie", "restaurant"), a word outside
    the glossary ("Louvre", "Friseur") or, in Chinese and Japanese, a run of characters it does not
    read; with ``topics_too``, any topic of the glossary as well ("the gardens' upkeep"). The
    calendar gives the estate's days and tickets, not theirs."""

    spans = [(a, b) for _, a, b in aspect_spans(text, language)]
    spans += [*day_spans(text), *day_modifiers().find(text)]
    spans += [(a, b) for a, b, _ in place_spans(text, language, path)]
    spans += ticket_cues().find(text)
    rest = blanked(text, spans)
    if _names_offer(rest, language):
        return True
    if topics_too and topics(concept for concept, _, _ in found_in(rest, [language, "en"])):
        return True
    tokenize = tokenizer_for(language)
    words = [w for w in concepts_and_words(rest, language)[1] if tokenize(w) and not re.search(r"\d", w)]
    return bool(words) or (language in UNSPACED_LANGUAGES and bool(unread_words(rest, language)))


def answered_by_calendar(part: str, language: str) -> bool:
    """A question part the visit facts answer whole: it asks about opening, closing, free entry or
    a price of a place of the calendar ("Is the Trianon open on Friday", "how much is the Palace
    ticket", not "can I bring a stroller" nor "how much is the audioguide")."""
    own = _CONTEXT.sub("", part)  # a part's context, "(the part it follows)", is not what it asks
    return asks_calendar(own, language) and bool(places_asked(own, language))


def calendar_settled(results: Iterable[ToolOutcome]) -> bool:
    """Whether this turn's calendar results settle what they were asked: every day they report open
    or closed (and free or not), or, asked on no day, a fact for each aspect asked (the tool leaves
    its summary empty otherwise). A day the calendar cannot settle (a rule withheld by the source
    check, show days not on file) or an aspect no fact answers leaves the question to the knowledge
    base."""
    asked = [r for r in results if r.tool == "get_visit_calendar" and r.status == "ok"]
    if not asked:
        return False
    for result in asked:
        days, facts = result.result.get("days", []), result.result.get("facts", [])
        if (
            not result.summary.strip()
            or not (days or facts)
            or not all(
                day.get("open") == "closed" or (day.get("open") == "open" and day.get("free") is not None)
                for day in days
            )
        ):
            return False
    return True
