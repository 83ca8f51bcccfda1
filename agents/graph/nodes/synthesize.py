"""The answer: in the visitor's language, citations and stated values checked against the evidence."""

from __future__ import annotations

import re
import time
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.constants import TAG_NOSTREAM

from agents.answer.citations import CITATION_GROUP
from agents.answer.compose import compose_answer
from agents.answer.follow_ups import suggest_follow_ups
from agents.answer.model import ANSWER_KIND_KEY, AnswerKind
from agents.answer.value_check import ValueCheck
from agents.answer.verify import checked_values, verify_values
from agents.graph.deps import AgentDeps
from agents.graph.gathered import Gathered, gathered_message
from agents.graph.prompts import language_name, render
from agents.graph.state import AgentState
from agents.graph.trace import AnswerStep, elapsed_ms, tools_called
from agents.models.provider_errors import ProviderError
from rag.lexicon.phrases import phrases, replies


def _kind(state: AgentState, cited: bool, said: object) -> AnswerKind:
    """What the model said, else: not found when the knowledge base was searched and nothing was
    cited (no tool answered either); partial when the last critique still found parts missing."""
    if said in ("answered", "partial", "not_found"):
        return said
    if state.get("queries") and not cited and not state.get("tool_results"):
        return "not_found"
    critiques = state.get("critiques", [])
    return "partial" if state.get("gaps") and critiques and not critiques[-1].sufficient else "answered"


def finish(
    state: AgentState, check: ValueCheck, streamed: str, started: float, node: str, said: object = None
) -> dict[str, Any]:
    """The typed answer: values checked, citations checked and numbered per source."""
    evidence = state.get("evidence", [])
    composed = compose_answer(check.text, evidence, streamed=streamed)
    kind = _kind(state, bool(composed.cited), said)
    related = [c.number for c in composed.answer.citations] if kind == "not_found" else []
    reply = composed.answer.model_copy(
        update={
            "kind": kind,
            "values": checked_values(check),
            "removed_sentences": check.removed,
            "related": related,  # a declined answer quotes only the closest passages
        }
    )
    step = AnswerStep(
        node="synthesize" if node == "synthesize" else "direct_reply",
        ms=elapsed_ms(started),
        cited=composed.cited,
        removed_citations=reply.removed_citations,
        abstained=reply.abstained,
        values=reply.values,
        removed_sentences=check.removed,
    )
    tools = tools_called(state.get("trace", []))  # the questions to suggest next, in the reply language
    suggestions = suggest_follow_ups(reply, state.get("language", ""), tools)
    return {"messages": [AIMessage(reply.text)], "reply": reply, "trace": [step], "suggestions": suggestions}


def _has_words(text: str) -> bool:
    return bool(re.search(r"\w", CITATION_GROUP.sub("", text)))


def _not_in_knowledge_base(language: str) -> str:
    """The plain sentence, in the visitor's language, that the knowledge base does not say."""
    return replies(language)["abstain"].format(url=phrases()["official_website"])


def _rewritten(
    llm: BaseChatModel, messages: list[BaseMessage], draft: str, check: ValueCheck, language: str
) -> str:
    """The model's one rewrite of ``draft`` with the failing values named; not streamed to the visitor."""
    request = render("rewrite_values", failures="\n".join(check.failures), language=language_name(language))
    reply = llm.invoke([*messages, AIMessage(draft), HumanMessage(request)], config={"tags": [TAG_NOSTREAM]})
    return reply.text


EMPTY_ANSWER = "Your last reply was empty. Write the answer to the question now, from the evidence."


def written_answer(llm: BaseChatModel, messages: list[BaseMessage]) -> tuple[BaseMessage, int]:
    """The model's answer and the calls it took: an empty one is asked once more, then ends the
    turn with one sentence (nothing empty is shown or stored)."""
    reply = llm.invoke(messages)
    if reply.text.strip():
        return reply, 1
    reply = llm.invoke([*messages, HumanMessage(EMPTY_ANSWER)])
    if reply.text.strip():
        return reply, 2
    raise ProviderError(
        "The model answered with an empty text twice: ask again, or choose another model with AGENT_MODEL.",
        provider="model",
        kind="malformed",
    )


def make_synthesize(deps: AgentDeps) -> Any:
    """Node factory: one model call writing the cited answer (two when its values fail the check)."""

    def synthesize(state: AgentState) -> dict[str, Any]:
        started = time.perf_counter()
        language = state.get("language", "")
        system = render("synthesize", language=language_name(language))
        messages: list[BaseMessage] = [SystemMessage(system), gathered_message(Gathered.of(state))]
        reply, calls = written_answer(deps.llm, messages)
        evidence, tools = state.get("evidence", []), state.get("tool_results", [])
        check = verify_values(reply.text, evidence, tools, language)
        if check.failures and deps.rewrite_unverified:
            rewrite = _rewritten(deps.llm, messages, reply.text, check, language)
            check, calls = verify_values(rewrite, evidence, tools, language), calls + 1
        said = reply.response_metadata.get(ANSWER_KIND_KEY)
        if reply.text.strip() and not _has_words(check.text):  # every sentence failed the check
            check, said = check.model_copy(update={"text": _not_in_knowledge_base(language)}), "not_found"
        return {**finish(state, check, reply.text, started, "synthesize", said), "model_calls": calls}

    return synthesize


def direct_reply(state: AgentState) -> dict[str, Any]:
    """The agent answered without tools (a greeting, small talk): that reply is the answer."""
    started = time.perf_counter()
    text = state["messages"][-1].text
    check = verify_values(text, [], [], state.get("language", ""))
    result = finish(state, check, text, started, "direct_reply")
    result.pop("messages")  # the reply is already in the conversation
    return result
