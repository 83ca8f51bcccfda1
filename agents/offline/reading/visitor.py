"""Who a question asks for, read as the visit facts' typed visitor: an age, a country of residence,
and the glossary's visitor concepts (disabled, companion, student, teacher, job seeker).

Methods, not phrases: an age is a number (digits, or words num2words spells, or CJK numerals) beside
the glossary's age or year concept ("12 ans", "aged 23", "23岁"), or just after a person it names
("my son is 12"); a country is one of Babel's territory names in the question's language or in
English ("España", "Spain", "西班牙"), its EU residence decided by the calendar's list of members.
"""

from __future__ import annotations

import functools
import re

from babel import Locale

from agents.answer.number_words import digitise
from agents.offline.reading.asked import place_spans
from agents.tools.day_phrases import day_spans
from agents.visit_calendar.eligibility import Visitor
from agents.visit_calendar.rules import CUSTOMER_CONCEPTS
from rag.lexicon.concepts import concept_name, found_in, roles
from rag.lexicon.folding import fold, fold_in_place
from rag.lexicon.languages import UNSPACED_LANGUAGES
from rag.lexicon.terms import TermMatcher

AGE_MARKS = ("age", "year")  # the glossary's concepts an age is written beside: "12 ans", "aged 23"
EU_RESIDENT = "eu resident"  # the glossary's concept of living in the European Union
# Visitors of the glossary that are a party, not a person with an age ("a group of 12").
PARTIES = ("group", "school trip", "family", "large family", "pets", "dog", "guide dog")
# Visitors of the glossary that are an age: with the age read, they are read whole ("my son, 12"); a
# wheelchair or a deaf visitor is not, and is left to the knowledge base.
AGE_GROUPS = ("child", "baby", "teenager", "young people", "senior")
OLDEST = 120
_NUMBER = re.compile(r"(?<![\d.,:/])\d{1,3}(?![\d:/]|[.,]\d)")
_GAP_TO_MARK = re.compile(r"^[\s\-–]{0,2}$")  # "12 ans", "12-year-old", "23岁"
# "my son is 12", "mi hijo tiene 12", "my daughter, she is 9": at most two short words between, and
# nothing after the number but the end of a clause ("my son and 2 friends" gives no age)
_GAP_AFTER_PERSON = re.compile(r"^\W+(?:\w{1,6}\W+){0,2}$")
_CLAUSE_END = re.compile(r"^\s*(?:$|[^\w\s€$%:])")
_CLAUSE = re.compile(r"[^,.;:!?¿¡，。、；：！？]+")
_HEAD_COUNT = re.compile(r"^\s?$")  # a number just before the visitors it counts
_LEAD_IN = re.compile(r"(?:\b\w{1,6}\s+){1,2}$")


def visitor_in(text: str, language: str) -> Visitor | None:
    """The visitor ``text`` describes, or None when it says nothing an offer depends on."""
    named = {concept_name(concept) for concept, _, _ in found_in(text, [language])}
    kinds = {kind: concept in named for kind, concept in CUSTOMER_CONCEPTS.items()}
    # Residence is read from a country only: "in the EU" is as often "outside the EU" ("hors UE",
    # "nicht in der EU"), and a wrong "free" is worse than the knowledge base's answer.
    visitor = Visitor(age=age_in(text, language), country=country_in(text, language), **kinds)
    return visitor if visitor.said() else None


def accounts_for_everyone_named(text: str, language: str, visitor: Visitor | None) -> bool:
    """Whether ``visitor`` holds every visitor the question names: a person with an age read, a
    customer type, EU residence; a large family or a group is more than the visit facts read."""
    if visitor is None:
        return False
    named = {concept_name(c) for c, _, _ in found_in(text, [language, "en"])} & set(roles()["visitors"])
    read = {*CUSTOMER_CONCEPTS.values(), EU_RESIDENT, *(AGE_GROUPS if visitor.age is not None else ())}
    return named <= read


def age_in(text: str, language: str) -> int | None:
    """The first age ``text`` gives: a number beside the age or year concept, or just after a person."""
    found = _age_read(text, language)
    return found[0] if found else None


