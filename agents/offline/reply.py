"""What the offline model answers once it has read the evidence: gap analysis, critique, synthesis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel import Locale
from babel.lists import format_list

from agents.brief import Brief
from agents.language import reply_language
from agents.offline import reader
from agents.offline.phrases import phrases, replies
from agents.reading import slots
from agents.tools.gazetteer import Gazetteer, Place
from rag.answer_types import type_match, values_of
from rag.embeddings import PassageVectorCache
from rag.lexicon.dates import rewrite_passage_date
from rag.lexicon.languages import SUPPORTED_LANGUAGES


@dataclass
class Reading:
    """A brief read: the question's parts matched against the evidence, and the tools' summaries."""

    brief: Brief
    parts: list[reader.PartReading]
    summaries: list[str]
    pool: list[reader.Candidate]

    @classmethod
    def of(
        cls, brief: Brief, embed_queries: reader.Embed | None, vectors: PassageVectorCache | None
    ) -> Reading:
        asked_in = reply_language(brief.question, brief.language)
        parts = reader.question_parts(brief.question, asked_in)
        summaries = [s for r in brief.tool_results if (s := r.summary.strip())]
        if summaries and not (brief.request and "knowledge_base" in brief.request.topics):
            parts = []  # the tools answer it all (the question holds only the knowledge base's parts)
        pool = reader.candidates(brief.evidence, brief.kb_language)
        readings = reader.read_parts(parts, asked_in, pool, embed_queries, vectors) if parts else []
        for part in readings:  # "the Louvre's hours": only a sentence naming the Louvre (and an hour)
            if places := other_places(part.part, asked_in):  # found once per part, not per sentence
                part.ranked = [
                    (score, c) for score, c in part.ranked
                    if all(Gazetteer.mentions(f"{c.label} {c.text}", place) for place in places)
                    and (not part.kinds or type_match(part.kinds, c.text))
                ]  # fmt: skip
        return cls(brief, readings, summaries, pool)


def other_places(part: str, language: str) -> list[Place]:
    """Known places ``part`` names besides Versailles, Paris as a whole and a journey's origin."""
    origin = slots.marked_origin_in(part, language)
    return [m.place for m in slots.places_in(part) if m.far and m.spelling != origin]


def gap_analysis(reading: Reading) -> dict[str, Any]:
    """Arguments of a GapAnalysis call: the parts not answered well yet, a keyword query for each."""
    asked_in = reply_language(reading.brief.question, reading.brief.language)
    missing = [p.part for p in reading.parts if not p.settled]
    return {
        "answered": [p.part for p in reading.parts if p.settled],
        "missing": missing,
        "follow_up_queries": [follow_up_query(part, asked_in, reading.brief.kb_language) for part in missing],
    }


def follow_up_query(part: str, language: str, target: str) -> str:
    """The part's glossary concepts in the knowledge base's language, then its other topic words."""
    concepts, words = reader.concepts_and_words(part, language)
    terms = [concept.terms[target][0] for concept in concepts if concept.terms.get(target)]
    return " ".join(dict.fromkeys([*terms, *words])) or part


def critique(reading: Reading) -> dict[str, Any]:
    """Arguments of a Critique call."""
    if not reading.parts and not reading.summaries:
        return {"sufficient": False, "reason": "The question has no part the evidence could answer."}
    if missing := [p.part for p in reading.parts if not p.settled]:
        return {"sufficient": False, "reason": f"The evidence does not answer: {'; '.join(missing)}."}
    return {"sufficient": True, "reason": "The evidence answers every part of the question."}


def synthesis(reading: Reading) -> str:
    """The answer, after one English sentence naming the nine languages when the question was in
    a language the assistant does not speak."""
    request = reading.brief.request
    answer = _synthesis(reading)
    return f"{unsupported_note()}\n\n{answer}" if request and request.unsupported_language else answer


def unsupported_note() -> str:
    """One sentence, in English, naming the languages the assistant answers in."""
    names = [Locale("en").languages[code] for code in SUPPORTED_LANGUAGES]
    return replies("en")["unsupported"].format(languages=format_list(names, locale="en"))


def _synthesis(reading: Reading) -> str:
    """The tools' summaries, each part's key value, the quoted sentences; or an abstention."""
    language = reading.brief.language or "en"
    words, url = replies(language), phrases()["official_website"]
    answered = [part for part in reading.parts if part.answered]
    if not answered and not reading.summaries:
        return words["abstain"].format(url=url)
    sections = (
        ["\n".join([words["tools"], *(f"- “{s}”" for s in reading.summaries)])] if reading.summaries else []
    )
    if answered:
        quoted = list(
            dict.fromkeys(c for part in answered for c in _with_follower(part.best(), reading.pool))
        )
        # Paragraphs, so Markdown keeps the intro, the key facts and the quotes on their own lines.
        facts = "  \n".join(_key_facts(answered, language))
        intro = words["intro"].format(note=_quoted_note(quoted, language))
        quotes = "\n".join(f"- {_quote(c)} [{c.number}]" for c in quoted)
        sections.append("\n\n".join(part for part in (intro, facts, quotes) if part))
    if missing := [p.part for p in reading.parts if not p.answered]:
        sections.append(words["partial"].format(aspects=" ; ".join(missing), url=url))
    return "\n\n".join(sections)


def _with_follower(best: list[reader.Candidate], pool: list[reader.Candidate]) -> list[reader.Candidate]:
    after = reader.follower(best[0], pool) if best else None
    return [best[0], after, *best[1:]] if after else best


def _key_facts(parts: list[reader.PartReading], language: str) -> list[str]:
    """Per part asking for a kind of value: the values of its best sentence holding one, labelled in
    the visitor's language ("**Price**: 32 € · 24 € [2]"), readable whatever the quote's language;
    dates are written the visitor's way ("8 mars 1876" -> "March 8, 1876"), the quote keeps the source's."""
    labels = phrases()["fact_labels"].get(language, phrases()["fact_labels"]["en"])
    lines: list[str] = []
    for part in parts:
        for candidate in part.best():
            kind, values = values_of(part.kinds, candidate.text)
            if kind == "date":
                values = [rewrite_passage_date(value, language) for value in values]
            if values:
                line = f"**{labels.get(kind, kind)}**: {' · '.join(values)} [{candidate.number}]"
                lines += [line] if line not in lines else []
                break
    return lines


def _quote(candidate: reader.Candidate) -> str:
    """The sentence in quotation marks, its label (a heading, a list item) quoted with it."""
    return f"“*{candidate.label}* — {candidate.text}”" if candidate.label else f"“{candidate.text}”"


def _quoted_note(quoted: list[reader.Candidate], language: str) -> str:
    names = phrases()["source_language_names"].get(language, phrases()["source_language_names"]["en"])
    others = [names.get(code, code) for code in dict.fromkeys(c.language for c in quoted) if code != language]
    return f" ({replies(language)['quoted'].format(language=', '.join(others))})" if others else ""
