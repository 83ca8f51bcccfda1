"""What the offline model answers once it has read the evidence: gap analysis, critique, synthesis."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from babel import Locale
from babel.lists import format_list

from agents.answer import sentences
from agents.answer.language import read_language, reply_language
from agents.answer.model import AnswerKind
from agents.graph.gathered import Gathered
from agents.offline import reader
from agents.offline.answerability import answerability
from agents.offline.coverage import StatedFacts, covered
from agents.offline.reading import slots
from agents.offline.reading.asked import answered_by_calendar, calendar_settled
from agents.offline.reading.question_parts import concepts_and_words, question_parts
from agents.tools.travel.gazetteer import Gazetteer, Place
from rag.answer_types import type_match
from rag.embeddings import PassageVectorCache
from rag.lexicon.calendar_names import weekdays_named
from rag.lexicon.concepts import is_estate_place
from rag.lexicon.languages import SUPPORTED_LANGUAGES, language_named_in
from rag.lexicon.phrases import phrases, replies
from rag.lexicon.terms import TermMatcher
from rag.passage import OFFICIAL_COLLECTION, VISIT_FACTS_COLLECTION

CALENDAR_TOOL, TRAVEL_TOOL = "get_visit_calendar", "get_travel_info"
STATING = (OFFICIAL_COLLECTION, VISIT_FACTS_COLLECTION)  # quoted on their own, never as free text
RELATED = 2


@dataclass
class Reading:
    """What was gathered, read: the question's parts matched against the evidence, the tools'
    summaries, and what something states outright (an official answer, a visit fact), cited, to
    head the answer."""

    gathered: Gathered
    kb_language: str
    parts: list[reader.PartReading]
    summaries: list[str]
    pool: list[sentences.Candidate]
    stated: list[str] = field(default_factory=list)
    asked_parts: int = 0  # the question's parts, before those the tools answer are set aside
    facts_cover: bool = True  # the visit facts account for all a part asks: in bold, first

    @classmethod
    def of(
        cls,
        gathered: Gathered,
        kb_language: str,
        embed_queries: reader.Embed | None,
        vectors: PassageVectorCache | None,
        searched: bool = False,
        checks_a_tool: bool = False,
    ) -> Reading:
        """``gathered`` read; ``searched``: the knowledge base was asked besides the tools, so its
        parts are read even when a tool answered; ``checks_a_tool``: it was asked only beside a tool
        (``KnowledgeBaseSlots.beside_tool``), so when the tool answered (not a past day, say), the
        parts the evidence does not answer are left out (the tool answered them), not said missing."""
        asked_in = reply_language(gathered.question, gathered.language)
        parts = asked = question_parts(gathered.question, asked_in)
        calendar = [r for r in gathered.tool_results if r.tool == CALENDAR_TOOL]
        summaries = [s for r in gathered.tool_results if r.tool != CALENDAR_TOOL and (s := r.summary.strip())]
        free_text = [p for p in gathered.evidence if p.collection not in STATING]
        official = any(p.collection == OFFICIAL_COLLECTION for p in gathered.evidence)
        facts_cover = official or _facts_cover(gathered, asked_in)
        stated = stated_lines(gathered, facts_cover)
        if official:
            parts = []  # an official answer answers the question, before the visit facts and the rest
        elif facts_cover and calendar_settled(calendar):  # its lines answer those parts: no quote beside
            parts = [part for part in parts if not answered_by_calendar(part, asked_in)]
        if (summaries or (stated and facts_cover)) and not searched:
            parts = []  # the tools answer it all (the question holds only the knowledge base's parts)
        pool = sentences.candidates(free_text, kb_language)
        readings = reader.read_parts(parts, asked_in, pool, embed_queries, vectors) if parts else []
        journey = any(r.tool == TRAVEL_TOOL for r in gathered.tool_results)  # a route was looked up
        for part in readings:  # "the Louvre's hours": only a sentence naming the Louvre (and an hour)
            places = other_places(part.part, asked_in, journey)  # once per part, not per sentence
            sites = [TermMatcher([site]) for site in slots.named_sites(part.part, asked_in)]  # "Museu Rodin"
            if places or sites:
                part.ranked = [
                    (score, c) for score, c in part.ranked
                    if all(Gazetteer.mentions(f"{c.label} {c.text}", place) for place in places)
                    and all(site.find(f"{c.label} {c.text}") for site in sites)
                    and (not part.kinds or type_match(part.kinds, c.text))
                ]  # fmt: skip
            part.answerable = answerability(part, pool, asked_in)
        told = any(
            r.status == "ok" and r.summary.strip() for r in gathered.tool_results if r.tool != CALENDAR_TOOL
        )
        if checks_a_tool and told:
            readings = [part for part in readings if part.answered]
        return cls(gathered, kb_language, readings, summaries, pool, stated, len(asked), facts_cover)


def opening(gathered: Gathered) -> str:
    """What the answer starts with, known before the evidence's sentences are read: the stated lines
    that head it (an official answer, visit facts accounting for the question), after the note on a
    language the assistant does not speak; "" when nothing is sure yet. Streamed first."""
    asked_in = reply_language(gathered.question, gathered.language)
    official = any(p.collection == OFFICIAL_COLLECTION for p in gathered.evidence)
    stated = stated_lines(gathered) if official or _facts_cover(gathered, asked_in) else []
    head = "  \n".join(stated)  # as _synthesis heads the answer with them
    if read_language(gathered.question, gathered.language or None).unsupported:
        return f"{unsupported_note()}\n\n{head}" if head else f"{unsupported_note()}\n\n"
    return head


def _facts_cover(gathered: Gathered, language: str) -> bool:
    """Whether the visit facts' lines of the turn account for every part of the question that asks
    them something (``agents.offline.coverage``)."""
    items = [
        item
        for result in gathered.tool_results
        if result.tool == CALENDAR_TOOL and result.status == "ok" and result.summary.strip()
        for item in [*result.result.get("days", []), *result.result.get("facts", [])]
    ]
    if not items:
        return False
    answered = {
        a for r in gathered.tool_results if r.tool == CALENDAR_TOOL for a in r.result.get("aspects") or []
    }
    question = gathered.whole_question or gathered.question
    facts = StatedFacts(
        places=frozenset(item.get("place", "") for item in items),
        aspects=frozenset(answered),
        for_the_visitor=any(item.get("visitor") for item in items),
        on_a_day=any(r.result.get("days") for r in gathered.tool_results if r.tool == CALENDAR_TOOL),
        weekdays=_answering_weekdays(items, answered, question),
    )
    return covered(question, language, facts)


def _answering_weekdays(items: list[dict[str, Any]], asked: set[str], question: str) -> frozenset[int]:
    """The weekdays named by the facts' lines on no day that answer the question: those answering
    what was ``asked``, and those naming a weekday ``question`` names (``_for_the_weekday``)."""
    weekday = _for_the_weekday(items, question)
    return frozenset(
        day
        for item in items
        if "text" in item and (item in weekday or _answers_asked(item, asked))
        for day in weekdays_named(item["text"])
    )


def _for_the_weekday(items: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    """The facts' lines on no day naming a weekday the question names ("closed every Monday" for
    "open on Mondays?"): they, not the season's hours, answer it."""
    named = weekdays_named(question)
    return [i for i in items if "text" in i and named & weekdays_named(i.get("text") or "")] if named else []


