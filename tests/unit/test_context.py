"""Joining consecutive chunks and widening hits with their neighbours within a budget."""

from __future__ import annotations

from rag.context import Neighbour, join_overlapping, widen
from rag.passage import Passage

# One document cut into four consecutive chunks, each 20 characters long, without overlap.
CHUNKS = {
    "c0": "Aaaa aaaa aaaa aaaa.",
    "c1": "Bbbb bbbb bbbb bbbb.",
    "c2": "Cccc cccc cccc cccc.",
    "c3": "Dddd dddd dddd dddd.",
}
ORDER = list(CHUNKS)


def hit(chunk_id: str) -> Passage:
    return Passage(
        chunk_id=chunk_id,
        text=CHUNKS[chunk_id],
        title="Doc",
        source="doc.md",
        sources=["doc.md"],
        category="",
        language="fr",
    )


def neighbours(found: Passage) -> tuple[Neighbour | None, Neighbour | None]:
    i = ORDER.index(found.chunk_id)
    before = Neighbour(ORDER[i - 1], CHUNKS[ORDER[i - 1]]) if i > 0 else None
    after = Neighbour(ORDER[i + 1], CHUNKS[ORDER[i + 1]]) if i + 1 < len(ORDER) else None
    return before, after


def no_neighbours(found: Passage) -> tuple[Neighbour | None, Neighbour | None]:
    return None, None


def test_join_overlapping_removes_the_shared_seam() -> None:
    joined = join_overlapping("Le parc ouvre à 8 h. Il ferme", "Il ferme à 20 h en été.")

    assert joined == "Le parc ouvre à 8 h. Il ferme à 20 h en été."


def test_join_overlapping_without_overlap_uses_a_newline() -> None:
    assert (
        join_overlapping("Le parc ouvre à 8 h.", "Il ferme à 20 h.")
        == "Le parc ouvre à 8 h.\nIl ferme à 20 h."
    )


def test_join_overlapping_ignores_overlap_longer_than_max_overlap() -> None:
    assert join_overlapping("xx abcdef", "abcdef yy", max_overlap=3) == "xx abcdef\nabcdef yy"


def test_join_overlapping_does_not_merge_words_on_a_chance_match() -> None:
    # "château" ends with "au" and the next chunk starts with the word "au": not a shared seam.
    assert join_overlapping("Visite du château", "au jardin") == "Visite du château\nau jardin"


def test_widen_returns_at_most_k_passages() -> None:
    passages = widen([hit("c0"), hit("c1"), hit("c2"), hit("c3")], k=2, budget=1000, neighbours=no_neighbours)

    assert [passage.chunk_id for passage in passages] == ["c0", "c1"]


def test_widen_appends_the_following_chunk() -> None:
    (passage,) = widen([hit("c1")], k=1, budget=41, neighbours=neighbours)

    assert passage.text == f"{CHUNKS['c1']}\n{CHUNKS['c2']}"


def test_widen_prepends_the_preceding_chunk_when_it_fits() -> None:
    (passage,) = widen([hit("c1")], k=1, budget=62, neighbours=neighbours)

    assert passage.text == f"{CHUNKS['c0']}\n{CHUNKS['c1']}\n{CHUNKS['c2']}"


def test_widen_keeps_the_chunk_alone_when_no_neighbour_fits() -> None:
    (passage,) = widen([hit("c1")], k=1, budget=40, neighbours=neighbours)

    assert passage.text == CHUNKS["c1"]


def test_widen_respects_the_budget() -> None:
    passages = widen([hit("c1"), hit("c3")], k=2, budget=50, neighbours=neighbours)

    assert all(len(passage.text) <= 50 for passage in passages)


def test_widen_records_the_number_of_chunks_in_a_passage() -> None:
    (passage,) = widen([hit("c1")], k=1, budget=62, neighbours=neighbours)

    assert passage.scores["passage_chunks"] == 3.0


def test_widen_does_not_show_a_neighbour_already_shown() -> None:
    first, second = widen([hit("c1"), hit("c3")], k=2, budget=41, neighbours=neighbours)

    assert first.text == f"{CHUNKS['c1']}\n{CHUNKS['c2']}"
    assert second.text == CHUNKS["c3"]


def test_widen_skips_a_hit_already_shown_as_a_neighbour() -> None:
    passages = widen([hit("c1"), hit("c2"), hit("c3")], k=2, budget=41, neighbours=neighbours)

    assert [passage.chunk_id for passage in passages] == ["c1", "c3"]


def test_widen_skips_a_repeated_hit() -> None:
    passages = widen([hit("c0"), hit("c0"), hit("c3")], k=2, budget=10, neighbours=neighbours)

    assert [passage.chunk_id for passage in passages] == ["c0", "c3"]
