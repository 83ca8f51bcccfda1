"""Streamed citations use the final numbering from the first token: a number never changes."""

from __future__ import annotations

import pytest

from agents.answer.compose import compose_answer
from agents.answer.numbering import CitationStream, SourceNumbering
from rag.passage import Passage

PAGE = "https://example.org/horaires"


def _evidence() -> list[Passage]:
    return [
        Passage(chunk_id="a", number=1, title="Tarifs", source="https://example.org/tarifs", text="21 €."),
        Passage(chunk_id="b", number=4, title="Horaires", source=PAGE, text="9 h."),
        Passage(chunk_id="c", number=9, title="Horaires", source=PAGE, text="18 h 30."),
    ]


ANSWER = "Ouvert de 9 h [4] à 18 h 30 [9][12]. Billet : 21 € [1, 4]."


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 200])
def test_streamed_pieces_of_any_size_read_as_the_final_answer(size: int) -> None:
    stream = CitationStream(SourceNumbering(_evidence()))
    pieces = [ANSWER[i : i + size] for i in range(0, len(ANSWER), size)]

    streamed = "".join(stream.feed(piece) for piece in pieces) + stream.flush()

    assert streamed == compose_answer(ANSWER, _evidence()).answer.text
    assert streamed == "Ouvert de 9 h [1] à 18 h 30 [1]. Billet : 21 € [2][1]."


def test_a_citation_split_between_pieces_is_held_back_until_complete() -> None:
    stream = CitationStream(SourceNumbering(_evidence()))

    assert stream.feed("Billet [") == "Billet "
    assert stream.feed("1") == ""
    assert stream.feed("] ok") == "[1] ok"


def test_the_answer_lists_each_source_once_with_its_cited_passages_in_reading_order() -> None:
    reply = compose_answer(ANSWER, _evidence()).answer

    assert [(c.number, c.title) for c in reply.citations] == [(1, "Horaires"), (2, "Tarifs")]
    assert [p.number for p in reply.citations[0].passages] == [4, 9]
    assert reply.removed_citations == [12]
    assert reply.shown_numbers() == {4: 1, 9: 1, 1: 2}
