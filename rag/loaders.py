"""Load JSON Lines pages and Markdown/text folders into cleaned, de-duplicated documents."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from rag.boilerplate import strip_repeated_passages
from rag.cleaning import clean_text, content_key
from rag.confine import AllowedRoots
from rag.documents import Document, LoadIssue
from rag.front_matter import split_front_matter

logger = logging.getLogger(__name__)

TEXT_SUFFIXES = {".md", ".markdown", ".txt"}
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
_FIRST_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_PAGE_TITLE_SEPARATOR = " | "
# A text file is read up to this many times the character cap: enough to fill the cap after cleaning
# (which drops markup and blank runs), never the whole of a huge file.
READ_FACTOR = 2
OUTSIDE_ROOTS = "a symbolic link to a place outside the folders the app may index: not read"


@dataclass
class LoadResult:
    """Documents that loaded, plus every problem met on the way."""

    documents: list[Document] = field(default_factory=list)
    issues: list[LoadIssue] = field(default_factory=list)
    cut: list[LoadIssue] = field(default_factory=list)  # records kept only up to the character cap
    warnings: list[LoadIssue] = field(default_factory=list)  # files indexed, with a problem to fix
    records_read: int = 0


def load_sources(
    paths: Iterable[Path], max_record_chars: int | None = None, allowed: AllowedRoots | None = None
) -> LoadResult:
    """Load every supported file under ``paths`` (files or folders), then de-duplicate.

    A record (a JSON Lines page or a file) longer than ``max_record_chars`` keeps its beginning,
    cut at a paragraph break, and is reported in ``cut``. With ``allowed``, a file whose real path
    (symbolic links resolved) lies outside those roots is skipped and reported, never read.
    """
    result = LoadResult()
    for root in paths:
        root = Path(root)
        if not root.exists():
            result.issues.append(LoadIssue(str(root), None, "path does not exist"))
            continue
        for file in _iter_files(root):
            if allowed is not None and not allowed.contains(file):
                result.issues.append(LoadIssue(str(file), None, OUTSIDE_ROOTS))
                continue
            relative = file.relative_to(root) if root.is_dir() else Path(file.name)
            _load_file(file, relative, result, max_record_chars)
    result.documents = prepare_documents(result.documents)
    return result


def prepare_documents(documents: list[Document]) -> list[Document]:
    """De-duplicate, then drop passages repeated across documents: every source goes through this."""
    return strip_repeated_passages(deduplicate(documents))


def cap_text(text: str, limit: int) -> str:
    """The beginning of ``text`` up to ``limit`` characters, ending at a paragraph (else line) break."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    for separator in ("\n\n", "\n", " "):
        cut = head.rfind(separator)
        if cut > limit // 2:
            return head[:cut].rstrip()
    return head


def _iter_files(root: Path) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    for file in sorted(root.rglob("*")):
        hidden = any(part.startswith(".") for part in file.relative_to(root).parts)
        if file.is_file() and file.suffix.lower() in TEXT_SUFFIXES | JSONL_SUFFIXES and not hidden:
            yield file


def _load_file(file: Path, relative: Path, result: LoadResult, max_record_chars: int | None) -> None:
    suffix = file.suffix.lower()

    def keep(document: Document, line: int | None, read_whole: bool = True) -> None:
        result.records_read += 1
        if max_record_chars is not None and (len(document.text) > max_record_chars or not read_whole):
            size = f"{len(document.text):,} characters" if read_whole else f"{file.stat().st_size:,} bytes"
            document.text = cap_text(document.text, max_record_chars)
            message = f"cut to its first {len(document.text):,} characters of {size} (RAG_MAX_RECORD_CHARS)"
            result.cut.append(LoadIssue(str(file), line, message))
        result.documents.append(document)

    try:
        if suffix in JSONL_SUFFIXES:
            for line, document in _read_jsonl(file, result.issues):
                keep(document, line)
        elif suffix in TEXT_SUFFIXES:
            limit = None if max_record_chars is None else READ_FACTOR * max_record_chars
            text_document, read_whole = _read_text_file(file, relative, limit, result.warnings)
            if text_document is None:
                result.records_read += 1
                result.issues.append(LoadIssue(str(file), None, "no text after cleaning"))
            else:
                keep(text_document, None, read_whole)
        else:
            result.issues.append(LoadIssue(str(file), None, f"unsupported file type {suffix!r}"))
    except (OSError, UnicodeDecodeError) as error:
        result.issues.append(LoadIssue(str(file), None, f"unreadable: {error}"))


