"""Spot a run where many pages changed at once to the same text: a maintenance page or an error
template served with 200, which must not replace the site's content in the index.

Pure functions. A run is suspicious when, among the pages fetched again this run (updated,
unchanged or not modified), at least ``MIN_PAGES`` and at least ``MIN_SHARE`` of them changed to
texts near-identical to each other: the same words in the same order but for a few (a date, a
request id, the page's own address), measured as the overlap of their word 3-shingles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MIN_PAGES = 3
MIN_SHARE = 0.3
NEAR_IDENTICAL = 0.6  # Jaccard overlap of word 3-shingles; distinct pages of one site stay far below
_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d+")


def shingles(text: str, size: int = 3) -> frozenset[tuple[str, ...]]:
    """The text's runs of ``size`` consecutive words, lower-cased, numbers alike (a short text is
    one run)."""
    words = [_DIGITS.sub("0", word) for word in _WORD.findall(text.lower())]
    if len(words) <= size:
        return frozenset({tuple(words)})
    return frozenset(tuple(words[i : i + size]) for i in range(len(words) - size + 1))


def overlap(first: frozenset[tuple[str, ...]], second: frozenset[tuple[str, ...]]) -> float:
    """Jaccard overlap of two shingle sets."""
    union = len(first | second)
    return len(first & second) / union if union else 1.0


def largest_template(changed: Mapping[str, str]) -> list[str]:
    """The URLs of the largest group of changed pages whose new texts are near-identical."""
    groups: list[tuple[frozenset[tuple[str, ...]], list[str]]] = []
    for url, text in changed.items():
        mark = shingles(text)
        for first, members in groups:
            if overlap(first, mark) >= NEAR_IDENTICAL:
                members.append(url)
                break
        else:
            groups.append((mark, [url]))
    return max((members for _, members in groups), key=len, default=[])


def mass_change(changed: Mapping[str, str], refetched: int) -> list[str]:
    """The URLs to hold back when ``changed`` (URL to new text) looks like one template over a
    large share of the ``refetched`` pages; empty when the run looks like ordinary edits."""
    template = largest_template(changed)
    if len(template) >= MIN_PAGES and len(template) >= MIN_SHARE * refetched:
        return template
    return []
