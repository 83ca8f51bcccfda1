"""The agent graph end to end: scripted model, fake knowledge base, real LangGraph wiring and memory."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.memory import InMemorySaver

from agents.graph.builder import build_graph
from agents.graph.deps import AgentDeps
from agents.graph.gathered import GatheredMessage, read_gathered
from agents.graph.schemas import Critique, GapAnalysis
from agents.graph.thread_rules import FAILED_TURN_KEY, FAILED_TURN_NOTE
from agents.tools.knowledge_base import build_knowledge_base_tool, search_knowledge_base
from rag.passage import Passage
from tests.conftest import HashingEmbedder
from tests.fakes import ScriptedChatModel, tool_call

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "agent_graph.mmd"
MAX_ROUNDS = 3


class QuerySearcher:
    """Two passages per query, their ids and text derived from the query, so evidence grows."""

    def __init__(self) -> None:
        self.languages = ["fr"]
        self.queries: list[str] = []

    def search(self, query: str, k: int = 5) -> list[Passage]:
        self.queries.append(query)
        slug = "-".join(query.casefold().split())
        url = f"https://example.org/{slug}"
        return [
            Passage(
                chunk_id=f"{slug}#{part}",
                text=f"Passage {part} sur « {query} ».",
                title=f"Page {slug}",
                source=url,
                sources=[url],
                category="visite",
                language="fr",
            )
            for part in (1, 2)
        ][:k]


@tool(response_format="content_and_artifact")
def get_weather(city: str, date: str = "") -> tuple[str, dict[str, str]]:
    """Weather forecast for a city on a date."""
    result = {"status": "ok", "city": city, "date": date, "summary": "Sunny, 24 °C"}
    return json.dumps(result), result


@tool(response_format="content_and_artifact")
def get_travel_info(origin: str) -> tuple[str, dict[str, str]]:
    """How to travel from ``origin`` to Versailles."""
    result = {"status": "ok", "origin": origin, "summary": "RER C, 40 minutes"}
    return json.dumps(result), result


@tool("get_weather")
def failing_weather(city: str, date: str = "") -> str:
    """Weather forecast for a city on a date (the service is down)."""
    raise RuntimeError("weather service unreachable")


@dataclass
class Harness:
    llm: ScriptedChatModel
    searcher: QuerySearcher
    graph: Any
    remembers: bool  # a checkpointer of the test's: a thread keeps its turns

    def ask(self, text: str, thread: str = "visitor") -> dict[str, Any]:
        """The whole state after the turn (a run returns only the graph's output), read from the
        thread; without the test's checkpointer, each question starts a thread of its own."""
        thread = thread if self.remembers else f"{thread}-{uuid.uuid4().hex}"
        config = {"configurable": {"thread_id": thread}, "recursion_limit": 25}
        self.graph.invoke({"messages": [HumanMessage(text)]}, config)
        return dict(self.graph.get_state(config).values)


def build(script: list[Any], weather: BaseTool = get_weather, checkpointer: Any = None) -> Harness:
    """The graph over a scripted model, the fake knowledge base and the weather and travel tools."""
    llm = ScriptedChatModel(script=script)
    searcher = QuerySearcher()
    deps = AgentDeps(
        llm=llm,
        tools=[build_knowledge_base_tool(searcher), weather, get_travel_info],
        search=lambda query: search_knowledge_base(searcher, query),
        embed=HashingEmbedder().embed_documents,
        max_rounds=MAX_ROUNDS,
    )
    graph = build_graph(deps, checkpointer=checkpointer or InMemorySaver())
    return Harness(llm, searcher, graph, remembers=checkpointer is not None)


def calls_to(name: str, args: dict[str, Any] | None = None, **kwargs: Any) -> AIMessage:
    """The agent's reply asking for one tool."""
    return AIMessage("", tool_calls=[tool_call(name, args, **kwargs)])


def nodes(state: dict[str, Any]) -> list[str]:
    return [step.node for step in state["trace"]]


def event(state: dict[str, Any], node: str) -> dict[str, Any]:
    return next(step for step in reversed(state["trace"]) if step.node == node).dumped()


def contents(messages: list[BaseMessage]) -> list[str]:
    return [str(message.content) for message in messages if not isinstance(message, SystemMessage)]


def mermaid() -> str:
    """The graph topology as Mermaid (no model is called to draw it)."""
    return str(build([]).graph.get_graph().draw_mermaid())


def test_fast_path_searches_once_and_skips_the_critique_model_call() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["opening hours"]),
            "The palace opens at nine [1].",
        ]
    )

    state = harness.ask("When does the palace open?")

    assert nodes(state) == ["prepare", "agent", "collect", "gap_analysis", "self_critique", "synthesize"]
    assert state["critiques"][0].sufficient is True
    assert state["model_calls"] == 3
    assert len(harness.llm.calls) == 3
    assert harness.searcher.queries == ["horaires du château"]
    assert state["reply"].text == "The palace opens at nine [1]."
    assert [c.number for c in state["reply"].citations] == [1]
    assert state["reply"].citations[0].source == "https://example.org/horaires-du-château"
    assert state["reply"].abstained is False


