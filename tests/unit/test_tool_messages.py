"""Tool messages are read from their artifact, the typed result the tool returned, never from the
JSON text the model reads."""

from __future__ import annotations

from langchain_core.messages import ToolMessage

from agents.graph.evidence import knowledge_base_result, tool_outcome
from agents.tools.knowledge_base import KnowledgeBaseResult
from agents.tools.results import ToolOutcome
from agents.visit_calendar.tool import CalendarResult
from rag.passage import Passage

EXCERPT = Passage(chunk_id="facts#1", text="The park opens at 7 am.", title="Park", source="park.md")


def _message(name: str, content: str, artifact: object = None) -> ToolMessage:
    return ToolMessage(content, name=name, tool_call_id="c1", artifact=artifact)


def test_a_search_is_read_from_its_artifact_and_its_checkpointed_copy() -> None:
    result = KnowledgeBaseResult(status="ok", query="park hours", hits=[EXCERPT])

    typed = knowledge_base_result(_message("search_knowledge_base", "ignored", result))
    stored = knowledge_base_result(_message("search_knowledge_base", "ignored", result.model_dump()))

    assert typed is result
    assert stored == result and isinstance(stored.hits[0], Passage)


def test_a_json_text_without_an_artifact_is_not_read() -> None:
    text = KnowledgeBaseResult(status="ok", query="park hours", hits=[EXCERPT]).model_dump_json()

    assert knowledge_base_result(_message("search_knowledge_base", text)) is None
    assert tool_outcome(_message("get_weather", '{"status": "ok"}'), {}).status == "error"


def test_a_calendar_result_keeps_its_cited_excerpts_typed_beside_the_record() -> None:
    result = CalendarResult(
        status="ok", source="calendar", summary="Park: 7:00-20:30", date_text="", place_text="park",
        passages=[EXCERPT],
    )  # fmt: skip

    outcome = tool_outcome(_message("get_visit_calendar", result.to_json(), result), {"place": "park"})

    assert outcome.passages == [EXCERPT]
    assert "passages" not in outcome.result and outcome.result["summary"] == "Park: 7:00-20:30"
    assert outcome.for_model()["args"] == {"place": "park"}


def test_an_outcome_stored_with_its_passages_inside_the_result_reads_them_typed() -> None:
    stored = {"tool": "get_visit_calendar", "result": {"status": "ok", "passages": [EXCERPT.model_dump()]}}

    outcome = ToolOutcome.model_validate(stored)

    assert outcome.passages == [EXCERPT] and outcome.result == {"status": "ok"}


def test_a_failed_tool_becomes_an_error_with_its_text() -> None:
    outcome = tool_outcome(_message("get_travel_info", "Error: the service is down."), {"origin": "Paris"})

    assert (outcome.status, outcome.summary) == ("error", "Error: the service is down.")
