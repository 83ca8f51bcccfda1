"""Files an operator uploads in the app: kept beside the index within size and count limits,
listed, removed (with their chunks), and indexed with the allowed folders and a progress callback."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rag.config import RagSettings
from rag.confine import AllowedRoots
from rag.embeddings import Embedder
from rag.errors import RagError
from rag.indexer import IndexReport, drop_sources, index_corpus, unlisted_chunks
from rag.loaders import JSONL_SUFFIXES, TEXT_SUFFIXES, load_sources
from rag.rate import EmbeddingRate
from rag.store import IndexMissingError

UPLOAD_SUFFIXES = sorted(suffix.lstrip(".") for suffix in TEXT_SUFFIXES | JSONL_SUFFIXES)

OnProgress = Callable[[float, str], object]  # fraction done (0-1), a sentence saying where it is


def uploads_folder(settings: RagSettings) -> Path:
    """Where uploaded files are kept, beside the index they were indexed into."""
    return settings.index_dir / "uploads"


class UploadError(RagError, ValueError):
    """An upload refused (type, size, count, unknown name); nothing was written or removed."""


@dataclass(frozen=True)
class UploadedFile:
    """One kept upload, as the operator console lists it."""

    name: str
    size: int
    modified: datetime


def app_roots(settings: RagSettings) -> AllowedRoots:
    """Folders the app may index: ``RAG_APP_INDEX_ROOTS`` plus its own uploads folder."""
    return AllowedRoots([*settings.app_index_roots, uploads_folder(settings)])


def list_uploads(settings: RagSettings) -> list[UploadedFile]:
    """Kept uploads, by name."""
    folder = uploads_folder(settings)
    if not folder.is_dir():
        return []
    return [
        UploadedFile(path.name, stat.st_size, datetime.fromtimestamp(stat.st_mtime, UTC))
        for path in sorted(folder.iterdir())
        if path.is_file() and not path.is_symlink() and (stat := path.stat())
    ]


MAX_NAME_BYTES = 255  # the longest file name most file systems take


def _refusal(name: str, size: int, settings: RagSettings, folder: Path) -> str | None:
    """Why one file of a batch cannot be kept, or None."""
    if Path(name).suffix.lower().lstrip(".") not in UPLOAD_SUFFIXES or name.startswith("."):
        return f"{name!r} cannot be indexed: upload {', '.join(UPLOAD_SUFFIXES)} files."
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES or not name.isprintable():
        return (
            f"{name[:40]!r}… cannot be kept: give it a shorter name in plain characters "
            f"(at most {MAX_NAME_BYTES} bytes); nothing was uploaded."
        )
    if size > int(settings.upload_max_mb * 1024 * 1024):
        return (
            f"{name!r} is {size / 1024 / 1024:.1f} MB, more than the {settings.upload_max_mb:g} MB an upload "
            "may be (RAG_UPLOAD_MAX_MB): nothing was uploaded."
        )
    target = folder / name
    if target.exists() and not target.is_file() and not target.is_symlink():
        return f"{name!r} is a folder in the uploads folder: rename the file; nothing was uploaded."
    return None


def save_uploads(files: Iterable[tuple[str, bytes]], settings: RagSettings) -> list[Path]:
    """Write ``(name, content)`` pairs into the uploads folder; names are reduced to their last part.

    Every file is checked first (type, name, ``RAG_UPLOAD_MAX_MB``, ``RAG_UPLOAD_MAX_FILES`` counting
    those kept), then written beside the folder's files and moved in only once all are written, so
    a refused or failed batch leaves nothing. Raises :class:`UploadError` with the reason.
    """
    folder = uploads_folder(settings)
    batch = [(Path(name).name, content) for name, content in files]
    for name, content in batch:
        if (refusal := _refusal(name, len(content), settings, folder)) is not None:
            raise UploadError(refusal)
    kept = {upload.name for upload in list_uploads(settings)}
    total = len(kept | {name for name, _ in batch})
    if total > settings.upload_max_files:
        raise UploadError(
            f"{total} uploaded files would be kept, more than {settings.upload_max_files} "
            "(RAG_UPLOAD_MAX_FILES): remove some first; nothing was uploaded."
        )
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=_made(folder)))  # hidden: never indexed
    staged: list[tuple[Path, Path]] = []
    try:
        for number, (name, content) in enumerate(batch):
            (staged_path := staging / str(number)).write_bytes(content)
            staged.append((staged_path, folder / name))
        for staged_path, path in staged:
            os.replace(staged_path, path)  # replaces a symbolic link itself, never writes through it
    except OSError as error:
        raise UploadError(
            f"The uploads could not be written ({error.strerror or error}): nothing was uploaded."
        ) from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [path for _, path in staged]


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def remove_upload(name: str, settings: RagSettings) -> int:
    """Remove one upload and the chunks only it provided; returns how many chunks were removed.

    The chunks go first, so a failure leaves the file to index or remove again; chunks of a page
    also listed elsewhere (same URL or text) stay.
    """
    path = uploads_folder(settings) / Path(name).name
    if Path(name).name != name or not path.is_file() or path.is_symlink():
        raise UploadError(f"No uploaded file named {name!r}: nothing was removed.")
    sources = {source for document in load_sources([path]).documents for source in document.sources}
    try:
        removed = drop_sources(sources, settings) if sources else 0
    except IndexMissingError:
        removed = 0
    path.unlink()
    return removed


class CallbackProgress:
    """The indexer's progress protocol reported as (fraction, message) to a callback (a UI bar)."""

    def __init__(self, on_progress: OnProgress) -> None:
        self.on_progress = on_progress
        self.rate = EmbeddingRate()

    def start(self, documents: int, chunks: int, to_embed: int) -> None:
        self.rate.start(to_embed)
        self.on_progress(0.0, f"{documents} documents, {chunks} chunks; {to_embed} to embed")

    def advance(self, embedded: int) -> None:
        self.rate.advance(embedded)
        done, total = self.rate.done, self.rate.total
        fraction = done / total if total else 1.0
        message = f"embedded {done} of {total} passages"
        if pace := self.rate.describe():
            message += f" ({pace})"
        self.on_progress(min(fraction, 1.0), message)

    def finish(self) -> None:
        self.on_progress(1.0, "done")


