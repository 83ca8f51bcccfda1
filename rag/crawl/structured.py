"""The schema.org JSON-LD blocks of a fetched page (``<script type="application/ld+json">``), kept
beside its text so that structured facts (opening hours, offers) are read as data, not from prose."""

from __future__ import annotations

import json
from typing import Any

MAX_BLOCKS = 20  # blocks read of one page
MAX_BLOCK_BYTES = 200_000  # a block larger than this is not a page's facts


def json_ld(html: bytes) -> list[dict[str, Any]]:
    """The JSON-LD objects of ``html``, each ``@graph`` flattened; a block that is not JSON is skipped."""
    from lxml import etree

    parser = etree.HTMLPullParser(events=("end",), tag="script", no_network=True)
    try:
        parser.feed(html)
        parser.close()
    except etree.LxmlError:  # an empty or binary body has none
        return []
    found: list[dict[str, Any]] = []
    for _, element in parser.read_events():
        if (element.get("type") or "").strip().lower() != "application/ld+json" or len(found) >= MAX_BLOCKS:
            continue
        text = element.text or ""
        if len(text) > MAX_BLOCK_BYTES:
            continue
        try:
            value = json.loads(text)
        except ValueError:
            continue
        found += [item for item in _objects(value) if isinstance(item, dict)]
    return found


def _objects(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [item for entry in value for item in _objects(entry)]
    if isinstance(value, dict) and isinstance(value.get("@graph"), list):
        return [item for entry in value["@graph"] for item in _objects(entry)]
    return [value]
