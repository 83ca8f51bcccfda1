"""What the offline model answers once it has read the evidence: gap analysis, critique, synthesis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.brief import Brief
from agents.language import reply_language
from agents.offline import router
from agents.offline.phrases import fold, phrases, replies
from agents.offline.reader import (
    Candidate,
    Embed,
    PartReading,
    SentenceVectors,
    candidates,
    content_words,
    follower,
    key_values,
    question_parts,
    read_parts,
)
from rag.answer_types import type_match
from rag.query_expansion import load_glossary


@dataclass
class Reading:
    """A brief read: the question's parts matched against the evidence, and the tools' summaries."""

    brief: Brief
    parts: list[PartReading]
    summaries: list[str]
    pool: list[Candidate]

    @classmethod
    def of(cls, brief: Brief, embed_queries: Embed | None, vectors: SentenceVectors | None) -> Reading:
        asked_in = reply_language(brief.question, brief.language)
        summaries = [
            str(r["summary"]).strip() for r in brief.tool_results if str(r.get("summary", "")).strip()
        ]
        parts = question_parts(brief.question, asked_in)
        if summaries:  # the tools answer the weather and travel parts; the rest names a visit topic
            parts = [p for p in parts if router.names_visit_topic(p, asked_in)]
        pool = candidates(brief.evidence, brief.kb_language)
        readings = read_parts(parts, asked_in, pool, embed_queries, vectors) if parts else []
        for part in readings:  # "the Louvre's hours": only a sentence naming the Louvre may answer,
            if router.other_places(part.part):  # with a value of the kind asked for, if any
                part.ranked = [
                    (score, c)
                    for score, c in part.ranked
                    if router.names_places(part.part, f"{c.label} {c.text}")
                    and (not part.kinds or type_match(part.kinds, c.text))
                ]
        return cls(brief, readings, summaries, pool)

    @property
    def missing(self) -> list[PartReading]:
        return [part for part in self.parts if not part.answered]

    @property
    def unsettled(self) -> list[PartReading]:
        return [part for part in self.parts if not part.settled]


def gap_analysis(reading: Reading) -> dict[str, Any]:
    """Arguments of a GapAnalysis call: the parts not yet answered well, a keyword query for each."""
    asked_in = reply_language(reading.brief.question, reading.brief.language)
    return {
        "answered": [p.part for p in reading.parts if p.settled],
        "missing": [p.part for p in reading.unsettled],
        "follow_up_queries": [
            follow_up_query(p.part, asked_in, reading.brief.kb_language) for p in reading.unsettled
        ],
    }


def follow_up_query(part: str, language: str, target: str) -> str:
    """The part's glossary concepts in the knowledge base's language, then its other topic words."""
    glossary = load_glossary()
    hits = glossary.find(part, [language, "en"]) if glossary else []
    terms = [concept.terms[target][0] for concept, _, _ in hits if concept.terms.get(target)]
    folded = fold(part)
    outside = "".join(" " if any(a <= i < b for _, a, b in hits) else c for i, c in enumerate(folded))
    return " ".join(dict.fromkeys([*terms, *content_words(outside, language)])) or part


def critique(reading: Reading) -> dict[str, Any]:
    """Arguments of a Critique call."""
    if not reading.parts and not reading.summaries:
        return {"sufficient": False, "reason": "The question has no part the evidence could answer."}
    if missing := [p.part for p in reading.unsettled]:
        return {"sufficient": False, "reason": f"The evidence does not answer: {'; '.join(missing)}."}
    return {"sufficient": True, "reason": "The evidence answers every part of the question."}


def synthesis(reading: Reading) -> str:
    """Key values, then the quoted sentences with their citation; or an abstention."""
    language = reading.brief.language or "en"
    words = replies(language)
    url = phrases()["official_website"]
    answered = [part for part in reading.parts if part.answered]
    if not answered and not reading.summaries:
        return words["abstain"].format(url=url)
    sections = []
    if reading.summaries:
        sections.append("\n".join([words["tools"], *(f"- “{summary}”" for summary in reading.summaries)]))
    if answered:
        quoted = list(
            dict.fromkeys(c for part in answered for c in _with_follower(part.best(), reading.pool))
        )
        lines = [words["intro"].format(note=_quoted_note(quoted, language)), *_key_facts(answered, language)]
        lines += [f"- {_quote(c)} [{c.number}]" for c in quoted]
        sections.append("\n".join(lines))
    if missing := reading.missing:
        aspects = " ; ".join(p.part for p in missing)
        sections.append(words["partial"].format(aspects=aspects, url=url))
    return "\n\n".join(sections)


def _with_follower(best: list[Candidate], pool: list[Candidate]) -> list[Candidate]:
    """The best sentences, the first one followed by the sentence after it in its passage."""
    after = follower(best[0], pool) if best else None
    return [best[0], after, *best[1:]] if after else best


def _key_facts(parts: list[PartReading], language: str) -> list[str]:
    """One line per part asking for a kind of value: the values of its best sentence holding one."""
    labels = phrases()["fact_labels"].get(language, phrases()["fact_labels"]["en"])
    lines: list[str] = []
    for part in parts:
        for candidate in part.best():
            if values := key_values(part.kinds, candidate.text):
                label = labels.get(values[0][0], values[0][0])
                line = f"**{label}**: {' · '.join(value for _, value in values)} [{candidate.number}]"
                lines += [line] if line not in lines else []
                break
    return lines


def _quote(candidate: Candidate) -> str:
    """The sentence in quotation marks, with its label (a heading, a list item) quoted too."""
    return f"“*{candidate.label}* — {candidate.text}”" if candidate.label else f"“{candidate.text}”"


def _quoted_note(quoted: list[Candidate], language: str) -> str:
    tables = phrases()["source_language_names"]
    names = tables.get(language, tables["en"])
    others = [names.get(code, code) for code in dict.fromkeys(c.language for c in quoted) if code != language]
    return f" ({replies(language)['quoted'].format(language=', '.join(others))})" if others else ""
