"""Choose the grouping threshold of ``agents/insights/grouping.py`` on half of the reference needs and
check it on the other half: ``python -m benchmarks.insights_threshold``.

Score: pair F1 (a pair of questions of one need should share a group, a pair of two needs should
not). Prints one JSON object; uses the configured embedder (multilingual-e5-small by default).
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np

from agents.insights.grouping import centred, leader_groups, reference_needs
from rag.config import RagSettings
from rag.embeddings import build_embedder


def pair_f1(needs: list[int], groups: list[int]) -> float:
    """F1 of "same group" against "same need" over every pair of questions."""
    same_need = same_group = both = 0
    for a, b in combinations(range(len(needs)), 2):
        need, group = needs[a] == needs[b], groups[a] == groups[b]
        same_need += need
        same_group += group
        both += need and group
    precision, recall = both / max(same_group, 1), both / max(same_need, 1)
    return 2 * precision * recall / max(precision + recall, 1e-9)


def main() -> None:
    needs = reference_needs()
    questions = [q for need in needs for q in need["questions"]]
    labels = [n for n, need in enumerate(needs) for _ in need["questions"]]
    raw = build_embedder(RagSettings()).embed_queries(questions)
    vectors = centred(raw, raw)
    half = len(needs) // 2
    split = labels.index(half)
    scores = {}
    for threshold in np.arange(0.10, 0.60, 0.02):
        groups = leader_groups(vectors[:split], float(threshold))
        scores[round(float(threshold), 2)] = pair_f1(labels[:split], groups)
    top = max(scores.values())
    plateau = [threshold for threshold, score in scores.items() if score >= top - 1e-9]
    best = plateau[len(plateau) // 2]  # the middle of the best range: the farthest from both edges
    held_out = leader_groups(vectors[split:], best)
    print(
        json.dumps(
            {
                "chosen_threshold": best,
                "pair_f1_first_half": round(scores[best], 3),
                "pair_f1_second_half": round(pair_f1(labels[split:], held_out), 3),
                "groups_second_half": len(set(held_out)),
                "needs_second_half": len(needs) - half,
                "best_range_first_half": [plateau[0], plateau[-1]],
            }
        )
    )


if __name__ == "__main__":
    main()
