"""Every value an answer states must be in the passage it cites, whatever the model.

The graph runs over a one-passage knowledge base; a scripted model (and the real OpenAI client
against the local fake server) writes answers with invented, altered and reformatted values. What
the visitor reads never holds a value the cited passage lacks; correct values survive reformatting.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agents.graph.builder import build_graph
from agents.graph.deps import AgentDeps
from agents.graph.schemas import GapAnalysis
from agents.models.llm import build_chat_model
from agents.tools.knowledge_base import build_knowledge_base_tool, search_knowledge_base
from rag.passage import Passage
from tests.conftest import HashingEmbedder
from tests.fake_chat_server import FakeChatServer, completion, tool_call
from tests.fakes import ScriptedChatModel
from tests.fakes import tool_call as scripted_call
from tests.integration.test_chat_providers import chat_settings

PASSAGE = "Le billet Château coûte 21 €, tarif réduit 13 €. Dernière entrée à 17 h 30. Fermé le lundi."


class TicketSearcher:
    """A knowledge base of one passage on the Palace ticket."""

    languages = ("fr",)

    def search(self, query: str, k: int = 5) -> list[Passage]:
        url = "https://example.org/tarifs"
        return [Passage(chunk_id="tarifs#1", text=PASSAGE, title="Tarifs", source=url, language="fr")]


def ask(llm: Any, question: str, rewrite: bool = True) -> dict[str, Any]:
    searcher = TicketSearcher()
    deps = AgentDeps(
        llm=llm,
        tools=[build_knowledge_base_tool(searcher)],
        search=lambda query: search_knowledge_base(searcher, query),
        embed=HashingEmbedder().embed_documents,
        rewrite_unverified=rewrite,
    )
    graph = build_graph(deps, InMemorySaver())
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": 25}
    graph.invoke({"messages": [HumanMessage(question)]}, config)
    return dict(graph.get_state(config).values)  # the whole state: a run returns only the output


def scripted(*answers: str) -> ScriptedChatModel:
    search = AIMessage("", tool_calls=[scripted_call("search_knowledge_base", {"query": "tarif billet"})])
    return ScriptedChatModel(script=[search, GapAnalysis(answered=["price"]), *answers])


def test_invented_values_are_rewritten_once_with_the_failure_named() -> None:
    llm = scripted(
        "Le billet Château coûte 99 € [1] et la dernière entrée est à 16 h 05 [1].",
        "Le billet Château coûte 21 € [1] et la dernière entrée est à 17 h 30 [1].",
    )

    state = ask(llm, "Combien coûte le billet et quand est la dernière entrée ?")

    rewrite_request = llm.calls[-1][-1].content
    assert '"99 €"' in rewrite_request and '"16 h 05"' in rewrite_request
    assert state["reply"].text == "Le billet Château coûte 21 € [1] et la dernière entrée est à 17 h 30 [1]."
    assert all(value.verified for value in state["reply"].values)
    assert state["model_calls"] == 4  # agent, gap analysis, answer, its one rewrite


def test_values_still_invented_after_the_rewrite_are_never_shown() -> None:
    llm = scripted(
        "Le billet coûte 99 € [1]. Le château est fermé le lundi [1].",
        "Le billet coûte 98 € [1]. Le château est fermé le lundi [1].",
    )

    state = ask(llm, "Combien coûte le billet ?")

    assert state["reply"].text == "Le château est fermé le lundi [1]."
    assert state["reply"].removed_sentences == ["Le billet coûte 98 € [1]."]
    assert [(v.text, v.verified) for v in state["reply"].values] == [("98 €", False)]


def test_without_a_rewrite_a_sentence_with_an_unverified_value_is_removed() -> None:
    state = ask(scripted("Entry costs 99 € [1]. Closed on Mondays [1]."), "How much?", rewrite=False)

    assert state["reply"].text == "Closed on Mondays [1]."
    step = state["trace"][-1].dumped()
    assert step["values"][0]["text"] == "99 €" and step["values"][0]["verified"] is False


@pytest.mark.parametrize(
    "answer",
    [
        "The Palace ticket costs €21 [1], reduced €13 [1]; last entry at 5:30 pm [1].",
        "Das Schlossticket kostet 21 € [1], ermäßigt 13 € [1]; letzter Einlass um 17:30 Uhr [1].",
        "宮殿のチケットは21ユーロ [1]、最終入場は17時30分です [1]。",
    ],
)
def test_correct_values_written_the_visitors_way_are_kept_without_a_rewrite(answer: str) -> None:
    state = ask(scripted(answer), "How much is a ticket?")  # a rewrite would exhaust the script

    assert state["reply"].text == answer
    assert state["reply"].values and all(value.verified for value in state["reply"].values)
    assert state["model_calls"] == 3


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    fake = FakeChatServer().start()
    yield fake
    fake.stop()


def test_the_openai_client_answering_invented_values_shows_none_of_them(server: FakeChatServer) -> None:
    invented = "Le billet Château coûte 99 € [1] et la dernière entrée est à 16 h 05 [1]. Fermé le lundi [1]."
    server.reply(
        completion(None, [tool_call("search_knowledge_base", json.dumps({"query": "tarif billet"}))]),
        completion(json.dumps({"answered": ["prix"], "missing": [], "follow_up_queries": []})),
        completion(invented),
        completion(invented),  # the rewrite invents again
    )
    llm = build_chat_model(chat_settings("openai", server.base_url))

    state = ask(llm, "Combien coûte le billet ?")

    assert "99" not in state["reply"].text and "16 h 05" not in state["reply"].text
    assert state["reply"].text == "Fermé le lundi [1]."
    assert len(server.requests) == 4
    assert "99 €" in server.requests[-1].body["messages"][-1]["content"]  # the failure was named


def test_an_answer_whose_every_sentence_fails_says_plainly_that_the_knowledge_base_does_not_say() -> None:
    state = ask(scripted("El billete cuesta 99 € [1]."), "¿Cuánto cuesta?", rewrite=False)

    assert state["reply"].kind == "not_found"
    assert "99" not in state["reply"].text and "https://www.chateauversailles.fr" in state["reply"].text
