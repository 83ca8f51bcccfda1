"""Index files a user uploads (the app's sidebar) together with local folders, with a progress callback."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from rag.config import RagSettings
from rag.embeddings import Embedder
from rag.indexer import IndexReport, index_corpus
from rag.loaders import JSONL_SUFFIXES, TEXT_SUFFIXES
from rag.rate import EmbeddingRate

UPLOAD_SUFFIXES = sorted(suffix.lstrip(".") for suffix in TEXT_SUFFIXES | JSONL_SUFFIXES)

OnProgress = Callable[[float, str], object]  # fraction done (0-1), a sentence saying where it is


def uploads_folder(settings: RagSettings) -> Path:
    """Where uploaded files are kept, beside the index they were indexed into."""
    return settings.index_dir / "uploads"


def save_uploads(files: Iterable[tuple[str, bytes]], folder: Path) -> list[Path]:
    """Write ``(name, content)`` pairs into ``folder``; names are reduced to their last part.

    Raises:
        ValueError: a file type the loaders cannot read (the message lists those they can).
    """
    saved = []
    for name, content in files:
        path = folder / Path(name).name
        if path.suffix.lower().lstrip(".") not in UPLOAD_SUFFIXES or path.name.startswith("."):
            raise ValueError(f"{name!r} cannot be indexed: upload {', '.join(UPLOAD_SUFFIXES)} files.")
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        saved.append(path)
    return saved


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


def index_with_uploads(
    local_paths: Sequence[Path],
    settings: RagSettings,
    on_progress: OnProgress,
    embedder: Embedder | None = None,
) -> IndexReport:
    """Index ``local_paths`` plus every file uploaded so far.

    Adds and updates only: documents indexed before and not listed now stay in the index (removing
    them is ``python -m rag index --prune``). A folder that does not exist or holds no document is
    refused with a sentence and nothing is indexed or removed.
    """
    paths = [*local_paths]
    uploads = uploads_folder(settings)
    if uploads.is_dir() and any(uploads.iterdir()):
        paths.append(uploads)
    if not paths:
        raise ValueError("Nothing to index: upload files or give a local folder (e.g. data/corpus).")
    return index_corpus(paths, settings, embedder=embedder, progress=CallbackProgress(on_progress))
