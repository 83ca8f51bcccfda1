"""Spot a run where many pages changed at once to the same text: a maintenance page or an error
template served with 200, which must not replace the site's content in the index.

Pure functions. A run is suspicious when, among the pages fetched again this run (updated,
unchanged or not modified), at least ``MIN_PAGES`` and at least ``MIN_SHARE`` of them had their
text replaced (less than ``REPLACED`` of it left) by texts near-identical to each other: the same
words in the same order but for a few (a date, a request id, the page's own address), measured as
the overlap of word 3-shingles with every number read as the same word. Ordinary edits give pages
texts unlike each other; a banner added to every page, or new figures in every page of a catalogue,
leave each page most of its text: neither counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MIN_PAGES = 3
MIN_SHARE = 0.3
NEAR_IDENTICAL = 0.6  # Jaccard overlap of word 3-shingles; distinct pages of one site stay far below
REPLACED = 0.5  # a new text sharing less than this with the old one replaced it (not an edit)
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


def largest_template(texts: Mapping[str, str]) -> list[str]:
    """The URLs of the largest group of pages whose texts are near-identical to each other."""
    groups: list[tuple[frozenset[tuple[str, ...]], list[str]]] = []
    for url, text in texts.items():
        mark = shingles(text)
        for first, members in groups:
            if overlap(first, mark) >= NEAR_IDENTICAL:
                members.append(url)
                break
        else:
            groups.append((mark, [url]))
    return max((members for _, members in groups), key=len, default=[])


def mass_change(changed: Mapping[str, tuple[str, str]], refetched: int) -> list[str]:
    """The URLs to hold back when ``changed`` (URL to old and new text) looks like one template
    replacing a large share of the ``refetched`` pages; empty when the run looks like edits.

    Only a page whose new text has little in common with its old one counts (a replacement), so
    a catalogue whose every page changed its figures at once is updated as usual.
    """
    replaced = {
        url: new for url, (old, new) in changed.items() if overlap(shingles(old), shingles(new)) < REPLACED
    }
    template = largest_template(replaced)
    if len(template) >= MIN_PAGES and len(template) >= MIN_SHARE * refetched:
        return template
    return []
