"""Agent evaluation: tool choice, reply language, citations, abstention, facts, calls, latency."""

from __future__ import annotations

import re
import statistics
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from agents.answer.citations import CITATION_GROUP, cited_numbers
from agents.answer.value_extract import extract_values, text_readings
from agents.evaluation.ask_json import ask_json
from agents.events import ErrorOccurred, FinalAnswer
from rag.evaluate import found_aspects
from rag.language import detect_language
from rag.lexicon.calendar_names import weekdays_named

_HEADLINE = re.compile(r"^\*\*([^*\n]+)\*\*(.*)$", re.MULTILINE)  # a line that opens in bold
# A curly quotation runs to the last closing mark of its line: quoted passages quote titles in turn.
_QUOTED = re.compile(r"«[^»]*»|“[^\n]*”|\"[^\"]*\"")
Ask = Callable[[str, str], FinalAnswer | ErrorOccurred]


def own_words(answer: str) -> str:
    """The answer without quoted passages and citation marks: the words the agent wrote itself."""
    return CITATION_GROUP.sub(" ", _QUOTED.sub(" ", answer))


def answer_language(answer: str) -> str:
    """The language of the words the agent wrote itself (quotes and citation marks left out)."""
    return detect_language(own_words(answer) or answer)


def tools_match(called: Iterable[str], expected: Iterable[str], forbidden: Iterable[str] = ()) -> bool:
    """Whether every expected tool was called and no forbidden one."""
    names = set(called)
    return set(expected) <= names and not names & set(forbidden)


def declined(result: FinalAnswer) -> bool:
    """Whether the answer says the knowledge base does not answer: abstained, or an answer of kind
    "not_found"."""
    return result.abstained or result.kind == "not_found"


def rate(rows: Iterable[dict[str, Any]], key: str) -> float | None:
    """Share of the rows holding ``key`` whose value is true; None when no row holds it."""
    values = [row[key] for row in rows if key in row]
    return round(sum(values) / len(values), 3) if values else None


def headline_lines(answer: str) -> list[str]:
    """The bold headline lines of an answer ("**Palace ticket: 21 €, reduced rate 13 €.** [1]"),
    without their citations."""
    return [CITATION_GROUP.sub("", bold + rest).strip() for bold, rest in _HEADLINE.findall(answer)]


def headline_right(lines: list[str], aspects: list[list[str]], language: str) -> bool:
    """Whether every headline line holds one of the question's answer aspects: one of its strings
    found in the line as the eval README normalises text, or every value of one of them stated in
    the line in the visitor's way ("de 9h à 17h" in "09:00 – 17:00", read by the value check's
    ``value_extract``), or each
    weekday it names named in the line ("mardis, jeudis" in "martes, jueves")."""
    return bool(lines) and all(
        any(
            found_aspects([[alternative]], [line])[0]
            or states_values(alternative, line)
            or (bool(weekdays_named(alternative)) and weekdays_named(alternative) <= weekdays_named(line))
            for aspect in aspects
            for alternative in aspect
        )
        for line in lines
    )


def states_values(expected: str, shown: str) -> bool:
    """Whether ``shown`` states every value ``expected`` states, in any writing ("3 mai 1802" in
    "May 3, 1802"); counts alone do not count (any number would pass for one)."""
    values = [v for v in extract_values(expected) if v.kind != "count"]
    return bool(values) and all(v.readings & text_readings(shown) for v in values)


def score_question(question: dict[str, Any], result: FinalAnswer | ErrorOccurred) -> dict[str, Any]:
    """Per-question scores; an error counts as a failure on every criterion."""
    row: dict[str, Any] = {"id": question["id"], "lang": question.get("lang"), "type": question.get("type")}
    if isinstance(result, ErrorOccurred):
        return {**row, "error": result.message}
    expected = set(question.get("expected_tools", []))
    language = answer_language(result.answer)
    row.update(ask_json(result))
    row["tool_choice_ok"] = set(result.tools) == expected
    row["language_ok"] = language == question.get("lang")
    row["answer_language"] = language
    in_answer = set(cited_numbers(result.answer))
    row["citations_valid"] = in_answer == set(result.citations)
    if question.get("type") == "out_of_scope":
        row["abstention_ok"] = declined(result)
    if lines := headline_lines(result.answer):
        row["headline_ok"] = headline_right(lines, question.get("answers") or [], question.get("lang", ""))
    if question.get("answers") and question.get("type") in {"fact", "multi", "date"}:
        row["facts_ok"] = all(found_aspects(question["answers"], [result.answer]))
        row["facts_ok_values"] = holds_facts(question["answers"], result.answer)
    return row


