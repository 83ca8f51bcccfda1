"""When the knowledge base was searched only to check a tool's narrow reading, the answer does not
say it is missing what the tool answered; it still says so when the tool could not answer (a past
day). Read without an embedder: the sentences' words alone rank them."""

from __future__ import annotations

from agents.graph.gathered import Gathered
from agents.offline import reply
from agents.tools.results import ToolOutcome

QUESTION = "Do we need sunscreen on Saturday?"
EVIDENCE = [
    {"number": 1, "chunk_id": "c1", "title": "Shop", "source": "s", "score": 1.0,
     "text": "The bookshop sells guides and postcards in the North Wing."},
]  # fmt: skip


def reading(status: str, checks_a_tool: bool) -> reply.Reading:
    forecast = ToolOutcome(tool="get_weather", status=status, summary="Saturday: 3 to 7 °C, some rain.")
    gathered = Gathered.model_validate(
        {"question": QUESTION, "language": "en", "evidence": EVIDENCE, "tool_results": [forecast]}
    )
    return reply.Reading.of(gathered, "en", None, None, searched=True, checks_a_tool=checks_a_tool)


def test_a_part_the_evidence_does_not_answer_is_left_to_the_tool_that_answered_it() -> None:
    read = reading("ok", checks_a_tool=True)
    assert read.parts == [] and reply.answer_kind(read) == "answered"
    assert QUESTION.rstrip("?") not in reply.synthesis(read)


def test_it_is_said_missing_when_the_tool_did_not_answer_or_the_search_was_asked_for_itself() -> None:
    for read in (reading("invalid", checks_a_tool=True), reading("ok", checks_a_tool=False)):
        assert [part.answered for part in read.parts] == [False]
        assert reply.answer_kind(read) == "partial"
