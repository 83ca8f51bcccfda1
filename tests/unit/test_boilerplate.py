"""Sentences repeated across many documents are kept once, in the first document holding them."""

from __future__ import annotations

from rag.boilerplate import strip_repeated_passages
from rag.documents import Document

BLURB = "Le restaurant Ore vous accueille tous les jours pour le déjeuner."  # >= 40 characters
SHORT = "Réserver en ligne."  # < 40 characters


def page(index: int, *lines: str) -> Document:
    return Document(text="\n".join(lines), source=f"page-{index}", title=f"Page {index}")


def pages_with(sentence: str, count: int) -> list[Document]:
    return [page(i, f"Intro de la page {i}.", sentence, f"Fin de la page {i}.") for i in range(count)]


def test_repeated_sentence_is_kept_in_the_first_document() -> None:
    result = strip_repeated_passages(pages_with(BLURB, 3))

    assert BLURB in result[0].text


def test_repeated_sentence_is_removed_from_later_documents() -> None:
    result = strip_repeated_passages(pages_with(BLURB, 3))

    assert [BLURB in document.text for document in result[1:]] == [False, False]


def test_other_sentences_of_a_stripped_document_are_kept() -> None:
    result = strip_repeated_passages(pages_with(BLURB, 3))

    assert "Intro de la page 2." in result[2].text
    assert "Fin de la page 2." in result[2].text


def test_repeated_sentence_inside_a_paragraph_is_removed() -> None:
    documents = [page(i, f"Salle {i} ouverte. {BLURB} Accès libre.") for i in range(3)]

    result = strip_repeated_passages(documents)

    assert BLURB not in result[1].text
    assert result[1].text.startswith("Salle 1 ouverte.")
    assert result[1].text.endswith("Accès libre.")


def test_sentence_in_fewer_than_min_documents_is_kept_everywhere() -> None:
    result = strip_repeated_passages(pages_with(BLURB, 2))

    assert all(BLURB in document.text for document in result)


def test_min_documents_sets_the_threshold() -> None:
    result = strip_repeated_passages(pages_with(BLURB, 2), min_documents=2)

    assert BLURB not in result[1].text


def test_short_sentence_is_kept_even_when_frequent() -> None:
    result = strip_repeated_passages(pages_with(SHORT, 5))

    assert all(SHORT in document.text for document in result)


def test_repetition_ignores_case_and_spacing() -> None:
    variants = [BLURB, BLURB.upper(), BLURB.replace(" ", "  ")]
    documents = [page(i, f"Intro {i}.", variant) for i, variant in enumerate(variants)]

    result = strip_repeated_passages(documents)

    assert [document.text for document in result[1:]] == ["Intro 1.", "Intro 2."]


def test_document_left_empty_is_dropped() -> None:
    documents = [*pages_with(BLURB, 3), page(9, BLURB)]

    result = strip_repeated_passages(documents)

    assert [document.source for document in result] == ["page-0", "page-1", "page-2"]


def test_documents_without_repetition_are_unchanged() -> None:
    documents = [page(i, f"Texte propre à la page numéro {i}, sans aucune répétition.") for i in range(4)]
    before = [document.text for document in documents]

    result = strip_repeated_passages(documents)

    assert [document.text for document in result] == before


def test_blank_lines_left_by_a_removal_are_collapsed() -> None:
    documents = [Document(f"Haut {i}.\n\n{BLURB}\n\nBas {i}.", f"p{i}", "t") for i in range(3)]

    result = strip_repeated_passages(documents)

    assert result[1].text == "Haut 1.\n\nBas 1."
