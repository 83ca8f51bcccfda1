"""Split documents into chunks the embedding model reads whole, each keeping its heading path.

Markdown is cut into sections first; consecutive small sections are packed together up to the
chunk size (a lone "Opening hours" heading with one line is too thin to retrieve on its own), and
sections larger than the chunk size are split on paragraph, line, then sentence boundaries.
A piece of questions without answers (a FAQ page's list of its questions) is left out: it answers
nothing, and the embedder put it close to any question.
"""

from __future__ import annotations

import hashlib
import re

from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

from rag.documents import Chunk, Document
from rag.sentences import labelled_sentences

_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3"), ("####", "h4")]
_SEPARATORS = ["\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ", ""]
_LINE_END_SPACES = re.compile(r"[ \t]+\n")


def chunk_id(source_text: str) -> str:
    """Content-derived id: the same chunk text always gets the same id."""
    return hashlib.sha256(source_text.encode("utf-8")).hexdigest()[:32]


def _headings_only(text: str) -> bool:
    """True for a piece holding nothing but heading lines (its path is kept in metadata)."""
    return all(line.lstrip().startswith("#") for line in text.splitlines() if line.strip())


def _questions_only(text: str, language: str) -> bool:
    """True for a piece asking questions and stating nothing a reader could quote."""
    asks = any(line.strip(" |").endswith(("?", "？")) for line in text.splitlines())
    return asks and not labelled_sentences(text, language)


class DocumentChunker:
    """Section-aware packing of Markdown, size-bounded recursive splitting of everything else."""

    def __init__(self, chunk_size: int, chunk_overlap: int) -> None:
        if chunk_overlap >= chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        self.chunk_size = chunk_size
        self.sections = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=False)
        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            separators=_SEPARATORS,
            keep_separator="end",
        )

    def split(self, document: Document, language: str) -> list[Chunk]:
        """Chunks of one document, in reading order."""
        chunks: list[Chunk] = []
        pieces = self._pieces(document)
        answering = [(path, text) for path, text in pieces if not _questions_only(text, language)]
        for headings, body in answering or pieces:  # a document of questions only is kept whole
            chunk = Chunk(
                chunk_id="",
                text=body,
                title=document.title,
                headings=headings,
                source=document.source,
                sources=list(document.sources),
                category=document.category,
                language=language,
                position=len(chunks),
                url=document.url,
            )
            chunk.chunk_id = chunk_id(chunk.embedding_text)
            chunks.append(chunk)
        return chunks

    def _pieces(self, document: Document) -> list[tuple[str, str]]:
        """(heading path, text) pieces no longer than the chunk size."""
        pieces: list[tuple[str, str]] = []
        pending_path, pending = "", ""
        for path, section in self._sections(document):
            if len(section) > self.chunk_size:
                if pending:
                    pieces.append((pending_path, pending))
                    pending = ""
                parts = (part.strip() for part in self.splitter.split_text(section))
                pieces.extend((path, part) for part in parts if not _headings_only(part))
                continue
            if pending and len(pending) + 2 + len(section) > self.chunk_size:
                pieces.append((pending_path, pending))
                pending = ""
            if not pending:
                pending_path, pending = path, section
            else:
                pending = f"{pending}\n\n{section}"
        if pending:
            pieces.append((pending_path, pending))
        return [(path, text) for path, text in pieces if text]

    def _sections(self, document: Document) -> list[tuple[str, str]]:
        if "\n#" not in f"\n{document.text}":
            return [("", document.text.strip())]
        sections = []
        for part in self.sections.split_text(document.text):
            path = [str(part.metadata[key]) for _, key in _HEADERS if key in part.metadata]
            if path and path[0] == document.title:
                path = path[1:]
            text = _LINE_END_SPACES.sub("\n", part.page_content).strip()
            if text:
                sections.append((" > ".join(path), text))
        return sections