def stated_lines(gathered: Gathered, facts_cover: bool = True) -> list[str]:
    """The lines that head the answer, with their citation: the official answers matched, else the
    visit facts' lines (an official answer valid that day overrides them); in bold, what answers the
    question, when the facts account for all a part of it asks (``facts_cover``), and first. A line
    on no day naming the weekday the question names is what answers it (the weekly closing for "open
    on Mondays?"), not the season's hours."""
    numbers = {p.chunk_id: p.number for p in gathered.evidence if p.number is not None}
    official = [p for p in gathered.evidence if p.collection == OFFICIAL_COLLECTION and p.number is not None]
    if official:
        return [f"**{' '.join(p.text.split())}** [{p.number}]" for p in official[:1]]
    lines = []
    for result in gathered.tool_results:
        if result.tool != CALENDAR_TOOL or result.status != "ok" or not result.summary.strip():
            continue
        asked = set(result.result.get("aspects") or [])
        items = [*result.result.get("days", []), *result.result.get("facts", [])]
        weekday = _for_the_weekday(items, gathered.whole_question or gathered.question)
        for item in items:
            text = item.get("line") or item.get("text") or ""
            cited = "".join(f" [{numbers[c]}]" for c in item.get("cites", []) if c in numbers)
            if text and item.get("open") != "unknown":
                bold = facts_cover and (item in weekday if weekday else _answers_asked(item, asked))
                lines.append((not bold, f"**{text}**{cited}" if bold else f"{text}{cited}"))
    return [line for _, line in sorted(lines, key=lambda pair: pair[0])]  # the bold ones first


