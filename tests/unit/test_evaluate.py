"""Retrieval evaluation: aspect matching as the eval README defines it, pooling, scoring."""

from __future__ import annotations

import pytest

from rag.evaluate import evaluate, found_aspects, pool, summarise
from rag.passage import Passage


def _hit(chunk_id: str, text: str = "") -> Passage:
    return Passage(chunk_id=chunk_id, text=text, title="", source="", sources=[], category="", language="")


def test_matching_ignores_case() -> None:
    assert found_aspects([["Galerie des Glaces"]], ["la galerie des glaces"]) == [True]


def test_matching_folds_white_space_runs_and_no_break_spaces() -> None:
    text = "Ouvert de 9\u00a0h à 18 h\n30, tous les jours."

    assert found_aspects([["9 h à 18  h 30"]], [text]) == [True]


def test_matching_folds_narrow_no_break_space() -> None:
    assert found_aspects([["21 €"]], ["Tarif : 21\u202f€"]) == [True]


def test_matching_turns_curly_apostrophe_into_straight() -> None:
    assert found_aspects([["l'Orangerie"]], ["Le jardin de l\u2019Orangerie"]) == [True]
    assert found_aspects([["l\u2019Orangerie"]], ["Le jardin de l'Orangerie"]) == [True]


def test_accents_are_not_folded() -> None:
    assert found_aspects([["chateau"]], ["Le château"]) == [False]


def test_an_aspect_is_found_by_any_alternative_in_any_text() -> None:
    aspects = [["RER C", "train"], ["21 €"], ["absent"]]

    assert found_aspects(aspects, ["Prenez le train.", "Billet : 21 €."]) == [True, True, False]


def test_pool_interleaves_by_rank_and_keeps_each_chunk_once() -> None:
    first = [_hit("a"), _hit("b"), _hit("c")]
    second = [_hit("b"), _hit("d")]

    assert [hit.chunk_id for hit in pool([first, second])] == ["a", "b", "d", "c"]


def test_pool_of_nothing_is_empty() -> None:
    assert pool([]) == []
    assert pool([[], []]) == []


QUESTIONS = [
    {"id": "q1", "lang": "fr", "type": "fact", "question": "horaires", "answers": [["9 h"], ["18 h"]]},
    {"id": "q2", "lang": "es", "type": "fact", "question": "precio", "answers": [["21 €"]]},
    {"id": "q3", "lang": "en", "type": "out_of_scope", "question": "weather", "answers": []},
]
TEXTS = {"horaires": ["bla", "Ouvert à 9 h."], "precio": ["Billet : 21 €."], "fermeture": ["Ferme à 18 h."]}


def _search(query: str, k: int) -> list[Passage]:
    return [_hit(f"{query}-{i}", text) for i, text in enumerate(TEXTS.get(query, []))][:k]


def test_evaluate_scores_questions_with_answers_only() -> None:
    results = {result.id: result for result in evaluate(QUESTIONS, _search, k=5)}

    assert set(results) == {"q1", "q2"}
    assert results["q1"].recall == 0.5
    assert not results["q1"].all_found
    assert results["q1"].reciprocal_rank == 0.5
    assert results["q2"].all_found
    assert results["q2"].reciprocal_rank == 1.0


def test_evaluate_pools_agent_queries_and_skips_questions_without_them() -> None:
    results = evaluate(QUESTIONS, _search, k=5, agent_queries={"q1": ["horaires", "fermeture"]})

    assert [result.id for result in results] == ["q1"]
    assert results[0].all_found
    assert results[0].queries == ["horaires", "fermeture"]


def test_evaluate_respects_k() -> None:
    [result] = [r for r in evaluate(QUESTIONS, _search, k=1) if r.id == "q1"]

    assert result.recall == 0


def test_summarise_groups_by_language_and_type() -> None:
    summary = summarise(evaluate(QUESTIONS, _search, k=5))

    assert set(summary) == {"all", "lang:fr", "lang:other", "lang:es", "type:fact"}
    assert summary["all"]["n"] == 2
    assert summary["all"]["all_aspects_hit"] == pytest.approx(0.5)
    assert summary["all"]["aspect_recall"] == pytest.approx(0.75)
    assert summary["lang:es"]["mrr"] == pytest.approx(1.0)
