"""Plain data shapes shared by loading, chunking, indexing and retrieval."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Document:
    """One source document after cleaning; ``sources`` keeps every URL/path it was seen under."""

    text: str
    source: str
    title: str
    category: str = ""
    sources: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    url: str = ""  # the official page a guide summarises (its front matter), when not ``source`` itself

    def __post_init__(self) -> None:
        if not self.sources:
            self.sources = [self.source]


@dataclass(frozen=True)
class LoadIssue:
    """A line or file that could not be read; reported, then skipped."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class Chunk:
    """A piece of a document, sized for the embedding model, with its heading context."""

    chunk_id: str
    text: str
    title: str
    headings: str
    source: str
    sources: list[str]
    category: str
    language: str
    position: int
    url: str = ""  # the official page of its document, shown as the link (``source`` stays its identity)

    @property
    def embedding_text(self) -> str:
        """Text given to the embedder and BM25: the heading path first, so a chunk stands alone."""
        context = " > ".join(part for part in (self.title, self.headings) if part)
        return f"{context}\n{self.text}" if context else self.text

    def to_metadata(self) -> dict[str, Any]:
        """Chroma metadata (scalars and string lists only)."""
        return {
            "title": self.title,
            "headings": self.headings,
            "source": self.source,
            "sources": self.sources,
            "category": self.category,
            "language": self.language,
            "position": self.position,
            # only when set, so chunks of pages and guides without a link keep their metadata as it was
            **({"url": self.url} if self.url else {}),
        }