def _age_read(text: str, language: str) -> tuple[int, list[tuple[int, int]]] | None:
    """The first age and where it is written (the number, and the age word beside it)."""
    concepts = found_in(text, [language, "en"])
    marks = [(a, b) for c, a, b in concepts if concept_name(c) in AGE_MARKS]
    people = [
        (a, b)
        for c, a, b in concepts
        if concept_name(c) in set(roles()["visitors"]) - set(PARTIES) or concept_name(c) == "adult"
    ]
    # a number inside another concept's words ("carte 1 an à Versailles") or a day is no age
    taken = [(a, b) for c, a, b in concepts if concept_name(c) not in AGE_MARKS] + day_spans(text)
    for start, end, value in numbers_in(text):
        if value > OLDEST or any(a <= start and end <= b for a, b in taken):
            continue
        if beside := [mark for mark in marks if _beside(text, (start, end), mark)]:
            return value, [(start, end), *beside]
        after = [b for _, b in people if b <= start and _GAP_AFTER_PERSON.match(text[b:start])]
        if after and _CLAUSE_END.match(text[end:]):
            return value, [(after[-1], end)]  # "daughter, she is 9": the words between say her age too
    return None


def visitor_spans(text: str, language: str) -> list[tuple[int, int]]:
    """Where ``text`` says who the visitor is: their age, their country, the visitors it names."""
    found = _age_read(text, language)
    spans = list(found[1]) if found else []
    # a country with the few words leading to it ("wohne in Österreich", "from Spain")
    spans += [(_lead_in(text, a), b) for a, b, _ in _countries(text, language)]
    visitors = {*roles()["visitors"], "adult"}
    people = [(a, b) for c, a, b in found_in(text, [language, "en"]) if concept_name(c) in visitors]
    # how many of them: "two students", "deux enfants"
    counts = [(a, b) for a, b, _ in numbers_in(text) if any(_HEAD_COUNT.match(text[b:p]) for p, _ in people)]
    spans += people + counts
    return spans + _clauses_about_them(text, language, spans)


def _clauses_about_them(text: str, language: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The clauses that only say who the visitor is ("Je viens avec ma mère handicapée, …"): one
    holding what they read and no other concept of the glossary nor a place of the facts."""
    visitors = {*roles()["visitors"], "adult", *AGE_MARKS}
    found = []
    for clause in _CLAUSE.finditer(text):
        a, b = clause.span()
        if not any(a <= start < b for start, _ in spans):
            continue
        named = {concept_name(c) for c, _, _ in found_in(clause.group(), [language, "en"])}
        if named <= visitors and not place_spans(clause.group(), language):
            found.append((a, b))
    return found


def _lead_in(text: str, start: int) -> int:
    """Where the two short words before ``start`` begin, within its clause."""
    match = _LEAD_IN.search(text[:start])
    return match.start() if match else start


def _beside(text: str, number: tuple[int, int], mark: tuple[int, int]) -> bool:
    gap = text[number[1] : mark[0]] if number[1] <= mark[0] else text[mark[1] : number[0]]
    return (number[1] <= mark[0] or mark[1] <= number[0]) and bool(_GAP_TO_MARK.match(gap))


def numbers_in(text: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of each whole number in ``text``, in digits or words, in its own offsets."""
    folded = fold_in_place(text)
    digitised = digitise(folded)
    work = digitised.text if digitised else folded
    found = []
    for match in _NUMBER.finditer(work):
        start, end = digitised.original(match.start(), match.end()) if digitised else match.span()
        found.append((start, end, int(match.group())))
    return found


def country_in(text: str, language: str) -> str | None:
    """The ISO code of the first country ``text`` names in its language or in English (Babel)."""
    spans = _countries(text, language)
    return min(spans)[2] if spans else None


def _countries(text: str, language: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    for code in dict.fromkeys((language, "en")):
        names, cues = _territories(code)
        spans += [(a, b, names[fold(text[a:b])]) for a, b in cues.find(text)]
    return spans


@functools.lru_cache(maxsize=16)
def _territories(language: str) -> tuple[dict[str, str], TermMatcher]:
    """Babel's country names in ``language`` by folded name, and a matcher for them; regions with a
    number code ("Europe", "World") and names too short to tell from a word are left out."""
    shortest = 2 if language in UNSPACED_LANGUAGES else 4
    names = {
        fold(name): code
        for code, name in Locale.parse(language).territories.items()
        if len(code) == 2 and code.isalpha() and len(name) >= shortest
    }
    return names, TermMatcher(names)


def visitor_asked(text: str, language: str, aspects: list[str]) -> Visitor | None:
    """The visitor a question on free entry or a price asks for, when the visit facts can read all of
    whom it names ("my son is 12", "two students aged 23 from Spain"); None otherwise ("a large
    family": the knowledge base says who pays which rate)."""
    if not {"free", "price"} & set(aspects):
        return None
    visitor = visitor_in(text, language)
    return visitor if accounts_for_everyone_named(text, language, visitor) else None