def _read_jsonl(file: Path, issues: list[LoadIssue]) -> Iterator[tuple[int, Document]]:
    """Records one line at a time, with their line numbers: a line that is not UTF-8 or not JSON
    is reported (file:line) and skipped, and the lines after it are still read."""
    with file.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                issues.append(LoadIssue(str(file), number, f"not UTF-8 (byte {error.start + 1} of the line)"))
                continue
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                issues.append(LoadIssue(str(file), number, f"invalid JSON: {error.msg}"))
                continue
            document = page_from_record(record)
            if isinstance(document, str):
                issues.append(LoadIssue(str(file), number, document))
            else:
                yield number, document


def page_from_record(record: object) -> Document | str:
    """Turn one ``{"url", "text", ...}`` record into a document, or say why it cannot be."""
    if not isinstance(record, dict):
        return "record is not a JSON object"
    url, text = record.get("url"), record.get("text")
    if not isinstance(url, str) or not url.strip():
        return "missing 'url'"
    if not isinstance(text, str):
        return "missing 'text'"
    text = clean_text(text)
    if not text:
        return "empty 'text'"
    extra = {
        key: value
        for key, value in record.items()
        if key not in {"url", "text", "title", "category"} and isinstance(value, str | int | float | bool)
    }
    title = record.get("title") if isinstance(record.get("title"), str) else None
    category = record.get("category") if isinstance(record.get("category"), str) else None
    return Document(
        text=text,
        source=url.strip(),
        title=title or _page_title(text, url),
        category=category or _url_category(url),
        metadata=extra,
    )


def _page_title(text: str, url: str) -> str:
    head = text[:160]
    if _PAGE_TITLE_SEPARATOR in head:
        return head.split(_PAGE_TITLE_SEPARATOR, 1)[0].strip()
    slug = urlparse(url).path.rstrip("/").rsplit("/", 1)[-1]
    return slug.replace("-", " ").strip() or url


def _url_category(url: str) -> str:
    segments = [part for part in urlparse(url).path.split("/") if part]
    return segments[0] if segments else ""


def _read_text_file(
    file: Path, relative: Path, limit: int | None, warnings: list[LoadIssue]
) -> tuple[Document | None, bool]:
    """The file as a document (None: no text), read up to ``limit`` characters; and whether it was
    read whole. Its front matter gives the official page it summarises and is not text."""
    with file.open(encoding="utf-8-sig") as handle:
        raw = handle.read() if limit is None else handle.read(limit)
        read_whole = limit is None or not handle.read(1)
    front = split_front_matter(raw.replace("\r\n", "\n"))
    if front.problem:
        warnings.append(LoadIssue(str(file), None, front.problem))
    text = clean_text(front.text)
    if not text:
        return None, read_whole
    heading = _FIRST_HEADING.search(text)
    title = heading.group(1).strip() if heading else file.stem.replace("_", " ")
    document = Document(
        text=text,
        source=relative.as_posix(),
        title=title,
        category=relative.parent.as_posix() if relative.parent != Path(".") else "",
        url=front.url,
    )
    return document, read_whole


def deduplicate(documents: list[Document]) -> list[Document]:
    """Index identical content once, keeping every URL/path it appeared under.

    Records sharing a source (the same URL scraped twice) are versions of one page: the most
    complete text is kept. Records sharing their text under different sources are merged.
    """
    by_source: dict[str, Document] = {}
    for document in documents:
        kept = by_source.get(document.source)
        if kept is None or len(document.text) > len(kept.text):
            by_source[document.source] = document
    by_content: dict[str, Document] = {}
    for document in by_source.values():
        key = content_key(document.text)
        kept = by_content.get(key)
        if kept is None:
            by_content[key] = document
            continue
        for source in document.sources:
            if source not in kept.sources:
                kept.sources.append(source)
    return list(by_content.values())
