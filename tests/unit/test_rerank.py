"""Reranking: coverage-weighted re-sorting, answer types, near-duplicate suppression."""

from __future__ import annotations

import pytest

from rag.passage import Passage
from rag.rerank import Coverage, Reranker, dense_closeness, jaccard, word_set


def hit(chunk_id: str, text: str, score: float = 1.0) -> Passage:
    return Passage(
        chunk_id=chunk_id,
        text=text,
        title="Doc",
        source=f"{chunk_id}.md",
        sources=[f"{chunk_id}.md"],
        category="",
        language="fr",
        score=score,
    )


def constant(share: float = 0.0) -> Coverage:
    return lambda hits: [share] * len(hits)


def shares(*values: float) -> Coverage:
    return lambda hits: list(values[: len(hits)])


def ids(hits: list[Passage]) -> list[str]:
    return [found.chunk_id for found in hits]


def test_jaccard_of_word_sets() -> None:
    assert jaccard(word_set("Le Parc est grand"), word_set("le parc est petit")) == pytest.approx(3 / 5)


def test_jaccard_of_an_empty_set_is_zero() -> None:
    assert jaccard(frozenset(), word_set("parc")) == 0.0


def test_disabled_reranker_keeps_the_fused_order() -> None:
    hits = [hit("a", "alpha", 0.1), hit("b", "beta", 0.9)]

    assert ids(Reranker(enabled=False).rerank(hits, shares(0.0, 1.0))) == ["a", "b"]


def test_disabled_reranker_keeps_near_duplicates() -> None:
    hits = [hit("a", "même texte"), hit("b", "même texte")]

    assert ids(Reranker(enabled=False).rerank(hits, constant())) == ["a", "b"]


def test_empty_input_gives_empty_output() -> None:
    assert Reranker().rerank([], constant()) == []


def test_coverage_re_sorts_the_hits() -> None:
    hits = [hit("a", "alpha", 1.0), hit("b", "beta", 0.9)]

    assert ids(Reranker().rerank(hits, shares(0.0, 1.0))) == ["b", "a"]


def test_without_coverage_weight_hits_follow_the_fused_score() -> None:
    hits = [hit("a", "alpha", 0.5), hit("b", "beta", 1.0)]

    assert ids(Reranker(coverage_weight=0.0).rerank(hits, shares(0.0, 1.0))) == ["b", "a"]


def test_score_is_normalised_score_plus_weighted_coverage() -> None:
    hits = [hit("a", "alpha", 2.0), hit("b", "beta", 1.0)]

    reranked = Reranker(coverage_weight=0.5).rerank(hits, shares(0.2, 0.4))

    assert [found.score for found in reranked] == pytest.approx([1.0 + 0.1, 0.5 + 0.2])
    assert reranked[1].scores["coverage"] == pytest.approx(0.4)


def test_only_depth_candidates_are_kept() -> None:
    hits = [hit(name, name, 1.0) for name in ("a", "b", "c")]

    assert ids(Reranker(depth=2).rerank(hits, constant())) == ["a", "b"]


def test_near_duplicate_is_dropped() -> None:
    text = "Le château ouvre à neuf heures tous les jours sauf le lundi"
    hits = [hit("a", text, 1.0), hit("b", text.replace("neuf", "9"), 0.9)]

    assert ids(Reranker(duplicate_threshold=0.8).rerank(hits, constant())) == ["a"]


def test_hits_below_the_duplicate_threshold_are_kept() -> None:
    hits = [hit("a", "le parc est grand", 1.0), hit("b", "le parc est petit", 0.9)]  # Jaccard 0.6

    assert ids(Reranker(duplicate_threshold=0.8).rerank(hits, constant())) == ["a", "b"]


def test_duplicate_at_exactly_the_threshold_is_dropped() -> None:
    hits = [hit("a", "le parc est grand", 1.0), hit("b", "le parc est petit", 0.9)]  # Jaccard 0.6

    assert ids(Reranker(duplicate_threshold=0.6).rerank(hits, constant())) == ["a"]


def test_answer_type_weight_favours_a_passage_holding_a_date() -> None:
    hits = [
        hit("a", "Le château de Versailles est magnifique."),
        hit("b", "Le château est construit en 1682."),
    ]

    reranked = Reranker(answer_type_weight=0.5).rerank(
        hits, constant(), query="Quand le château a-t-il été bâti ?"
    )

    assert ids(reranked) == ["b", "a"]
    assert reranked[0].scores["answer_type"] == 1.0


def test_zero_answer_type_weight_leaves_the_order() -> None:
    hits = [
        hit("a", "Le château de Versailles est magnifique."),
        hit("b", "Le château est construit en 1682."),
    ]

    reranked = Reranker(answer_type_weight=0.0).rerank(
        hits, constant(), query="Quand le château a-t-il été bâti ?"
    )

    assert ids(reranked) == ["a", "b"]


def with_dense(found: Passage, cosine: float | None) -> Passage:
    if cosine is not None:
        found.scores["dense"] = cosine
    return found


def test_dense_closeness_spans_the_pool_and_gives_bm25_only_hits_nothing() -> None:
    pool = [with_dense(hit("a", "a"), 0.80), with_dense(hit("b", "b"), 0.90), with_dense(hit("c", "c"), None)]

    assert dense_closeness(pool) == pytest.approx([0.0, 1.0, 0.0])


def test_dense_closeness_without_dense_scores_is_neutral() -> None:
    assert dense_closeness([hit("a", "a"), hit("b", "b")]) == [0.0, 0.0]


def test_dense_similarity_weight_lifts_the_semantically_closest_hit() -> None:
    def pool() -> list[Passage]:
        return [with_dense(hit("a", "alpha", 1.0), 0.80), with_dense(hit("b", "beta", 0.9), 0.88)]

    assert ids(Reranker(dense_similarity_weight=0.0).rerank(pool(), constant())) == ["a", "b"]
    assert ids(Reranker(dense_similarity_weight=0.5).rerank(pool(), constant())) == ["b", "a"]
