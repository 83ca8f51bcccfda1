"""``ask --json``: the answer's views are laid out from the typed answer, in the documented order."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from agents.answer.model import Answer, Citation
from agents.evaluation.ask_json import ask_json
from agents.events import FinalAnswer
from rag.passage import Passage

FIELDS = [
    "answer", "language", "tools", "citations", "sources", "abstained", "kind", "model_calls", "seconds",
    "graph_overhead_ms", "offline_model", "trace", "evidence", "passage_numbers", "reply", "follow_ups",
    "input_tokens", "output_tokens", "turn_id",
]  # fmt: skip


def _final() -> FinalAnswer:
    guide = Passage(
        chunk_id="guide#2", text="The orangery is closed in winter.", title="Orangery", headings="Gardens",
        source="guides/orangery.md", url="https://example.org/orangery", number=3,
    )  # fmt: skip
    page = Passage(
        chunk_id="page#1", text="Guided tours last 90 minutes.", title="Tours",
        source="https://example.org/tours", number=1,
    )  # fmt: skip
    reply = Answer(
        text="Closed in winter [1]; tours last 90 minutes [2].",
        citations=[
            Citation(number=1, title="Orangery", source=guide.source, url=guide.url, passages=[guide]),
            Citation(number=2, title="Tours", source=page.source, passages=[page]),
        ],
    )
    return FinalAnswer(reply=reply, language="en", passage_numbers={"page#1": 1, "other#1": 2, "guide#2": 3})


def test_the_record_keeps_the_documented_fields_in_their_order() -> None:
    record = json.loads(json.dumps(ask_json(_final())))

    assert list(record) == FIELDS
    assert record["answer"] == record["reply"]["text"]
    assert (record["citations"], record["kind"], record["abstained"]) == ([1, 2], "answered", False)


def test_sources_and_evidence_are_read_from_the_citations() -> None:
    record = ask_json(_final())

    assert record["sources"] == [
        {"number": 1, "title": "Orangery", "url": "https://example.org/orangery"},  # the guide's page
        {"number": 2, "title": "Tours", "url": "https://example.org/tours"},
    ]
    assert [(e["number"], e["cited_as"], e["chunk_id"]) for e in record["evidence"]] == [
        (3, 1, "guide#2"),
        (1, 2, "page#1"),
    ]
    assert record["evidence"][0]["headings"] == "Gardens"


def test_a_view_of_the_answer_is_not_a_field_of_the_final_event() -> None:
    with pytest.raises(ValidationError):
        FinalAnswer(answer="Closed in winter.", language="en")  # type: ignore[call-arg]
