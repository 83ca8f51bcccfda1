"""Drop passages repeated across many documents (site menus, footers, shared blurbs).

Scraped pages repeat the same paragraphs (a restaurant blurb, a newsletter box) on dozens of
pages; indexed everywhere, they crowd the results with copies. Each such sentence is kept in the
first document holding it and removed from the others, so nothing is lost from the index.
"""

from __future__ import annotations

import re
from collections import Counter

from rag.documents import Document

_SEGMENTS = re.compile(r"(\n+|(?<=[.!?…])\s+(?=[«\"(\[A-ZÀ-ÖØ-Þ0-9]))")
MIN_CHARS = 40


def _key(segment: str) -> str:
    return " ".join(segment.casefold().split())


def _segments(text: str) -> list[str]:
    """Sentences and line breaks, alternating, so that joining them gives the text back."""
    return _SEGMENTS.split(text)


def strip_repeated_passages(documents: list[Document], min_documents: int = 3) -> list[Document]:
    """Remove sentences found in ``min_documents`` or more documents, except in the first one."""
    split = [_segments(document.text) for document in documents]
    frequency: Counter[str] = Counter()
    for parts in split:
        frequency.update({_key(part) for part in parts[::2] if len(part.strip()) >= MIN_CHARS})
    repeated = {key for key, count in frequency.items() if count >= min_documents}
    if not repeated:
        return documents
    seen: set[str] = set()
    kept_documents = []
    for document, parts in zip(documents, split, strict=True):
        kept: list[str] = []
        for i, part in enumerate(parts):
            if i % 2:
                kept.append(part)
                continue
            key = _key(part)
            if key in repeated:
                if key in seen:
                    continue
                seen.add(key)
            kept.append(part)
        text = re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()
        if text:
            document.text = text
            kept_documents.append(document)
    return kept_documents