def _with_uploads(local_paths: Sequence[Path], settings: RagSettings) -> list[Path]:
    paths = [*local_paths]
    uploads = uploads_folder(settings)
    if uploads.is_dir() and any(uploads.iterdir()):
        paths.append(uploads)
    if not paths:
        raise ValueError("Nothing to index: upload files or give a local folder (e.g. data/corpus).")
    return paths


def prune_preview(local_paths: Sequence[Path], settings: RagSettings) -> int:
    """Chunks that removing documents not listed (``local_paths`` plus the uploads) would remove.

    Raises :class:`UploadError` when a file fails to load: removal waits until every listed file reads.
    """
    count, issues = unlisted_chunks(_with_uploads(local_paths, settings), settings, app_roots(settings))
    if issues:
        raise UploadError(f"{issues[0]}: fix or remove this file first; nothing was removed.")
    return count


def index_with_uploads(
    local_paths: Sequence[Path],
    settings: RagSettings,
    on_progress: OnProgress,
    embedder: Embedder | None = None,
    prune: bool = False,
) -> IndexReport:
    """Index ``local_paths`` plus every file uploaded so far.

    Adds and updates only: documents indexed before and not listed now stay in the index (removing
    them is ``python -m rag index --prune``). A folder outside :func:`app_roots` (symbolic links
    resolved), one that does not exist or holds no document is refused with a sentence and nothing
    is indexed or removed. ``prune`` (the console's confirmed removal, after :func:`prune_preview`)
    also removes the documents not listed.
    """
    return index_corpus(
        _with_uploads(local_paths, settings),
        settings,
        embedder=embedder,
        progress=CallbackProgress(on_progress),
        allowed=app_roots(settings),
        prune=prune,
    )
