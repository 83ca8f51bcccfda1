"""Scoring helpers of agents/evaluation/evaluate.py shared by the agent benchmarks."""

from __future__ import annotations

from agents.answer.model import Answer
from agents.evaluation.evaluate import declined, evaluate, own_words, rate, tools_match
from agents.events import ErrorOccurred, FinalAnswer


def test_own_words_drop_a_quotation_that_quotes_a_title() -> None:
    answer = "Voici ce que dit la base :\n- “La carte “1 an à Versailles” coûte 65€, la carte DUO 98€.” [2]"
    assert own_words(answer).split() == ["Voici", "ce", "que", "dit", "la", "base", ":", "-"]


def test_tools_match_needs_every_expected_tool_and_no_forbidden_one() -> None:
    called = ["search_knowledge_base", "get_weather"]
    assert tools_match(called, ["get_weather"], ["get_travel_info"])
    assert not tools_match(called, ["get_travel_info"])
    assert not tools_match(called, ["search_knowledge_base"], ["get_weather"])


def test_an_answer_of_kind_not_found_counts_as_declined() -> None:
    assert declined(FinalAnswer(reply=Answer(kind="not_found"), language="en"))
    assert not declined(FinalAnswer(reply=Answer(text="21 € [1]", kind="partial"), language="en"))
    assert not declined(FinalAnswer(reply=Answer(text="21 € [1]"), language="en"))


def test_rate_counts_only_the_rows_holding_the_key() -> None:
    assert rate([{"ok": True}, {"ok": False}, {}], "ok") == 0.5
    assert rate([{}], "ok") is None


def test_every_evaluation_run_asks_in_fresh_threads() -> None:
    threads: list[str] = []

    def ask(question: str, thread_id: str) -> ErrorOccurred:
        threads.append(thread_id)
        return ErrorOccurred(message="no model")

    questions = [{"id": "q1", "question": "Hours?"}, {"id": "q2", "question": "Price?"}]
    evaluate(questions, ask)
    evaluate(questions, ask)

    assert len(set(threads)) == 4  # a second run (another provider, say) never reads the first's history