def _answers_asked(item: dict[str, Any], asked: set[str]) -> bool:
    """Whether a line of the visit facts answers what was asked, and so heads the answer in bold: a
    day's line always; a fact on no day when it answers an aspect asked (a closed day answers
    "closed"), not when it is shown beside them (the weekly closing beside the hours asked)."""
    answers = item.get("answers")
    return answers is None or not asked or answers in asked or (answers == "holidays" and "closed" in asked)


def other_places(part: str, language: str, journey: bool = False) -> list[Place]:
    """Known places ``part`` names besides Versailles and Paris as a whole, and, in a turn asking a
    route (``journey``), its origin ("du" marks one in "depuis ou du Louvre", not in "les horaires
    du Louvre"); a name that is also all of the name of a place of the estate ("Opéra" is the
    Opéra royal as well as a district of Paris) is read as the estate's."""
    origin = slots.marked_origin_in(part, language) if journey else None
    return [
        m.place for m in slots.places_in(part)
        if m.far and m.spelling != origin and not is_estate_place(m.spelling, language)
    ]  # fmt: skip


def gap_analysis(reading: Reading) -> dict[str, Any]:
    """Arguments of a GapAnalysis call: the parts not answered well yet, a keyword query for each."""
    asked_in = reply_language(reading.gathered.question, reading.gathered.language)
    missing = [p.part for p in reading.parts if not p.settled]
    return {
        "answered": [p.part for p in reading.parts if p.settled],
        "missing": missing,
        "follow_up_queries": [follow_up_query(part, asked_in, reading.kb_language) for part in missing],
    }


def follow_up_query(part: str, language: str, target: str) -> str:
    """The part's glossary concepts in the knowledge base's language, then its other topic words."""
    concepts, words = concepts_and_words(part, language)
    terms = [concept.terms[target][0] for concept in concepts if concept.terms.get(target)]
    return " ".join(dict.fromkeys([*terms, *words])) or part


def critique(reading: Reading) -> dict[str, Any]:
    """Arguments of a Critique call."""
    if not reading.parts and not reading.summaries:
        return {"sufficient": False, "reason": "The question has no part the evidence could answer."}
    if missing := [p.part for p in reading.parts if not p.settled]:
        return {"sufficient": False, "reason": f"The evidence does not answer: {'; '.join(missing)}."}
    return {"sufficient": True, "reason": "The evidence answers every part of the question."}


def answer_kind(reading: Reading) -> AnswerKind:
    """ "answered" when every part is (or a tool answered a question without one), "partial" when
    some are, "not_found" when the knowledge base answers none and no tool answered."""
    answered = sum(part.answered for part in reading.parts)
    told = bool(reading.summaries or (reading.stated and reading.facts_cover))
    if (answered == len(reading.parts) and (answered or told)) or stated_answers_it(reading):
        return "answered"
    return "partial" if answered or told else "not_found"


