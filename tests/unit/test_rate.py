"""Indexing progress: passages per second and time left."""

from __future__ import annotations

from rag.rate import EmbeddingRate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_nothing_is_promised_before_the_first_group() -> None:
    rate = EmbeddingRate(Clock())
    rate.start(100)

    assert rate.per_second is None
    assert rate.describe() == ""


def test_rate_and_time_left_follow_the_passages_embedded() -> None:
    clock = Clock()
    rate = EmbeddingRate(clock)
    rate.start(1000)
    clock.now += 8.0
    rate.advance(64)

    assert rate.per_second == 8.0
    assert rate.seconds_left == (1000 - 64) / 8.0
    assert rate.describe() == "8.0 passages/s, about 1 min 57 s left"


def test_short_remainders_are_given_in_seconds() -> None:
    clock = Clock()
    rate = EmbeddingRate(clock)
    rate.start(70)
    clock.now += 8.0
    rate.advance(64)

    assert rate.describe() == "8.0 passages/s, about 1 s left"
