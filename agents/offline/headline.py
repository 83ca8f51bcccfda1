"""The headline of an answered part: its asked values, qualified, from a sentence about its subject.

"**Price**: €21 (full price) · €13 (reduced rate) [1]" is shown only when every test holds:
- the part asks for that kind of value: a date only when it asks when, times of day only when it
  asks about opening (``[headline.asked_by]`` in data/offline/phrases.toml);
- the sentence (with its label, its passage's headings and the sentence before it) meets every
  glossary concept the part names beyond the kind of value asked (a part naming none, "on which
  days is it closed?", takes the question's); for a date, the event asked ("inaugurated") is in
  the date's own clause;
- the clauses holding the values are about no place, offer or group of visitors the part does
  not name (the Trianon's hours do not head the palace's, a guided tour's price not the ticket's);
- no other sentence stating such a value meets more of the part's other words (the asked
  office's phone number, not another office's), and none names only other months than the asked.
No headline is better than a wrong one: the quotes below it still show the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agents.answer.qualifiers import calendar_words, clause, months_covered, qualifiers
from agents.answer.stated_values import StatedValue, stated_values, written
from agents.answer.visitor_terms import concept_name
from agents.offline import reader
from agents.offline.phrases import phrases, replies
from rag.answer_types import KEY_FACT_KINDS
from rag.query_expansion import Concept, load_glossary

MAX_VALUES = 3
HEADLINE_KINDS = ("price", "hours", "closed", *KEY_FACT_KINDS[2:])  # most specific first


@dataclass(frozen=True)
class Headline:
    """One headline line: the kind of value, its values written with their qualifiers, the source."""

    kind: str
    values: tuple[str, ...]
    number: int

    def line(self, language: str) -> str:
        """ "**Price**: €21 (full price) · €13 (reduced rate) [1]"."""
        labels = phrases()["fact_labels"].get(language, phrases()["fact_labels"]["en"])
        return f"**{labels.get(self.kind, self.kind)}**: {' · '.join(self.values)} [{self.number}]"


def headline(
    part: reader.PartReading, question: str, pool: Sequence[reader.Candidate], language: str
) -> Headline | None:
    """The headline of ``part`` (of ``question``) from its best sentences, or None."""
    languages = [language, "en"]
    named = _named(part.part, languages)
    kinds = asked_kinds(part, named)
    if not (needs := _needs(concepts_in(part.part, languages))) and part.part != question:
        needs, named = _needs(concepts_in(question, languages)), [*named, *_named(question, languages)]
    asked = {id(c) for c in named}  # a term two concepts share may ask either ("パスポート")
    words = reader.concepts_and_words(part.part, language)[1]
    asked_months = months_covered(part.part)
    for candidate in part.best():
        for kind in kinds:
            if values := _stated(kind, candidate):
                kept = answering(needs, asked, kind, values, candidate, pool)
                if (
                    kept
                    and _most_on_topic(words, kind, candidate, pool)
                    and not _other_months(asked_months, candidate)
                ):
                    return Headline(kind, _shown(kind, kept, candidate, language), candidate.number)
                break
    return None


def _stated(kind: str, candidate: reader.Candidate) -> list[StatedValue]:
    """The values of ``kind`` the sentence states; for "closed", the clause naming closing days."""
    if kind != "closed":
        return stated_values(kind, candidate.text, candidate.language)[:MAX_VALUES]
    for concept, start, _ in _find(candidate.text, candidate.language):
        _, end = clause(candidate.text, start, start, [])  # "fermé le lundi et le 1er mai": one clause
        said = candidate.text[start:end]
        # "ferme à 18 h 30" is a closing time, "fermé le lundi" a closing day
        closing_days = not stated_values("hours", said, candidate.language) and calendar_words(
            said, "en", candidate.language
        )
        if concept_name(concept) == "closed" and closing_days:
            return [StatedValue("closed", start, end, (), said)]
    return []


def _shown(
    kind: str, values: Sequence[StatedValue], candidate: reader.Candidate, language: str
) -> tuple[str, ...]:
    """The values as the headline writes them: opening hours with the closing days after them."""
    if kind == "closed":
        return tuple(w for _, _, w in calendar_words(values[0].source, language, candidate.language))
    closed = _stated("closed", candidate) if kind == "hours" else []
    days = (
        ", ".join(w for _, _, w in calendar_words(closed[0].source, language, candidate.language))
        if closed
        else ""
    )
    return _qualified(values, candidate, language) + (
        (replies(language)["closed_on"].format(days=days),) if days else ()
    )


def asked_kinds(part: reader.PartReading, named: Sequence[Concept]) -> list[str]:
    """The kinds of value ``part`` asks for that a headline may show, most specific first."""
    names = {concept_name(c) for c in named}
    asked_by = phrases()["headline"]["asked_by"]
    kinds = {k.name for k in part.kinds} | {"closed"}
    return [k for k in HEADLINE_KINDS if k in kinds and (k not in asked_by or names & set(asked_by[k]))]


def _named(text: str, languages: Sequence[str]) -> list[Concept]:
    """Every glossary concept ``text`` names."""
    glossary = load_glossary()
    return [concept for concept, _, _ in glossary.find(text, languages)] if glossary else []


def concepts_in(text: str, languages: Sequence[str]) -> list[Concept]:
    """The glossary concepts ``text`` names, a term two concepts share ("restauration") left out."""
    glossary = load_glossary()
    found = glossary.find(text, languages) if glossary else []
    spans = [(start, end) for _, start, end in found]
    return [concept for concept, start, end in found if spans.count((start, end)) == 1]


def answering(
    needs: Sequence[Concept], asked: set[int], kind: str, values: Sequence[StatedValue],
    candidate: reader.Candidate, pool: Sequence[reader.Candidate],
) -> list[StatedValue]:  # fmt: skip
    """The values of ``candidate`` that answer the part: the sentence (with its label, headings and
    the sentence before it) meets every concept the part names, and a value's clause is about no
    place, offer or group of visitors the part does not name (for a date, it names the event)."""
    before = leader(candidate, pool)
    around = candidate.stems | candidate.context | (before.stems if before else frozenset())
    if not all(reader.met(n, around) for n in reader.needs_of(needs, [], candidate.language)):
        return []
    events = reader.needs_of(
        [c for c in needs if concept_name(c) not in _subject_names()], [], candidate.language
    )
    clauses = _clauses(values, candidate)
    frame = _subjects(f"{candidate.label} {candidate.heading}", candidate.language)
    if before and not any(_subjects(text, candidate.language) for text in clauses):
        frame += _subjects(before.text, candidate.language)  # "Le billet Château... Il est vendu 21€"
    return [
        value
        for value, text in zip(values, clauses, strict=True)
        if all(id(c) in asked for c in [*frame, *_subjects(text, candidate.language)])
        and (kind != "date" or all(reader.met(n, reader.stems(text, candidate.language)) for n in events))
    ]


def _clauses(values: Sequence[StatedValue], candidate: reader.Candidate) -> list[str]:
    """Each value's clause (up to the punctuation or "and"-word around it); values joined by a
    connector or a range word alone ("entre 1762 et 1768", "de 9h à 18h") share one."""
    text, connectors = candidate.text, phrases()["connectors"].get(candidate.language, [])
    joining = "|".join(re.escape(w) for w in [*connectors, "à", "au", "to", "-", "–"])
    groups: list[list[StatedValue]] = []
    for value in values:
        if groups and re.fullmatch(rf"\s*(?:{joining})?\s*", text[groups[-1][-1].end : value.start], re.I):
            groups[-1].append(value)
        else:
            groups.append([value])
    spans = [clause(text, group[0].start, group[-1].end, connectors) for group in groups]
    return [text[a:b] for group, (a, b) in zip(groups, spans, strict=True) for _ in group]


def _most_on_topic(
    words: Sequence[str], kind: str, candidate: reader.Candidate, pool: Sequence[reader.Candidate]
) -> bool:
    """Whether no other sentence stating a value of ``kind`` meets more of the part's other words."""
    needs = reader.needs_of([], words, candidate.language)

    def met(other: reader.Candidate) -> int:
        before = leader(other, pool)
        around = other.stems | other.context | (before.stems if before else frozenset())
        return sum(reader.met(need, around) for need in needs)

    rivals = [c for c in pool if c.language == candidate.language and stated_values(kind, c.text, c.language)]
    return all(met(candidate) >= met(rival) for rival in rivals)