def stated_answers_it(reading: Reading) -> bool:
    """Whether the stated lines (visit facts the turn asked for) answer the question: it has one
    part, which they were asked for; the knowledge base's sentences on it are quoted when it has
    them, and no line says it does not."""
    return reading.facts_cover and bool(reading.stated) and len(reading.parts) == reading.asked_parts == 1


def related(reading: Reading) -> list[sentences.Candidate]:
    """For an answer the knowledge base does not give: the closest sentences (one per passage, at
    most ``RELATED``), offered as related, not as the answer."""
    if answer_kind(reading) != "not_found":
        return []
    ranked = sorted((pair for part in reading.parts for pair in part.ranked), key=lambda pair: -pair[0])
    by_passage = {c.number: c for _, c in reversed(ranked)}  # each passage's best sentence
    return sorted(by_passage.values(), key=lambda c: -max(s for s, o in ranked if o is c))[:RELATED]


def synthesis(reading: Reading) -> str:
    """The answer, after one English sentence naming the nine languages when the question was in
    a language the assistant does not speak."""
    gathered = reading.gathered
    answer = _synthesis(reading)
    unsupported = read_language(gathered.question, gathered.language or None).unsupported
    return f"{unsupported_note()}\n\n{answer}" if unsupported else answer


def unsupported_note() -> str:
    """One sentence, in English, naming the languages the assistant answers in."""
    names = [Locale("en").languages[code] for code in SUPPORTED_LANGUAGES]
    return replies("en")["unsupported"].format(languages=format_list(names, locale="en"))


def _synthesis(reading: Reading) -> str:
    """The tools' summaries, each part's key value, the quoted sentences; or, when the knowledge
    base does not answer, that plain sentence and the closest passages as related."""
    language = reading.gathered.language or "en"
    words, url = replies(language), phrases()["official_website"]
    answered = [part for part in reading.parts if part.answered]
    beside = ["  \n".join(reading.stated)] if reading.stated and not reading.facts_cover else []
    if answer_kind(reading) == "not_found":
        nearby = "\n".join(f"- {_quote(c)} [{c.number}]" for c in related(reading))
        closest = words["related"].format(note=_quoted_note(related(reading), language))
        return "\n\n".join(
            [words["abstain"].format(url=url), *([closest, nearby] if nearby else []), *beside]
        )
    sections = ["  \n".join(reading.stated)] if reading.stated and reading.facts_cover else []
    if reading.summaries:
        sections.append("\n".join([words["tools"], *(f"- “{s}”" for s in reading.summaries)]))
    if answered:
        quoted = list(
            dict.fromkeys(c for part in answered for c in _with_follower(part.best(), reading.pool))
        )
        # Paragraphs, so Markdown keeps the intro and the quotes on their own lines.
        intro = words["intro"].format(note=_quoted_note(quoted, language))
        quotes = "\n".join(f"- {_quote(c)} [{c.number}]" for c in quoted)
        sections.append("\n\n".join(part for part in (intro, quotes) if part))
    missing = [p.part for p in reading.parts if not p.answered and not stated_answers_it(reading)]
    if missing:
        sections.append(words["partial"].format(aspects=" ; ".join(missing), url=url))
    return "\n\n".join([*sections, *beside])  # facts that do not answer it all follow the evidence


def _with_follower(
    best: list[sentences.Candidate], pool: list[sentences.Candidate]
) -> list[sentences.Candidate]:
    after = sentences.follower(best[0], pool) if best else None
    return [best[0], after, *best[1:]] if after else best


def _quote(candidate: sentences.Candidate) -> str:
    """The sentence in quotation marks with its context: its label (a list item, a table row), else
    the passage's title and headings, so that a value is never quoted alone ("Palace ticket — 21 €")."""
    context = candidate.label or candidate.heading
    return f"“*{context}* — {candidate.text}”" if context else f"“{candidate.text}”"


def _quoted_note(quoted: list[sentences.Candidate], language: str) -> str:
    codes = dict.fromkeys(c.language for c in quoted)
    others = [language_named_in(code, language) for code in codes if code != language]
    return f" ({replies(language)['quoted'].format(language=', '.join(others))})" if others else ""
