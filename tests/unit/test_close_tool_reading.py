"""A tool read by a narrow margin over the knowledge base is asked beside it, never instead of it.

The topic scores are given (a stand-in for the intent index, which reads them with the embedder), so
the test isolates the rule in ``read_turn``: on the development sets, a weather or travel reading that
beat the knowledge base by less than ``TOOL_CLEAR_MARGIN`` was wrong for every question but one that
asked the knowledge base too ("can we rent an electric cart on <day>?" read as weather).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from agents.offline.reading.intent import TOOL_CLEAR_MARGIN, TOOL_FLOOR, TOOL_MARGIN, TopicScores
from agents.offline.reading.read import read_turn
from agents.offline.router import calls_for

TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info", "get_visit_calendar"}
QUESTION = "Can we rent an electric cart on Saturday 14 March?"
NARROW = (TOOL_MARGIN + TOOL_CLEAR_MARGIN) / 2  # enough to be read as the tool's, not to be asked alone


class GivenScores:
    """An intent index whose every part reads as the scores it was given."""

    def __init__(self, knowledge_base: float, weather: float) -> None:
        self.scores = {"knowledge_base": knowledge_base, "weather": weather, "travel": 0.70}

    def score(self, texts: Sequence[str], later: Sequence[str] = ()) -> list[TopicScores]:
        return [TopicScores(dict(self.scores)) for _ in texts]

    def aspects(self, text: str) -> list[str]:
        return []


def test_the_margin_a_tool_needs_alone_is_wider_than_the_one_it_needs_to_be_read() -> None:
    close = TopicScores({"knowledge_base": 0.84, "weather": 0.84 + NARROW, "travel": 0.7})
    clear = TopicScores({"knowledge_base": 0.84, "weather": 0.84 + 2 * TOOL_CLEAR_MARGIN, "travel": 0.7})
    assert close.best == clear.best == "weather"
    assert not close.tool_alone and clear.tool_alone
    assert not TopicScores({"knowledge_base": 0.9, "weather": 0.8, "travel": 0.7}).tool_alone


def test_a_tool_read_by_a_narrow_margin_is_asked_beside_the_knowledge_base() -> None:
    kb = max(TOOL_FLOOR, 0.84)
    request = read_turn(QUESTION, None, "en", GivenScores(kb, kb + NARROW))  # type: ignore[arg-type]
    assert request.topics == ["knowledge_base", "weather"]
    assert request.knowledge_base.search == QUESTION
    called = [name for name, _ in calls_for(request, TOOLS)]
    assert "get_weather" in called and "search_knowledge_base" in called


@pytest.mark.parametrize("margin", [2 * TOOL_CLEAR_MARGIN, 3 * TOOL_CLEAR_MARGIN])
def test_a_tool_read_by_a_clear_margin_is_asked_alone(margin: float) -> None:
    kb = max(TOOL_FLOOR, 0.84)
    request = read_turn(QUESTION, None, "en", GivenScores(kb, kb + margin))  # type: ignore[arg-type]
    assert request.topics == ["weather"]
    assert [name for name, _ in calls_for(request, TOOLS)] == ["get_weather"]