def _other_months(asked: set[int], candidate: reader.Candidate) -> bool:
    """Whether the part asks about months the sentence's months leave out ("en décembre" against
    "du 1er avril au 31 octobre")."""
    named = months_covered(f"{candidate.label} {candidate.text}")
    return bool(asked and named and not asked & named)


def leader(candidate: reader.Candidate, pool: Sequence[reader.Candidate]) -> reader.Candidate | None:
    """The sentence before ``candidate`` in its passage and section (it often names the subject)."""
    before = pool[candidate.position - 1] if candidate.position > 0 else None
    same = before and (before.number, before.label) == (candidate.number, candidate.label)
    return before if same else None


def _needs(named: Sequence[Concept]) -> list[Concept]:
    table = phrases()["headline"]
    ignored = {*table["neutral"], *table["qualifiers"], *phrases()["cues"]["question_concepts"]}
    return [c for c in named if concept_name(c) not in ignored]


def _subject_names() -> set[str]:
    return set(phrases()["headline"]["subjects"])


def _subjects(text: str, language: str) -> list[Concept]:
    """The places, offers and groups of visitors ``text`` names."""
    return [c for c in concepts_in(text, [language]) if concept_name(c) in _subject_names()]


def _qualified(values: Sequence[StatedValue], candidate: reader.Candidate, language: str) -> tuple[str, ...]:
    """Each value written the visitor's way, with its qualifiers in brackets."""
    names = set(phrases()["headline"]["qualifiers"])
    spans = [(v.start, v.end) for v in values]
    words = qualifiers(candidate.text, spans, candidate.language, language, names, stops={"closed"})
    shown = [
        f"{written(v, language)} ({', '.join(w)})" if w else written(v, language)
        for v, w in zip(values, words, strict=True)
    ]
    return tuple(dict.fromkeys(shown))


def _find(text: str, language: str) -> list[tuple[Concept, int, int]]:
    glossary = load_glossary()
    return glossary.find(text, [language]) if glossary else []
