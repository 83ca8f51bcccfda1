"""A query embedded once a turn: the search's vector is the one the reader reads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rag.query_memo import QueryMemo, remembering
from tests.conftest import HashingEmbedder


class CountingQueries(HashingEmbedder):
    """Counts the query texts it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.queries.extend(texts)
        return super().embed_queries(texts)


def test_the_search_query_is_not_embedded_again_by_the_reader() -> None:
    inner = CountingQueries()
    memo = QueryMemo(inner)

    searched = memo.embed_query("horaires du château")
    read = memo.embed_queries(["horaires du château", "prix du billet"])
    again = memo.embed_queries(["prix du billet", "horaires du château"])

    assert inner.queries == ["horaires du château", "prix du billet"]
    assert np.array_equal(read[0], searched) and np.array_equal(again[1], searched)
    assert np.array_equal(read, HashingEmbedder().embed_queries(["horaires du château", "prix du billet"]))


def test_the_least_recently_used_query_is_forgotten_past_the_limit() -> None:
    inner = CountingQueries()
    memo = QueryMemo(inner, limit=2)

    for text in ("a b", "c d", "e f", "a b"):
        memo.embed_query(text)

    assert inner.queries == ["a b", "c d", "e f", "a b"]


def test_passages_are_embedded_as_the_embedder_does_and_a_memo_is_not_wrapped_twice() -> None:
    inner = CountingQueries()
    memo = remembering(inner)

    memo.embed_documents(["une phrase"])

    assert inner.calls == 1 and memo.name == inner.name and memo.dimension == 64
    assert remembering(memo) is memo
