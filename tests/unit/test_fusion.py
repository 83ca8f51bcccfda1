"""Reciprocal rank fusion (pure): score = sum of weight / (k + rank)."""

from __future__ import annotations

import pytest

from rag.fusion import reciprocal_rank_fusion


def test_scores_follow_the_rrf_formula() -> None:
    fused = dict(reciprocal_rank_fusion({"bm25": ["a", "b"], "dense": ["b", "c"]}, k=60))

    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["c"] == pytest.approx(1 / 62)


def test_items_in_both_lists_rank_first() -> None:
    fused = reciprocal_rank_fusion({"bm25": ["a", "b"], "dense": ["b", "c"]})

    assert [item for item, _ in fused] == ["b", "a", "c"]


def test_weights_scale_each_list() -> None:
    fused = dict(
        reciprocal_rank_fusion({"bm25": ["a"], "dense": ["b"]}, weights={"bm25": 0.5, "dense": 2.0}, k=10)
    )

    assert fused["a"] == pytest.approx(0.5 / 11)
    assert fused["b"] == pytest.approx(2.0 / 11)


def test_a_list_missing_from_weights_counts_once() -> None:
    fused = dict(reciprocal_rank_fusion({"bm25": ["a"], "dense": ["b"]}, weights={"bm25": 3.0}, k=1))

    assert fused == {"a": pytest.approx(1.5), "b": pytest.approx(0.5)}


def test_zero_weight_list_is_ignored() -> None:
    fused = reciprocal_rank_fusion({"bm25": ["x", "a"], "dense": ["a", "b"]}, weights={"bm25": 0.0})

    assert [item for item, _ in fused] == ["a", "b"]


def test_ties_keep_first_met_order() -> None:
    rankings = {"bm25": ["a", "b"], "dense": ["c", "d"]}

    fused = [item for item, _ in reciprocal_rank_fusion(rankings)]

    assert fused == ["a", "c", "b", "d"]
    assert [item for item, _ in reciprocal_rank_fusion(rankings)] == fused


def test_empty_rankings_give_nothing() -> None:
    assert reciprocal_rank_fusion({"bm25": [], "dense": []}) == []
