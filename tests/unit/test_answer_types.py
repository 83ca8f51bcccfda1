"""Answer types expected by a query, and whether a passage holds a value of those types."""

from __future__ import annotations

import pytest

from rag.answer_types import expected_types, type_match


def names(query: str) -> list[str]:
    return [kind.name for kind in expected_types(query)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Quand le château a-t-il été construit ?", ["date"]),
        ("En quelle année a été inauguré le Trianon ?", ["date"]),
        ("Quel est le prix du billet ?", ["price"]),
        ("Quels sont les horaires d'ouverture ?", ["hours"]),
        ("Combien de fontaines y a-t-il ?", ["count"]),
        ("À quelle distance se trouve Paris ?", ["distance"]),
        ("Quelle est la superficie du parc ?", ["area"]),
    ],
)
def test_french_cues(query: str, expected: list[str]) -> None:
    assert names(query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("When was the palace built?", ["date"]),
        ("How much is a ticket?", ["price"]),
        ("What are the opening hours?", ["hours"]),
        ("How many rooms are there?", ["count"]),
        ("How far is Paris?", ["distance"]),
        ("How big is the park?", ["area"]),
    ],
)
def test_english_cues(query: str, expected: list[str]) -> None:
    assert names(query) == expected


def test_query_without_cue_expects_nothing() -> None:
    assert expected_types("Où sont les toilettes ?") == []


def test_cues_match_without_accents() -> None:
    assert names("Quelle annee ?") == names("Quelle année ?") == ["date"]


def test_no_expected_type_scores_zero() -> None:
    assert type_match([], "Construit en 1682.") == 0.0


@pytest.mark.parametrize(
    ("query", "passage"),
    [
        ("quand", "La galerie est achevée en 1684."),
        ("quand", "Le domaine est agrandi au XVIIe siècle."),
        ("prix", "Le billet Passeport coûte 32 €."),
        ("prix", "L'entrée est gratuite pour les moins de 18 ans."),
        ("horaires", "Le château ouvre de 9h à 18h30."),
        ("horaires", "Dernière entrée à 17:45."),
        ("combien", "Le parc compte 55 bassins."),
        ("combien", "Il y a trois jardins."),
        ("distance", "Versailles est à 20 km de Paris."),
        ("superficie", "Le parc s'étend sur 800 hectares."),
        ("superficie", "La galerie mesure 73 m²."),
        ("superficie", "Le Château compte 700 pièces, réparties sur 51 000 m 2."),  # a flattened "m²"
    ],
)
def test_passage_holding_the_value_matches(query: str, passage: str) -> None:
    assert type_match(expected_types(query), passage) == 1.0


@pytest.mark.parametrize(
    ("query", "passage"),
    [
        ("quand", "Le château fut construit sous Louis XIV."),
        ("prix", "Les billets sont vendus en ligne."),
        ("horaires", "Le château est ouvert tous les jours sauf le lundi."),
        ("combien", "Le parc compte de nombreux bassins."),
        ("distance", "Versailles est proche de Paris."),
        ("superficie", "Le parc est très grand."),
        ("superficie", "Salle 2 au premier étage, puis 12 m 20 de couloir."),
    ],
)
def test_passage_without_the_value_does_not_match(query: str, passage: str) -> None:
    assert type_match(expected_types(query), passage) == 0.0


def test_score_is_the_share_of_expected_types_found() -> None:
    kinds = expected_types("Quand et à quel prix ?")

    assert [kind.name for kind in kinds] == ["date", "price"]
    assert type_match(kinds, "Ouvert depuis 1837.") == pytest.approx(0.5)
