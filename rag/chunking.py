"""Split documents into chunks the embedding model reads whole, each keeping its heading path."""

from __future__ import annotations

import hashlib

from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

from rag.documents import Chunk, Document

_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3"), ("####", "h4")]
_SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]


def chunk_id(source_text: str) -> str:
    """Content-derived id: the same chunk text always gets the same id."""
    return hashlib.sha256(source_text.encode("utf-8")).hexdigest()[:32]


class DocumentChunker:
    """Markdown-aware splitting (sections first), then size-bounded recursive splitting."""

    def __init__(self, chunk_size: int, chunk_overlap: int) -> None:
        if chunk_overlap >= chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        self.sections = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=True)
        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            separators=_SEPARATORS,
            keep_separator="end",
        )

    def split(self, document: Document, language: str) -> list[Chunk]:
        """Chunks of one document, in reading order."""
        chunks: list[Chunk] = []
        for headings, body in self._sections(document):
            for piece in self.splitter.split_text(body):
                piece = piece.strip()
                if not piece:
                    continue
                chunk = Chunk(
                    chunk_id="",
                    text=piece,
                    title=document.title,
                    headings=headings,
                    source=document.source,
                    sources=list(document.sources),
                    category=document.category,
                    language=language,
                    position=len(chunks),
                )
                chunk.chunk_id = chunk_id(chunk.embedding_text)
                chunks.append(chunk)
        return chunks

    def _sections(self, document: Document) -> list[tuple[str, str]]:
        if "\n#" not in f"\n{document.text}":
            return [("", document.text)]
        sections = []
        for part in self.sections.split_text(document.text):
            path = [str(part.metadata[key]) for _, key in _HEADERS if key in part.metadata]
            if path and path[0] == document.title:
                path = path[1:]
            if part.page_content.strip():
                sections.append((" > ".join(path), part.page_content))
        return sections