def holds_facts(aspects: list[list[str]], answer: str) -> bool:
    """Whether ``answer`` holds every aspect, as text, by stating its values in another writing ("de
    9h à 17h" in "09:00–17:00"), or by naming its weekdays in another language ("mardis et
    jeudis" in "Dienstag und Donnerstag"): a visit fact is written the visitor's way, not the corpus's."""
    return all(
        found_aspects([aspect], [answer])[0]
        or any(
            states_values(alternative, answer)
            or (bool(weekdays_named(alternative)) and weekdays_named(alternative) <= weekdays_named(answer))
            for alternative in aspect
        )
        for aspect in aspects
    )


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Rates and latencies over all questions (French fact questions reported apart)."""
    answered = [r for r in rows if "error" not in r]
    facts = [r for r in rows if r.get("type") == "fact"]
    fr_facts = [r for r in facts if r.get("lang") == "fr"]
    return {
        "questions": len(rows),
        "errors": len(rows) - len(answered),
        "tool_choice": rate(rows, "tool_choice_ok"),
        "language": rate(rows, "language_ok"),
        "citation_validity": rate(rows, "citations_valid"),
        "abstention_out_of_scope": rate(rows, "abstention_ok"),
        "facts_in_answer": rate(rows, "facts_ok"),
        "facts_in_answer_fr_fact": rate(fr_facts, "facts_ok"),
        "facts_in_answer_fact": rate(facts, "facts_ok"),
        "facts_in_answer_multi": rate([r for r in rows if r.get("type") == "multi"], "facts_ok"),
        "facts_in_answer_fact_values": rate(facts, "facts_ok_values"),
        "fact_questions_abstained": sum(1 for r in facts if r.get("abstained")),
        "facts_in_answer_date": rate([r for r in rows if r.get("type") == "date"], "facts_ok_values"),
        "headline_precision": rate(rows, "headline_ok"),
        "headlines_shown": sum(1 for r in rows if "headline_ok" in r),
        "headlines_right": sum(1 for r in rows if r.get("headline_ok")),
        "headlines_out_of_scope": sum(
            1 for r in rows if "headline_ok" in r and r.get("type") == "out_of_scope"
        ),
        "model_calls_mean": round(statistics.mean(r["model_calls"] for r in answered), 2)
        if answered
        else None,
        "seconds_p50": round(statistics.median(r["seconds"] for r in answered), 3) if answered else None,
        "graph_overhead_ms_p50": round(statistics.median(r["graph_overhead_ms"] for r in answered), 1)
        if answered
        else None,
    }


def breakdown(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Per value of ``key`` ("type" or "lang"): questions, facts in answer, abstention, language."""
    table: dict[str, dict[str, Any]] = {}
    for value in sorted({str(r.get(key)) for r in rows}):
        subset = [r for r in rows if str(r.get(key)) == value]
        figures = summarise(subset)
        table[value] = {
            "questions": len(subset),
            **{
                name: figures[name]
                for name in ("facts_in_answer", "abstention_out_of_scope", "tool_choice", "language")
            },
        }
    return table


def evaluate_each(questions: Iterable[dict[str, Any]], ask: Ask) -> Iterator[dict[str, Any]]:
    """Ask every question in its own fresh thread and score it, one row as soon as it is answered:
    the thread ids are new for every run, so no earlier run's history (or provider) leaks in."""
    run = uuid.uuid4().hex[:8]
    for question in questions:
        yield score_question(question, ask(question["question"], f"eval-{run}-{question['id']}"))


def evaluate(questions: list[dict[str, Any]], ask: Ask) -> list[dict[str, Any]]:
    """Ask every question in its own thread and score it."""
    return list(evaluate_each(questions, ask))
