"""Chunking: bounded size, heading path kept, content-derived ids."""

from __future__ import annotations

import pytest

from rag.chunking import DocumentChunker, chunk_id
from rag.documents import Document

GUIDE = (
    """# Gardens guide

Intro paragraph about the gardens of the estate.

## Fountains

### Musical fountain shows

The fountains play to music on weekends from April to October. """
    + " ".join(f"Sentence number {i} describes one more grove and its fountain." for i in range(30))
    + """

## Groves

The groves are open when the shows run.
"""
)


def _document(text: str = GUIDE, title: str = "Gardens guide") -> Document:
    return Document(text=text, source="estate/gardens.md", title=title, category="estate")


def test_every_chunk_fits_the_chunk_size() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")

    assert len(chunks) > 5
    assert all(len(chunk.text) <= 200 for chunk in chunks)


def test_a_long_word_without_separators_is_still_bounded() -> None:
    document = _document("x" * 1000, title="Blob")

    chunks = DocumentChunker(chunk_size=150, chunk_overlap=20).split(document, "en")

    assert all(len(chunk.text) <= 150 for chunk in chunks)
    assert "".join(chunk.text for chunk in chunks).count("x") >= 1000


def test_heading_path_is_kept_below_the_title() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")

    [groves] = [chunk for chunk in chunks if "The groves are open" in chunk.text]
    assert groves.headings == "Groves"
    musical = [chunk for chunk in chunks if "Sentence number 10 " in chunk.text]
    assert musical
    assert all(chunk.headings == "Fountains > Musical fountain shows" for chunk in musical)


def test_embedding_text_starts_with_title_and_heading_path() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")

    [groves] = [chunk for chunk in chunks if "The groves are open" in chunk.text]
    assert groves.embedding_text.startswith("Gardens guide > Groves\n")
    assert groves.embedding_text.endswith(groves.text)


def test_chunks_carry_document_fields_in_reading_order() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "fr")

    assert [chunk.position for chunk in chunks] == list(range(len(chunks)))
    assert {(c.source, c.category, c.language, c.title) for c in chunks} == {
        ("estate/gardens.md", "estate", "fr", "Gardens guide")
    }


def test_ids_are_stable_across_runs() -> None:
    first = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")
    second = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")

    assert [chunk.chunk_id for chunk in first] == [chunk.chunk_id for chunk in second]
    assert len({chunk.chunk_id for chunk in first}) == len(first)
    assert all(chunk.chunk_id == chunk_id(chunk.embedding_text) for chunk in first)


def test_changing_one_section_changes_only_its_ids() -> None:
    chunker = DocumentChunker(chunk_size=200, chunk_overlap=40)
    before = chunker.split(_document(), "en")
    edited = GUIDE.replace("The groves are open when the shows run.", "The groves close at dusk.")
    after = chunker.split(_document(edited), "en")

    changed = {c.chunk_id for c in after} ^ {c.chunk_id for c in before}
    assert {c.headings for c in before + after if c.chunk_id in changed} == {"Groves"}
    assert len(changed) == 2


def test_overlap_must_be_smaller_than_size() -> None:
    with pytest.raises(ValueError, match="chunk_overlap"):
        DocumentChunker(chunk_size=100, chunk_overlap=100)


def test_no_chunk_is_made_of_headings_only() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(_document(), "en")

    heading_only = [
        c.text for c in chunks if all(line.lstrip().startswith("#") for line in c.text.splitlines())
    ]
    assert heading_only == []


def test_a_list_of_questions_without_answers_is_left_out() -> None:
    faq = (
        "# FAQ\n\n## Questions\n\nWhere can I leave my bags?\nAre dogs allowed in the gardens?\n"
        "Can I pay by card at the ticket office?\n\n"
        "## Answers\n\nAre dogs allowed in the gardens?\nDogs on a lead are welcome in the park."
    )
    chunks = DocumentChunker(chunk_size=80, chunk_overlap=10).split(_document(faq, "FAQ"), "en")

    assert chunks
    assert all("Dogs on a lead are welcome" in chunk.text for chunk in chunks)


def test_a_document_of_questions_only_is_kept_whole() -> None:
    chunks = DocumentChunker(chunk_size=200, chunk_overlap=40).split(
        _document("Where can I leave my bags?\nAre dogs allowed?", "FAQ"), "en"
    )

    assert [chunk.text for chunk in chunks] == ["Where can I leave my bags?\nAre dogs allowed?"]
