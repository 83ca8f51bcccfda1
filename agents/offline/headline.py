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
    named = concepts_in(part.part, [language, "en"])
    kinds = asked_kinds(part, named)
    needs = _needs(named) or (
        _needs(concepts_in(question, [language, "en"])) if part.part != question else []
    )
    words = reader.concepts_and_words(part.part, language)[1]
    asked_months = months_covered(part.part)
    for candidate in part.best():
        for kind in kinds:
            if values := _stated(kind, candidate):
                if (
                    about(needs, kind, values, candidate, pool)
                    and _most_on_topic(words, kind, candidate, pool)
                    and not _other_months(asked_months, candidate)
                ):
                    return Headline(kind, _shown(kind, values, candidate, language), candidate.number)
                break
    return None


def _stated(kind: str, candidate: reader.Candidate) -> list[StatedValue]:
    """The values of ``kind`` the sentence states; for "closed", the clause naming closing days."""
    if kind != "closed":
        return stated_values(kind, candidate.text, candidate.language)[:MAX_VALUES]
    starts = [s for c, s, _ in _find(candidate.text, candidate.language) if concept_name(c) == "closed"]
    if not starts:
        return []
    _, end = clause(candidate.text, starts[0], starts[0], [])  # "fermé le lundi et le 1er mai"
    days = calendar_words(candidate.text[starts[0] : end], "en", candidate.language)
    return [StatedValue("closed", starts[0], end, (), candidate.text[starts[0] : end])] if days else []


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


def concepts_in(text: str, languages: Sequence[str]) -> list[Concept]:
    """The glossary concepts ``text`` names, a term two concepts share ("restauration") left out."""
    glossary = load_glossary()
    found = glossary.find(text, languages) if glossary else []
    spans = [(start, end) for _, start, end in found]
    return [concept for concept, start, end in found if spans.count((start, end)) == 1]


def about(
    needs: Sequence[Concept], kind: str, values: Sequence[StatedValue], candidate: reader.Candidate,
    pool: Sequence[reader.Candidate],
) -> bool:  # fmt: skip
    """Whether ``candidate`` meets every concept the part names and its values are about no place,
    offer or group of visitors the part does not name."""
    before = leader(candidate, pool)
    around = candidate.stems | candidate.context | (before.stems if before else frozenset())
    held = " ".join(_clauses(values, candidate))
    events = [c for c in needs if concept_name(c) not in _subject_names()]
    if not all(reader.met(n, around) for n in reader.needs_of(needs, [], candidate.language)) or (
        kind == "date"
        and not all(
            reader.met(n, reader.stems(held, candidate.language))
            for n in reader.needs_of(events, [], candidate.language)
        )
    ):
        return False
    own = _subjects(f"{candidate.label} {candidate.heading} {held}", candidate.language)
    if before and not _subjects(held, candidate.language):
        own += _subjects(before.text, candidate.language)  # "Le billet Château... Il est vendu 21€"
    asked = {id(c) for c in needs}
    return all(id(concept) in asked for concept in own)


def _clauses(values: Sequence[StatedValue], candidate: reader.Candidate) -> list[str]:
    connectors = phrases()["connectors"].get(candidate.language, [])
    spans = [clause(candidate.text, v.start, v.end, connectors) for v in values]
    return [candidate.text[a:b] for a, b in dict.fromkeys(spans)]


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
