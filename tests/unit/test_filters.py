"""Search filters on chunk metadata (pure)."""

from __future__ import annotations

from rag.filters import SearchFilters

META = {
    "category": "estate/gardens",
    "source": "https://x.test/fr/jardins",
    "sources": ["https://x.test/fr/jardins", "guides/jardins.md"],
    "language": "fr",
}


def test_no_filter_is_inactive_and_keeps_everything() -> None:
    assert not SearchFilters().active
    assert SearchFilters().matches(META)


def test_category_matches_itself_and_below() -> None:
    assert SearchFilters(categories=("estate",)).matches(META)
    assert SearchFilters(categories=("estate/",)).matches(META)
    assert SearchFilters(categories=("estate/gardens",)).matches(META)


def test_category_prefix_must_end_at_a_folder_boundary() -> None:
    assert not SearchFilters(categories=("est",)).matches(META)
    assert not SearchFilters(categories=("estate/garden",)).matches(META)


def test_any_of_several_categories() -> None:
    assert SearchFilters(categories=("visit", "estate")).matches(META)
    assert not SearchFilters(categories=("visit", "transport")).matches(META)


def test_source_prefix_checks_every_source() -> None:
    assert SearchFilters(source_prefix="guides/").matches(META)
    assert SearchFilters(source_prefix="https://x.test/fr/").matches(META)
    assert not SearchFilters(source_prefix="https://x.test/en/").matches(META)


def test_source_prefix_falls_back_to_source() -> None:
    meta = {"source": "guides/a.md"}

    assert SearchFilters(source_prefix="guides/").matches(meta)


def test_language() -> None:
    assert SearchFilters(languages=("fr", "en")).matches(META)
    assert not SearchFilters(languages=("en",)).matches(META)


def test_every_set_filter_must_pass() -> None:
    assert not SearchFilters(categories=("estate",), languages=("en",)).matches(META)