def test_every_model_is_handed_the_same_context_as_text_and_typed_and_no_other_field() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["hours"], missing=["ticket price"], follow_up_queries=["tarif billet"]),
            Critique(sufficient=False, reason="The ticket price is missing."),
            GapAnalysis(answered=["hours", "ticket price"]),
            "Open at nine [1].",
        ]
    )

    state = harness.ask("When does the palace open and how much is a ticket?")

    agent, gaps, critique, _, synthesis = harness.llm.calls
    assert not [m for m in agent if isinstance(m, GatheredMessage)]
    for messages in (gaps, critique, synthesis):
        assert not [m for m in messages if m.additional_kwargs]
        handed = messages[-1]
        assert isinstance(handed, GatheredMessage) and handed.text == handed.artifact.text()
        assert handed.artifact.question == "When does the palace open and how much is a ticket?"
    assert [p.number for p in gaps[-1].artifact.evidence] == [1, 2]
    assert critique[-1].artifact.missing == ["ticket price"] and "ticket price" in critique[-1].text
    assert synthesis[-1].artifact.evidence == state["evidence"]
    assert synthesis[-1].artifact.queries == ["horaires du château", "tarif billet"]


def test_a_missing_aspect_is_searched_in_a_second_round_numbered_after_the_first() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["hours"], missing=["ticket price"], follow_up_queries=["tarif billet"]),
            Critique(sufficient=False, reason="The ticket price is missing."),
            GapAnalysis(answered=["hours", "ticket price"]),
            "Open at nine [1]; tickets are sold online [3].",
        ]
    )

    state = harness.ask("When does the palace open and how much is a ticket?")

    assert state["queries"] == ["horaires du château", "tarif billet"]
    assert [(entry.number, entry.chunk_id) for entry in state["evidence"]] == [
        (1, "horaires-du-château#1"),
        (2, "horaires-du-château#2"),
        (3, "tarif-billet#1"),
        (4, "tarif-billet#2"),
    ]
    first_analysis, second_analysis = harness.llm.calls[1][-1].content, harness.llm.calls[3][-1].content
    assert "[1]\n```text\ntitle: Page horaires-du-château" in first_analysis and "[3]" not in first_analysis
    assert "[1]\n```text\ntitle: Page horaires-du-château" in second_analysis
    assert "[3]\n```text\ntitle: Page tarif-billet" in second_analysis
    assert state["round"] == 2
    assert state["model_calls"] == 5
    assert event(state, "synthesize")["cited"] == [1, 3]  # evidence numbers, stable across rounds
    assert state["reply"].text == "Open at nine [1]; tickets are sold online [2]."  # one number per source


def test_a_model_never_satisfied_stops_at_max_rounds() -> None:
    proposals = ["tarifs billets passeport", "accès train RER gare", "bosquets jardins fontaines"]
    never_satisfied = [
        reply
        for query in proposals
        for reply in (
            GapAnalysis(missing=[f"more about {query}"], follow_up_queries=[query]),
            Critique(sufficient=False, reason="Still incomplete."),
        )
    ]
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            *never_satisfied,
            "Here is what I found [1].",
        ]
    )

    state = harness.ask("Tell me everything about visiting the palace.")

    assert state["round"] == MAX_ROUNDS
    assert Counter(nodes(state))["gap_analysis"] == MAX_ROUNDS
    assert nodes(state)[-1] == "synthesize"
    assert state["queries"] == ["horaires du château", *proposals[:2]]
    assert state["model_calls"] == 8
    assert state["reply"].text == "Here is what I found [1]."


def test_a_duplicate_follow_up_query_ends_the_loop() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(missing=["closing time"], follow_up_queries=["Horaires du  Château"]),
            Critique(sufficient=False, reason="The closing time is missing."),
            "The palace opens at nine [1].",
        ]
    )

    state = harness.ask("When does the palace open and close?")

    follow_up = event(state, "follow_up")
    assert follow_up["queries"] == []
    assert follow_up["dropped_as_duplicates"] == ["Horaires du  Château"]
    assert nodes(state)[-2:] == ["follow_up", "synthesize"]
    assert harness.searcher.queries == ["horaires du château"]
    assert state["model_calls"] == 4


