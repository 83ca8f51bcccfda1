"""Questions grouped by meaning across languages: leader clustering on centred embeddings.

multilingual-e5 puts every question about the palace close to every other (cosine 0.75 to 0.9),
so raw similarities barely separate needs. Subtracting the mean of a background of questions (the
shipped reference paraphrases plus the log's own) removes what all museum questions share; on what
is left, a question joins the most similar group when its cosine to the group's centre reaches the
threshold, else starts a group. Questions are taken most-asked first, so a group's leader is its
commonest wording. The threshold was chosen on half of ``data/insights/question_paraphrases.json``
and checked on the other half (``benchmarks/insights_threshold.py``).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np

from rag.config import PROJECT_ROOT

REFERENCE_FILE = PROJECT_ROOT / "data" / "insights" / "question_paraphrases.json"
GROUP_THRESHOLD = 0.14


@cache
def reference_needs() -> list[dict[str, Any]]:
    """The shipped paraphrase set: visitor needs, each asked in several languages."""
    return list(json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))["needs"])


def reference_questions() -> list[str]:
    return [question for need in reference_needs() for question in need["questions"]]


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def centred(vectors: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Unit vectors minus the background's mean direction, renormalised."""
    centre = _unit(background.astype(np.float32)).mean(axis=0)
    return _unit(_unit(vectors.astype(np.float32)) - centre)


def leader_groups(vectors: np.ndarray, threshold: float = GROUP_THRESHOLD) -> list[int]:
    """The group of each (centred, unit) vector, taken in the order given; groups numbered from 0."""
    if len(vectors) == 0:
        return []
    sums = np.zeros_like(vectors)  # row g: the sum of group g's vectors (its centre, unnormalised)
    centres = np.zeros_like(vectors)
    count = 0
    labels: list[int] = []
    for vector in vectors:
        if count:
            similarity = centres[:count] @ vector
            best = int(similarity.argmax())
            if similarity[best] >= threshold:
                sums[best] += vector
                centres[best] = _unit(sums[best])
                labels.append(best)
                continue
        sums[count] = centres[count] = vector
        labels.append(count)
        count += 1
    return labels
