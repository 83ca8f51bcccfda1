"""Whether the visit facts' lines account for the whole of what a question asks: the coverage check
that decides if they head the answer in bold.

A question part is covered when, once set aside what the lines explain (their places with the rooms
they contain, the aspect they answer, the day, months or season, the tickets they price, and for a
price the rates) and what only gives the question its form (stop words, question words, the
glossary's neutral concepts), it names no subject the lines are not about: no offer or service ("the
ticket desks", "a show", "the café"), no other place, no way of buying ("on site", "online"), no
kind of value the facts never give (a year, a length, a distance), no vehicle (a train, a bus, a
car: the little train of the park runs on days and hours of its own), no topic of its own (a
glossary concept the roles file gives no role: photos, a lift, the rain), no name the glossary does
not know ("the Big Bus ticket": a capital inside a sentence, except in German), and, when a price or
free entry is asked, no group of visitors and no age, unless a line answers for that visitor (an
eligibility line: who they are is then explained). When no word asks the facts anything (the aspect
was read from the meaning, "can our dog come on Saturday?"), a visitor it names is what it asks
about, whatever the aspect. Words outside the glossary are left to the question's phrasing: the
knowledge base uses many of them too, so finding them in the evidence does not tell a subject from a
visitor's circumstance (tried on the visit-facts set: 16 of its 108 answers lost their right first
lines). The day is accounted for by a line for that day; lines on no day (a season's hours, a price, the
weekly closing) account for a day the question names, anywhere in it, unless a price is asked (what a
visitor pays turns on the day: the first Sundays are free) or a closing is asked on a weekday no line
answering it names ("closed on Tuesdays?" is not answered by "closed every Monday"); a line naming
the weekday asked answers it (``agents.offline.reply``: the weekly closing heads "open on Mondays?").
The whole turn is read (the message, or a follow-up completed), not only the parts searched.
The lines are in bold only when every part of the question that asks them something is covered;
otherwise the evidence comes first and the lines follow it, plainly.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from agents.offline.reading.asked import (
    WHEN,
    asks_when,
    aspect_spans,
    aspects_asked,
    place_spans,
    ticket_cues,
)
from agents.offline.reading.question_parts import question_parts
from agents.offline.reading.slots import day_modifiers, places_in
from agents.offline.reading.visitor import visitor_spans
from agents.tools.day_phrases import day_spans
from agents.tools.travel.tool import parse_mode
from rag.bm25 import tokenizer_for
from rag.lexicon.calendar_names import weekdays_named
from rag.lexicon.concepts import concept_name, found_in, roles, subject_kind
from rag.lexicon.folding import blanked, fold
from rag.lexicon.glossary import Concept
from rag.lexicon.holidays import holiday_spans
from rag.lexicon.scripts import KATAKANA

PRICED = frozenset({"price", "free"})  # aspects whose answer depends on the visitor
_CONTEXT = re.compile(r"\s*\([^()]*\)\s*$")  # a part's context, "(the part it follows)"
_AGE = re.compile(r"\d")
# A word with a capital, not first in its sentence (nor after an opening quote or bracket).
_NAME = re.compile(r"(?<![.?!:;¿¡«“\"(\[]\s)(?<![.?!:;¿¡«“\"(\[])(?<!^)\b[A-ZÀ-ÖØ-Þ][\w'’-]+")
_EVERY_NOUN_CAPITALISED = frozenset({"de"})
# Japanese writes foreign names and loanwords in katakana: a run of it (with "・" and "ー") is a name.
# A run touching an explained name is part of it ("グランド・" of "グランド・トリアノン").
_KATAKANA_NAME = re.compile(rf"(?<![{KATAKANA} ])[{KATAKANA}]{{2,}}(?![{KATAKANA} ])")
_ASIDE = re.compile(r"[(（][^()（）]*[)）]")  # a bracketed aside
# A sentence and what ends it: a question mark asks, a full stop or an exclamation mark tells.
_SENTENCE = re.compile(
    r"(?:[^.!?。！？]|(?<=\d)\.(?=\d)|(?<=(?<!\d)\d)\.|(?<=(?<!\d)\d\d)\.)+(?:[.!。！]|[?？]|$)"
)


@dataclass(frozen=True)
class StatedFacts:
    """What the turn's visit-facts lines state: their places, the aspects they were asked, and
    whether a line answers for the visitor the question describes (their age, country, who they are:
    an eligibility line) rather than for any visitor."""

    places: frozenset[str]
    aspects: frozenset[str]
    for_the_visitor: bool = False
    on_a_day: bool = False  # a line is for the day asked (the calendar placed it), not on no day
    weekdays: frozenset[int] = frozenset()  # the weekdays named by the lines answering the question


def covered(question: str, language: str, facts: StatedFacts) -> bool:
    """Whether every part of ``question`` that asks the visit facts something is explained whole by
    ``facts`` (a part that asks nothing of them, "we'd like a late picnic", is the knowledge base's)."""
    parts = [  # without the context a part is read with, "(the part it follows)", not the visitor's aside
        part if part in question else _CONTEXT.sub("", part) for part in question_parts(question, language)
    ] or [question]
    asking = [part for part in parts if aspects_asked(part, language)] or [
        part for part in parts if aspects_asked(part, language, dated=True)
    ]  # the parts whose words ask an aspect; else those asking to visit on a day; else the question
    # no word asks the facts anything, nor when: the aspect was read from the meaning
    inferred = not asking and not any(asks_when(part, language) for part in parts)
    asking = asking or parts[:1]
    asked, told = asked_sentences(question)
    if aspects_asked(told, language, dated=True) and not _asks_the_facts(asked, language):
        return False  # the facts were read in the scene the visitor sets, not in what they ask
    if any(_names_a_vehicle(s, language, facts) for s in _SENTENCE.findall(question) if _holds(s, asking)):
        return False  # "the bus between the station and the palace": asked of it, whatever part asks
    if _day_unaccounted(question, facts):
        return False  # the day is named anywhere: in the scene ("We come on a Sunday. Is it free?") too
    return all(not unexplained(part, language, facts, inferred) for part in asking)


def _holds(sentence: str, parts: list[str]) -> bool:
    return any(part in sentence for part in parts)


def _names_a_vehicle(text: str, language: str, facts: StatedFacts) -> bool:
    """Whether ``text``, less the facts' places, names a vehicle (a train, a bus, a car): the little
    train of the park runs on days and hours of its own, a bus or a shuttle on a timetable."""
    places = [(a, b) for a, b, key in place_spans(text, language) if key in facts.places]
    return parse_mode(blanked(text, places)) not in (None, "walk")


def _asks_the_facts(sentence: str, language: str) -> bool:
    """Whether ``sentence`` asks an aspect of the visit facts, or when ("What time?")."""
    when = WHEN in {concept_name(c) for c, _, _ in found_in(sentence, [language, "en"])}
    return when or bool(aspects_asked(sentence, language, dated=True))


def asked_sentences(question: str) -> tuple[str, str]:
    """What ``question`` asks and what it tells, when some of its sentences end with a question mark
    and others with a full stop ("We walk in the gardens on Saturday. Do we need a ticket?"); else
    ("", ""). A full stop in a number or after one of one or two digits (a day: "am 25. Dezember") ends no
    sentence."""
    sentences = [  # an aside standing alone ("(the question it follows)") tells nothing of its own
        s.strip()
        for s in _SENTENCE.findall(question)
        if s.strip() and not _ASIDE.fullmatch(s.strip(" .?？。"))
    ]
    asking = [s for s in sentences if s.endswith(("?", "？"))]
    if not asking or len(asking) == len(sentences):
        return "", ""
    return " ".join(asking), " ".join(s for s in sentences if s not in asking)


def unexplained(part: str, language: str, facts: StatedFacts, inferred: bool = False) -> list[str]:
    """The subjects ``part`` names that ``facts`` do not explain (see the module's docstring), by the
    glossary's concept names ("age" for a visitor's age); empty when the facts account for all of it.
    ``inferred``: no word of the question asks the facts anything, so a visitor it names ("can my
    dog come on Saturday?") is what it asks about, whatever the aspect read."""
    spans = [(a, b) for _, a, b in aspect_spans(part, language, dated=True)]
    days = [*day_spans(part), *day_modifiers().find(part)]
    spans += days + _asides_about(part, days)
    spans += [(a, b) for a, b, key in place_spans(part, language) if key in facts.places]
    spans += ticket_cues().find(part)
    spans += visitor_spans(part, language) if facts.for_the_visitor else []
    spans += holiday_spans(part, dt.date.today())  # a day too: "New Year's Day", "Hemelvaartsdag"
    rest = blanked(part, spans)
    found_at = found_in(rest, [language, "en"])
    found = {concept_name(c): c for c, _, _ in found_at}
    left = [name for name, concept in found.items() if not _explained(concept, facts, inferred)]
    left += names_in(blanked(rest, ((a, b) for _, a, b in found_at)), language)
    if (
        "age" not in found
    ):  # "how long", "which year": a kind of value no visit fact gives ("6 years": an age)
        left += [name for name in found if name in _OTHER_VALUES]
    if facts.aspects & PRICED and not facts.for_the_visitor and _states_an_age(part, language):
        left.append("age")
    return left


def _day_unaccounted(question: str, facts: StatedFacts) -> bool:
    """Whether lines on no day leave the day ``question`` names unaccounted for: a price asked (what
    a visitor pays turns on the day, the first Sundays being free, and the lines hold no day), or a
    closing asked on a weekday no line answering it names (the weekly closing answers "on Mondays",
    not "on a Tuesday")."""
    named = weekdays_named(question)
    if not (named or day_spans(question)) or facts.on_a_day:
        return False
    return "price" in facts.aspects or ("closed" in facts.aspects and bool(named - facts.weekdays))


def _asides_about(part: str, days: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The bracketed asides of ``part`` that hold a day: they tell the day again, in other words
    ("6 April (Monday, Easter Monday)")."""
    asides = [match.span() for match in _ASIDE.finditer(part)]
    return [(a, b) for a, b in asides if any(a <= start < b for start, _ in days)]


def names_in(text: str, language: str) -> list[str]:
    """The words ``text`` writes as names (a capital inside a sentence) that are no stop word and no
    name of Versailles: another subject's name ("Big Bus", "Angelina"), which the glossary does not
    know. German capitalises every noun, so a capital marks no name there; Japanese writes names and
    loanwords in katakana, so a run of it left unexplained is one ("the boutique")."""
    if language in _EVERY_NOUN_CAPITALISED:
        return []
    stop = tokenizer_for(language).stopwords
    written = _KATAKANA_NAME.findall(text) if language == "ja" else _NAME.findall(text)
    return [
        word
        for word in written
        if fold(word) not in stop and not any(place.is_versailles for place in places_in(word))
    ]


def _explained(concept: Concept, facts: StatedFacts, inferred: bool = False) -> bool:
    """Whether a concept the part names is explained by the facts or by the question's form. A
    concept with no role is a topic of its own (the roles file's definition): never explained."""
    name, role = concept_name(concept), roles()
    if name in role["neutral"] or name in role["question"]:
        return True
    if name in role["qualifiers"]:
        rate = name in _RATES or name in role["rates_for_some"]
        return name not in _BUYING and (not rate or bool(facts.aspects & PRICED))
    kind = subject_kind(concept)
    if kind == "visitors":
        return facts.for_the_visitor or not (inferred or facts.aspects & PRICED)
    return False  # an offer, a service, a place the lines are not about, a topic of its own


def _states_an_age(part: str, language: str) -> bool:
    """Whether the part gives a visitor's age: a number beside the glossary's concept of age."""
    names = {concept_name(c) for c, _, _ in found_in(part, [language, "en"])}
    return "age" in names and bool(_AGE.search(part))


# Qualifiers no line explains (a way of buying) and those a price explains (a rate); the others say
# when (a season, a month, a time of day), which the line's day or months state.
_BUYING = frozenset({"online", "on site"})
_RATES = frozenset({"full price", "adult"})  # with the roles file's ``rates_for_some``
# The glossary's concepts asking a kind of value that no visit fact gives (a year, a size, a distance).
_OTHER_VALUES = frozenset({"year", "century", "surface area", "length", "how far"})