def test_an_invalid_citation_is_removed_and_not_listed_as_a_source() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["opening hours"]),
            "Open at nine [1]. Closed on Mondays [9].",
        ]
    )

    state = harness.ask("When is the palace open?")

    assert state["reply"].text == "Open at nine [1]. Closed on Mondays."
    assert [c.number for c in state["reply"].citations] == [1]
    assert [c.number for c in state["reply"].citations] == [1]
    assert event(state, "synthesize")["removed_citations"] == [9]


def test_a_failing_tool_becomes_an_error_result_and_the_agent_still_answers() -> None:
    harness = build(
        [
            calls_to("get_weather", city="Versailles", date="2025-06-01"),
            "I could not get the forecast; please check again later.",
        ],
        weather=failing_weather,
    )

    state = harness.ask("What will the weather be in Versailles on 1 June?")

    errors = [m for m in state["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(errors) == 1
    # One short sentence, never the exception's text (a model may repeat it to the visitor).
    assert str(errors[0].content) == "Error: the tool failed. Try another query or another tool."
    assert state["tool_results"][0].status == "error"
    assert "the tool failed" in harness.llm.calls[-1][-1].content
    assert "RuntimeError" not in harness.llm.calls[-1][-1].content
    assert state["reply"].text == "I could not get the forecast; please check again later."


def test_arguments_a_tool_refuses_reach_the_model_as_a_sentence_without_the_arguments() -> None:
    harness = build(
        [
            calls_to("get_weather", town="Versailles <secret plan>"),
            "Which day would you like the forecast for?",
        ]
    )

    state = harness.ask("Weather?")

    (error,) = [m for m in state["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert str(error.content).startswith("Error: the arguments of get_weather were not valid")
    assert "secret plan" not in str(error.content) and "kwargs" not in str(error.content)
    assert len(str(error.content)) < 200


def test_an_unknown_tool_gets_an_error_naming_the_valid_tools() -> None:
    harness = build(
        [
            calls_to("get_tram_times", line="T2"),
            "I cannot look up tram times, but the RER C goes to Versailles.",
        ]
    )

    state = harness.ask("When is the next tram to Versailles?")

    reply = next(m for m in state["messages"] if isinstance(m, ToolMessage))
    assert reply.status == "error"
    assert "get_tram_times is not a valid tool" in str(reply.content)
    for name in ("search_knowledge_base", "get_weather", "get_travel_info"):
        assert name in str(reply.content)
    assert state["reply"].text == "I cannot look up tram times, but the RER C goes to Versailles."


def test_a_greeting_is_answered_without_tools() -> None:
    harness = build(["Hello! How can I help you plan your visit?"])

    state = harness.ask("Hello there!")

    assert nodes(state) == ["prepare", "agent", "direct_reply"]
    assert state["reply"].text == "Hello! How can I help you plan your visit?"
    assert state["model_calls"] == 1
    assert harness.searcher.queries == []
    assert state["reply"].abstained is False
    assert [m.content for m in state["messages"] if isinstance(m, AIMessage)] == [state["reply"].text]


def test_a_short_follow_up_uses_the_thread_memory() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["opening hours"]),
            "The palace opens at nine [1].",
            calls_to("search_knowledge_base", query="horaires enfants"),
            GapAnalysis(answered=["children"]),
            "The same hours apply to children [1].",
        ],
        checkpointer=InMemorySaver(),
    )
    harness.ask("What are the opening hours of the palace?")

    state = harness.ask("and for children?")

    seen = contents(harness.llm.calls[3])
    assert seen[0] == "What are the opening hours of the palace?"
    assert "The palace opens at nine [1]." in seen
    assert seen[-1] == "and for children?"
    answering = read_gathered(harness.llm.calls[5])  # the answer's context: the visitor's own words
    assert answering is not None and answering.question == "and for children?"
    assert answering.earlier == ["What are the opening hours of the palace?"]
    assert "question" not in state  # the graph keeps no reading of the turn; each model reads it


def test_a_turn_whose_node_fails_is_closed_with_a_note_and_the_next_one_answers() -> None:
    harness = build([], checkpointer=InMemorySaver())  # the model raises
    question = "What are the opening hours of the palace?"

    failed = harness.ask(question)
    harness.llm.script.extend(
        [calls_to("search_knowledge_base", query="horaires"), GapAnalysis(answered=["hours"]), "At nine [1]."]
    )
    answered = harness.ask(question)

    assert failed["messages"][-1].response_metadata.get(FAILED_TURN_KEY) is True
    assert failed["reply"].text == "" and failed["turn_id"] == ""
    assert contents(harness.llm.calls[1]) == [question, FAILED_TURN_NOTE, question]  # the next turn's history
    assert answered["reply"].text == "At nine [1]."


def test_each_turn_starts_with_fresh_turn_fields() -> None:
    harness = build(
        [
            calls_to("search_knowledge_base", query="horaires du château"),
            GapAnalysis(answered=["opening hours"]),
            "The palace opens at nine [1].",
            calls_to("search_knowledge_base", query="tarif billet"),
            GapAnalysis(answered=["price"]),
            "Tickets are sold online [1].",
        ],
        checkpointer=InMemorySaver(),
    )
    harness.ask("What are the opening hours of the palace?")

    state = harness.ask("How much does a ticket for the palace cost?")

    assert state["queries"] == ["tarif billet"]
    assert [entry.chunk_id for entry in state["evidence"]] == ["tarif-billet#1", "tarif-billet#2"]
    assert state["model_calls"] == 3
    assert state["round"] == 1
    assert state["reply"].citations[0].source == "https://example.org/tarif-billet"


def test_two_threads_do_not_share_messages() -> None:
    harness = build(
        ["The palace opens at nine.", "Yes, the cloakroom is free."],
        checkpointer=InMemorySaver(),
    )
    harness.ask("When does the palace open?", thread="A")

    state = harness.ask("Is there a cloakroom?", thread="B")

    assert contents(harness.llm.calls[1]) == ["Is there a cloakroom?"]
    assert contents(state["messages"]) == ["Is there a cloakroom?", "Yes, the cloakroom is free."]


def test_a_weather_question_skips_the_gap_analysis() -> None:
    harness = build(
        [
            calls_to("get_weather", city="Versailles", date="2025-06-01"),
            "Sunny and 24 °C on 1 June.",
        ]
    )

    state = harness.ask("What will the weather be in Versailles on 1 June?")

    assert "gap_analysis" not in nodes(state)
    assert state["model_calls"] == 2
    assert len(harness.llm.calls) == 2
    assert [outcome.for_model() for outcome in state["tool_results"]] == [
        {
            "tool": "get_weather",
            "args": {"city": "Versailles", "date": "2025-06-01"},
            "status": "ok",
            "city": "Versailles",
            "date": "2025-06-01",
            "summary": "Sunny, 24 °C",
        }
    ]
    assert state["queries"] == []
    assert state["reply"].abstained is False
    assert state["reply"].text == "Sunny and 24 °C on 1 June."


THINKING_THEN_TEXT = [
    {"type": "thinking", "thinking": [{"type": "text", "text": "The visitor greets me."}]},
    {"type": "text", "text": "Hello! How can I help you plan your visit?"},
]


@pytest.mark.parametrize(
    "script",
    [
        pytest.param([AIMessage(THINKING_THEN_TEXT)], id="direct_reply"),
        pytest.param(
            [
                calls_to("search_knowledge_base", query="horaires du château"),
                GapAnalysis(answered=["greeting"]),
                AIMessage(THINKING_THEN_TEXT),
            ],
            id="synthesize",
        ),
    ],
)
def test_an_answer_in_content_blocks_keeps_only_its_text(script: list[Any]) -> None:
    """Mistral reasoning models and ``output_version="v1"`` reply with a list of content blocks."""
    harness = build(script)

    state = harness.ask("Hello there, can you help me?")

    assert state["reply"].text == "Hello! How can I help you plan your visit?"


def test_graph_topology_matches_the_mermaid_snapshot() -> None:
    """The wiring is what the snapshot shows.

    After an intended change to the graph, refresh the snapshot from the repository root with
    ``python -c "from tests.integration.test_agent_graph import mermaid; print(mermaid(), end='')"
    > tests/integration/snapshots/agent_graph.mmd`` and review the diff.
    """
    assert mermaid() == SNAPSHOT.read_text(encoding="utf-8")


def test_a_reply_of_300_tool_calls_runs_at_most_the_cap_and_says_so() -> None:
    flood = AIMessage("", tool_calls=[tool_call("search_knowledge_base", query=f"q{n}") for n in range(300)])
    harness = build([flood, GapAnalysis(answered=["x"]), "Done [1]."])

    state = harness.ask("Tell me everything.")

    assert len(harness.searcher.queries) == 8  # AgentDeps.max_tool_calls
    assert event(state, "agent")["dropped_tool_calls"] == 292


def test_follow_up_searches_stop_at_the_turns_search_cap() -> None:
    harness = build(
        [
            AIMessage("", tool_calls=[tool_call("search_knowledge_base", query=f"q{n}") for n in range(8)]),
            GapAnalysis(missing=["more"], follow_up_queries=[f"autre requête {n}" for n in range(10)]),
            Critique(sufficient=False, reason="more"),
            GapAnalysis(answered=["x"]),
            "Done [1].",
        ]
    )

    state = harness.ask("Tell me everything.")

    assert len(harness.searcher.queries) == 12  # AgentDeps.max_searches
    assert event(state, "follow_up")["queries"] == harness.searcher.queries[8:]
    assert event(state, "follow_up")["dropped_over_the_search_cap"]
