"""Read the YAML front matter of a Markdown guide: the official page it summarises, kept out of its text.

A guide may open with a block between two ``---`` lines (the convention of static-site generators)::

    ---
    url: https://www.chateauversailles.fr/preparer-ma-visite/billets-tarifs
    ---

Only ``url`` is read today. A block that cannot be read is reported and dropped; the guide is still
indexed, only without its link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from rag.crawl.scope import is_web

# The opening line, the block, then the closing line (``---`` or YAML's ``...``), at the very start.
_BLOCK = re.compile(r"\A---[ \t]*\n(?P<body>.*?)^(?:---|\.\.\.)[ \t]*$\n?", re.DOTALL | re.MULTILINE)
_OPENING = re.compile(r"\A---[ \t]*\n")


@dataclass(frozen=True)
class FrontMatter:
    """A guide split into its official page (``""``: none) and its text, with any problem met."""

    url: str
    text: str
    problem: str | None = None  # one sentence for the operator: what is wrong, what to write


def split_front_matter(raw: str) -> FrontMatter:
    """The front matter's ``url`` and the text after the block; text without a block is unchanged."""
    match = _BLOCK.match(raw)
    if match is None:
        if _OPENING.match(raw) and _looks_like_fields(raw):
            return FrontMatter(
                "", raw, "front matter has no closing '---' line: read as text, without a link"
            )
        return FrontMatter("", raw)
    text = raw[match.end() :]
    try:
        fields = yaml.safe_load(match.group("body"))
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" (line {where.line + 2})" if where is not None else ""
        return FrontMatter("", text, f"front matter is not valid YAML{line}: indexed without a link")
    if fields is None:
        return FrontMatter("", text)
    if not isinstance(fields, dict):
        return FrontMatter(
            "", text, "front matter is not a list of 'key: value' lines: indexed without a link"
        )
    url = fields.get("url")
    if url is None:
        return FrontMatter("", text)
    if not isinstance(url, str) or not is_web(url):
        return FrontMatter("", text, "front matter 'url' is not an http(s) address: indexed without a link")
    return FrontMatter(url.strip(), text)


def _looks_like_fields(raw: str) -> bool:
    """Whether the line after an opening ``---`` reads ``key: value`` (else it is a rule, not a block)."""
    lines = raw.splitlines()
    return len(lines) > 1 and bool(re.match(r"^[A-Za-z_][\w-]*\s*:", lines[1]))
