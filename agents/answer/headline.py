"""The headline of an answered part: its asked values, qualified, from a sentence about its subject.

Any reader that ranks the evidence's sentences for a question part (``RankedPart``: the offline
model's ``agents.offline.RankedPart``) gets a headline from it.

"**Price**: €21 (full price) · €13 (reduced rate) [1]" is shown only when every test holds:
- the part asks for that kind of value: a date only when it asks when, times of day only when it
  asks about opening, closing days when it asks when a place is closed (``asked_by`` in
  data/glossary/concept_roles.toml);
- the sentence (with its label, its passage's headings and the sentence before it) names every
  topic the part names (a part naming none, "on which days is it closed?", takes the question's);
- opening hours are shown as ranges ("9:00–18:30"), a single time only when one moment is asked
  (when it opens or closes, the last admission);
- the sentence's label and headings name no rate for some visitors only that the part does not
  ask ("Reduced rates": its prices are not the asked ticket's);
- a value is kept only when its clause is about no place, offer or group of visitors the part
  does not name (the Trianon's hours do not head the palace's, a guided tour's price not the
  ticket's), and, for a date, names the event asked ("inaugurated", not "built"); dates of
  several clauses are not shown (nothing tells which one is asked);
- no other sentence stating such a value meets more of the part's other words (the asked office's
  phone number), and the sentence's months are not all other than the asked ones;
- for a Chinese or Japanese part, whose words outside the glossary are not read, no other quoted
  sentence states other values of that kind for the same subject, and the part names a place, an
  offer or a group of visitors of the glossary when it has such words ("故宫博物院几点开门？" names
  none, so its subject may be what is not read);
- the part is more likely answerable than not (``answerability.py``: probability 0.5 or more).
No headline is better than a wrong one: the quotes below it still show the evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from agents.answer import sentences
from agents.answer.qualifiers import calendar_words, clause, months_covered, qualifiers, value_clauses
from agents.answer.sentences import Candidate
from agents.answer.stated_values import StatedValue, stated_values, written
from agents.answer.visitor_terms import (
    concept_name,
    found_in,
    is_subject,
    named_in,
    roles,
    subjects_in,
    topics,
    unambiguous_in,
)
from agents.offline.phrases import phrases, replies
from agents.reading.question_parts import topic_words, unread_words
from rag.answer_types import AnswerType
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.query_expansion import Concept

MAX_VALUES = 3
HEADLINE_FROM = 0.5  # the part's answerability (a calibrated probability): more likely than not
KINDS = ("price", "hours", "closed", "date", "duration", "phone", "distance", "age", "area")  # specific first


class RankedPart(Protocol):
    """A question part as a reader ranked the evidence for it."""

    part: str
    kinds: list[AnswerType]
    answerable: float  # the calibrated probability that the evidence answers it

    def best(self) -> list[Candidate]: ...


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


def headline(part: RankedPart, question: str, pool: Sequence[Candidate], language: str) -> Headline | None:
    """The headline of ``part`` (of ``question``) from its best sentences, or None; only for a part
    more likely answerable than not (a quote may show for less)."""
    if part.answerable < HEADLINE_FROM:
        return None
    languages = [language, "en"]
    named = named_in(part.part, languages)
    kinds = asked_kinds(part, named)
    if not (needs := topics(unambiguous_in(part.part, languages))) and part.part != question:
        needs, named = topics(unambiguous_in(question, languages)), [*named, *named_in(question, languages)]
    asked = {id(c) for c in named}  # a term two concepts share may ask either ("パスポート")
    words = topic_words(part.part, language, part.kinds)
    best = part.best()
    unread = bool(UNSPACED_CHARACTER.search(part.part))  # its words outside the glossary are not read
    if unread and not subjects_in(part.part, language) and unread_words(part.part, language):
        return None  # its subject may be in the words not read ("故宫博物院": not the estate's)
    for candidate in best:
        for kind in kinds:
            if values := _stated(kind, candidate):
                kept = answering(needs, asked, kind, values, candidate, pool)
                if kind == "hours" and _asks_spans(named):  # "9:00" alone is half of opening hours
                    kept = [v for v in kept if len(v.key) > 1 and v.key[1] is not None]
                if (
                    kept
                    and _most_on_topic(words, kind, candidate, pool)
                    and not _other_months(part, candidate)
                    and not (unread and _disputed(kept, kind, candidate, best, needs, asked, pool))
                ):
                    return Headline(kind, _shown(kind, kept, candidate, language), candidate.number)
                break
    return None


def _disputed(
    kept: Sequence[StatedValue], kind: str, candidate: Candidate, best: Sequence[Candidate],
    needs: Sequence[Concept], asked: set[int], pool: Sequence[Candidate],
) -> bool:  # fmt: skip
    """Whether another of the part's quoted sentences states other values of ``kind`` for the same
    subject ("24 € on Saturdays" beside "21 €" for the same ticket). For a part whose words
    outside the glossary are not read (Chinese, Japanese: ``topic_words`` finds none), nothing
    tells which one is asked, so no value heads the answer."""
    shown = {v.key for v in kept}
    for other in best:
        if other is candidate or not (values := _stated(kind, other)):
            continue
        if any(v.key not in shown for v in answering(needs, asked, kind, values, other, pool)):
            return True
    return False


def asked_kinds(part: RankedPart, named: Sequence[Concept]) -> list[str]:
    """The kinds of value ``part`` asks for that a headline may show, most specific first."""
    names = {concept_name(c) for c in named}
    asked_by = roles()["asked_by"]
    kinds = {k.name for k in part.kinds} | {"closed"}
    asked = [k for k in KINDS if k in kinds and (k not in asked_by or names & set(asked_by[k]))]
    return [k for k in asked if k != "date" or "hours" not in asked]  # "when does it open?" asks a time


def _asks_spans(named: Sequence[Concept]) -> bool:
    """Whether the part asks for opening hours (from one time to another) rather than one moment
    (when it opens, closes, or last admits): only a time range then answers it."""
    names = {concept_name(c) for c in named}
    return "opening hours" in names and not names & {"open", "closing time", "last admission"}


def answering(
    needs: Sequence[Concept], asked: set[int], kind: str, values: Sequence[StatedValue],
    candidate: Candidate, pool: Sequence[Candidate],
) -> list[StatedValue]:  # fmt: skip
    """The values of ``candidate`` that answer the part (see the module's tests)."""
    before = sentences.leader(candidate, pool)
    if not all(
        sentences.met(n, sentences.around(candidate, pool))
        for n in sentences.needs_of(needs, [], candidate.language)
    ):
        return []
    if _for_some_visitors(candidate, asked):
        return []
    events = sentences.needs_of([c for c in needs if not is_subject(c)], [], candidate.language)
    connectors = phrases()["connectors"].get(candidate.language, [])
    clauses = value_clauses(candidate.text, [(v.start, v.end) for v in values], connectors)
    frame = subjects_in(f"{candidate.label} {candidate.heading}", candidate.language)
    if before and not any(subjects_in(text, candidate.language) for text in clauses):
        frame += subjects_in(before.text, candidate.language)  # "Le billet Château... Il est vendu 21€"
    kept = [
        (value, text)
        for value, text in zip(values, clauses, strict=True)
        if all(id(c) in asked for c in [*frame, *subjects_in(text, candidate.language)])
        and (
            kind != "date" or all(sentences.met(n, sentences.stems(text, candidate.language)) for n in events)
        )
    ]
    if kind == "date" and len({text for _, text in kept}) > 1:
        return []  # dates of several clauses ("inaugurated in 1957 ..., born in 1926"): which is asked?
    return [value for value, _ in kept]


def _for_some_visitors(candidate: Candidate, asked: set[int]) -> bool:
    """Whether the sentence's label or headings name a rate for some visitors only that the part
    does not ask ("Reduced rates" above "the Palace ticket at 13 €...")."""
    restricting = set(roles()["rates_for_some"])
    frame = unambiguous_in(f"{candidate.label} {candidate.heading}", [candidate.language, "en"])
    return any(concept_name(c) in restricting and id(c) not in asked for c in frame)


def _stated(kind: str, candidate: Candidate) -> list[StatedValue]:
    """The values of ``kind`` the sentence states; for "closed", the clause naming closing days
    ("fermé le lundi", not "ferme à 18 h 30": a time there is a closing time)."""
    if kind != "closed":
        return stated_values(kind, candidate.text, candidate.language)[:MAX_VALUES]
    for concept, start, _ in found_in(candidate.text, [candidate.language]):
        said = candidate.text[start : clause(candidate.text, start, start, [])[1]]
        days = not stated_values("hours", said, candidate.language) and calendar_words(
            said, "en", candidate.language
        )
        if concept_name(concept) == "closed" and days:
            return [StatedValue("closed", start, start + len(said), (), said)]
    return []


def _shown(kind: str, values: Sequence[StatedValue], candidate: Candidate, language: str) -> tuple[str, ...]:
    """The values as the headline writes them; opening hours with the closing days after them."""
    if kind == "closed":
        return (_days(values[0].source, candidate.language, language),)
    spans = [(v.start, v.end) for v in values]
    names = set(roles()["qualifiers"])
    words = qualifiers(candidate.text, spans, candidate.language, language, names, stops={"closed"})
    shown = [
        f"{written(v, language)} ({', '.join(w)})" if w else written(v, language)
        for v, w in zip(values, words, strict=True)
    ]
    closed = _stated("closed", candidate) if kind == "hours" else []
    if closed:
        shown.append(
            replies(language)["closed_on"].format(days=_days(closed[0].source, candidate.language, language))
        )
    return tuple(dict.fromkeys(shown))


def _days(said: str, source_language: str, language: str) -> str:
    """The days a clause names ("le lundi et le 1er mai"), in ``language``: "Monday, May 1"."""
    return ", ".join(words for _, _, words in calendar_words(said, language, source_language))


def _most_on_topic(words: Sequence[str], kind: str, candidate: Candidate, pool: Sequence[Candidate]) -> bool:
    """Whether no other sentence stating a value of ``kind`` meets more of the part's other words."""
    needs = sentences.needs_of([], words, candidate.language)

    def met(other: Candidate) -> int:
        return sum(sentences.met(need, sentences.around(other, pool)) for need in needs)

    rivals = [c for c in pool if c.language == candidate.language and _stated(kind, c)]
    return all(met(candidate) >= met(rival) for rival in rivals)


def _other_months(part: RankedPart, candidate: Candidate) -> bool:
    """Whether the part asks about months the sentence's months leave out ("en décembre" against
    "du 1er avril au 31 octobre")."""
    asked, named = months_covered(part.part), months_covered(f"{candidate.label} {candidate.text}")
    return bool(asked and named and not asked & named)
