"""Indexing progress: passages per second and time left."""

from __future__ import annotations

from rag.rate import EmbeddingRate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def rate_after(total: int, seconds: float, embedded: int) -> EmbeddingRate:
    """A rate tracker for ``total`` passages, ``embedded`` of them done after ``seconds``."""
    clock = Clock()
    rate = EmbeddingRate(clock)
    rate.start(total)
    clock.now += seconds
    rate.advance(embedded)
    return rate


def test_nothing_is_promised_before_the_first_group() -> None:
    rate = rate_after(100, 5.0, 0)

    assert rate.per_second is None
    assert rate.describe() == ""


def test_rate_and_time_left_follow_the_passages_embedded() -> None:
    rate = rate_after(1000, 8.0, 64)

    assert rate.per_second == 8.0
    assert rate.seconds_left == (1000 - 64) / 8.0
    assert rate.describe() == "8.0 passages/s, about 1 min 57 s left"


def test_short_remainders_are_given_in_seconds() -> None:
    assert rate_after(70, 8.0, 64).describe() == "8.0 passages/s, about 1 s left"
