"""From the model's text to the typed answer (pure): citations checked, then numbered per source."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agents.answer.citations import check_citations, cited_numbers
from agents.answer.model import Answer, AnswerKind, Citation
from agents.answer.numbering import SourceNumbering
from rag.passage import Passage


@dataclass(frozen=True)
class ComposedAnswer:
    """The answer, and the evidence numbers it cites (the operator's trace shows them)."""

    answer: Answer
    cited: list[int]


def compose_answer(
    text: str, evidence: Sequence[Passage], kind: AnswerKind = "answered", streamed: str = ""
) -> ComposedAnswer:
    """Drop citations of unknown passages, renumber the rest per source in reading order, and
    attach each source's cited passages. Numbers are given in the order of ``streamed`` first (the
    text the visitor saw while it was written), so a sentence removed since changes no number."""
    check = check_citations(text, {p.number for p in evidence if p.number is not None})
    numbering = SourceNumbering(evidence)
    numbering.rewrite(streamed)
    shown = numbering.rewrite(check.text)
    citations: dict[int, Citation] = {}
    for evidence_number in check.cited:
        passage = numbering.passages[evidence_number]
        number = numbering.numbers[evidence_number]
        citation = citations.setdefault(
            number, Citation(number=number, title=passage.title, source=passage.source, url=passage.url)
        )
        citation.passages.append(passage)
    in_text = cited_numbers(shown)
    answer = Answer(
        text=shown,
        kind=kind,
        citations=[citations[n] for n in in_text if n in citations],
        removed_citations=check.removed,
    )
    return ComposedAnswer(answer=answer, cited=check.cited)
