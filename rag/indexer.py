"""Bring a Chroma collection in line with a corpus: embed only what is new, drop what is gone."""

from __future__ import annotations

import logging
import shlex
import time
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from rag.chunking import DocumentChunker
from rag.config import DEFAULT_CORPUS, RagSettings, location_of
from rag.confine import AllowedRoots
from rag.disk import is_disk_full
from rag.documents import Chunk, Document, LoadIssue
from rag.embeddings import Embedder, build_embedder, embedder_name
from rag.errors import RagError
from rag.language import detect_language, main_languages
from rag.loaders import LoadResult, load_sources, prepare_documents
from rag.rebuild import (
    collection_named,
    discard,
    rebuild_stopped_sentence,
    restore_previous,
    staging_settings,
    swap_in,
)
from rag.sentence_store import SentenceVectorStore
from rag.sentence_vectors import index_sentences
from rag.snapshot import CollectionSnapshot, load_fresh_snapshot, snapshot_folder
from rag.store import (
    E5_PASSAGES_PER_SECOND,
    ChunkStore,
    DiskFullError,
    IndexCorruptError,
    IndexMissingError,
    full_disk,
    open_client,
)

logger = logging.getLogger(__name__)

# Planned chunks by id, text size per language, documents, load issues, records read.
EMBED_GROUP = 64  # a progress update every few seconds at e5's ~8 passages/s on 2 cores


class IndexProgress(Protocol):
    """Receives progress; the CLI renders it (rich), library code never prints."""

    def start(self, documents: int, chunks: int, to_embed: int) -> None: ...

    def advance(self, embedded: int) -> None: ...

    def finish(self) -> None: ...


class SilentProgress:
    """Progress sink that shows nothing (tests, library use)."""

    def start(self, documents: int, chunks: int, to_embed: int) -> None:
        return None

    def advance(self, embedded: int) -> None:
        return None

    def finish(self) -> None:
        return None


@dataclass
class IndexReport:
    """What an indexing run did, for the CLI and the benchmarks."""

    documents: int = 0
    records_read: int = 0
    chunks: int = 0
    embedded: int = 0
    deleted: int = 0
    kept_unlisted: int = 0  # chunks of documents no longer listed, kept (removed only with prune)
    metadata_updated: int = 0
    languages: list[str] = field(default_factory=list)
    issues: list[LoadIssue] = field(default_factory=list)
    cut: list[LoadIssue] = field(default_factory=list)  # records kept up to RAG_MAX_RECORD_CHARS
    warnings: list[LoadIssue] = field(default_factory=list)  # files indexed with a problem (front matter)
    seconds: float = 0.0
    embed_seconds: float = 0.0
    sentences_embedded: int = 0  # for the offline reader (rag.sentence_vectors)


def corpus_arguments(paths: Sequence[Path]) -> str:
    """The paths as they would be typed after ``python -m rag index`` (none for the bundled corpus)."""
    if [Path(path).resolve() for path in paths] == [DEFAULT_CORPUS.resolve()]:
        return ""
    return shlex.join(str(path) for path in paths)


@dataclass
class ChunkPlan:
    """What a corpus becomes before anything is embedded: its chunks by id and how it loaded."""

    chunks: dict[str, Chunk]
    language_sizes: Counter[str]
    documents: int
    issues: list[LoadIssue]
    cut: list[LoadIssue]
    records_read: int
    warnings: list[LoadIssue] = field(default_factory=list)


def plan_chunks(
    paths: Iterable[Path], settings: RagSettings, allowed: AllowedRoots | None = None
) -> ChunkPlan:
    """Load, clean, de-duplicate and chunk the corpus into the desired set of chunks by id."""
    return plan_loaded_chunks(load_sources(paths, settings.max_record_chars, allowed), settings)


def plan_loaded_chunks(loaded: LoadResult, settings: RagSettings) -> ChunkPlan:
    """Chunk documents already loaded and de-duplicated into the desired set of chunks by id."""
    chunker = DocumentChunker(settings.chunk_size, settings.chunk_overlap)
    chunks: dict[str, Chunk] = {}
    language_sizes: Counter[str] = Counter()
    for document in loaded.documents:
        language = detect_language(document.text, default="und")
        language_sizes[language] += len(document.text)
        for chunk in chunker.split(document, language):
            kept = chunks.setdefault(chunk.chunk_id, chunk)
            if kept is not chunk:
                kept.sources.extend(s for s in chunk.sources if s not in kept.sources)
    return ChunkPlan(
        chunks,
        language_sizes,
        len(loaded.documents),
        loaded.issues,
        loaded.cut,
        loaded.records_read,
        loaded.warnings,
    )


class IndexInputError(RagError, ValueError):
    """The paths given to index cannot be indexed; nothing was indexed or removed."""


def index_corpus(
    paths: Sequence[Path],
    settings: RagSettings,
    embedder: Embedder | None = None,
    progress: IndexProgress | None = None,
    rebuild: bool = False,
    prune: bool = False,
    allowed: AllowedRoots | None = None,
) -> IndexReport:
    """Index ``paths`` into the configured collection, resumably and incrementally.

    Adds and updates: a document listed again with other text has its chunks replaced. Chunks of
    documents no longer listed are kept unless ``prune`` is set, and even then kept when a file
    failed to load (its chunks are not known to be gone). A path that does not exist or yields no
    document raises :class:`IndexInputError` before the index is touched. With ``allowed`` (the
    app), a path outside those roots raises :class:`PathNotAllowedError` and a file linking outside
    them is skipped. A run that would embed more than ``max_run_chunks`` is refused unchanged.
    """
    started = time.perf_counter()
    if allowed is not None:
        for path in paths:
            allowed.check(Path(path))
    if missing_paths := [str(path) for path in paths if not Path(path).exists()]:
        raise IndexInputError(
            f"{', '.join(missing_paths)} does not exist: nothing was indexed or removed (check the path)."
        )
    plan = plan_chunks(paths, settings, allowed)
    if not plan.chunks:
        raise IndexInputError(
            f"No document to index in {corpus_arguments(paths)}: nothing was indexed or removed "
            "(supported: .jsonl, .md, .markdown, .txt)."
        )
    if len(plan.chunks) > settings.max_run_chunks:
        _check_run_size(len(plan.chunks) if rebuild else _chunks_to_embed(plan.chunks, settings), settings)
    return _apply_plan(
        plan, settings, embedder, progress, rebuild=rebuild, prune=prune,
        corpus_args=corpus_arguments(paths), started=started,
    )  # fmt: skip


def index_documents(
    documents: list[Document],
    settings: RagSettings,
    embedder: Embedder | None = None,
    progress: IndexProgress | None = None,
    remove_sources: Collection[str] = (),
) -> IndexReport:
    """Index documents from another origin than files (crawled pages) through the same pipeline.

    ``documents`` is the whole current set of that origin: they are de-duplicated, cleaned of
    repeated passages and chunked as files are, so an unchanged set costs nothing. Chunks of other
    documents are kept, except those whose every source is in ``remove_sources`` (pages gone).
    """
    started = time.perf_counter()
    loaded = LoadResult(documents=prepare_documents(list(documents)), records_read=len(documents))
    plan = plan_loaded_chunks(loaded, settings)
    if not plan.chunks and not remove_sources:
        raise IndexInputError("No document to index: nothing was indexed or removed.")
    if len(plan.chunks) > settings.max_run_chunks:
        _check_run_size(_chunks_to_embed(plan.chunks, settings), settings)
    return _apply_plan(
        plan, settings, embedder, progress, remove_sources=set(remove_sources), started=started
    )


def _apply_plan(
    plan: ChunkPlan,
    settings: RagSettings,
    embedder: Embedder | None,
    progress: IndexProgress | None,
    *,
    started: float,
    rebuild: bool = False,
    prune: bool = False,
    corpus_args: str | None = None,
    remove_sources: set[str] | None = None,
    first_generation: int = 0,
) -> IndexReport:
    """Bring the collection in line with the planned chunks: delete, re-label, embed what is new.

    A rebuild builds a new collection beside the old one and swaps them only when it is complete.
    """
    if rebuild:
        return _rebuild_beside(plan, settings, embedder, progress, started=started, corpus_args=corpus_args)
    progress = progress or SilentProgress()
    chunks, language_sizes, n_documents, issues = (
        plan.chunks,
        plan.language_sizes,
        plan.documents,
        plan.issues,
    )
    for issue in issues:
        logger.warning("Skipped %s", issue)
    for cut in plan.cut:
        logger.warning("Cut %s", cut)
    for warning in plan.warnings:
        logger.warning("%s", warning)
    name = embedder.name if embedder else embedder_name(settings)
    client = open_client(settings, create=True)
    store = ChunkStore.create(client, settings.collection, settings, name)
    store.check_embedder(name, settings=settings, corpus_args=corpus_args)

    existing = store.all_metadata()
    desired = {chunk_id: chunk.to_metadata() for chunk_id, chunk in chunks.items()}
    unlisted = _unlisted(existing, chunks)
    removed = {i for i in unlisted if remove_sources and _held_only_by(existing[i], remove_sources)}
    kept = unlisted - removed if not prune or issues else set()
    stale = sorted(set(existing) - set(chunks) - kept)
    missing = sorted(set(chunks) - set(existing))
    changed = sorted(i for i in set(chunks) & set(existing) if existing[i] != desired[i])
    # Chunks kept from other documents (files beside crawled pages) still weigh in the languages,
    # which choose the BM25 stemmer: a crawl of an English site must not turn a French index English.
    kept_sizes = Counter(str(existing[i].get("language") or "und") for i in kept)
    language_sizes.update({language: count * settings.chunk_size for language, count in kept_sizes.items()})
    languages = main_languages(language_sizes) or ["und"]
    report = IndexReport(
        documents=n_documents,
        records_read=plan.records_read,
        chunks=len(chunks),
        embedded=len(missing),
        deleted=len(stale),
        kept_unlisted=len(kept),
        metadata_updated=len(changed),
        languages=languages,
        issues=issues,
        cut=plan.cut,
        warnings=plan.warnings,
    )
    folder = snapshot_folder(settings.index_dir, location_of(settings), settings.collection)
    info = store.info
    if (
        stale
        or missing
        or changed
        or not info.get("complete")
        or info.get("languages") != ",".join(languages)
    ):
        generation = max(int(info.get("generation", 0)), first_generation) + 1
        held = len(existing) - len(stale)
        try:
            store.update_info(
                generation=generation,
                complete=False,
                main_language=languages[0],
                languages=",".join(languages),
                chunk_size=settings.chunk_size,
                chunk_overlap=settings.chunk_overlap,
                corpus_args=corpus_args,
            )
            store.delete(stale)
            store.update_metadata(changed, [_replacing(existing[i], desired[i]) for i in changed])
            progress.start(n_documents, len(chunks), len(missing))
            if missing:
                embedder = embedder or build_embedder(settings)
                report.embed_seconds = _embed_and_upsert(
                    [chunks[i] for i in missing], embedder, store, progress
                )
            progress.finish()
            store.update_info(complete=True, documents=n_documents)
            if kept:  # the lexical index covers every chunk the store keeps
                CollectionSnapshot.from_store(store).save(folder)
            else:
                records_now = [(i, chunk.text, desired[i]) for i, chunk in chunks.items()]
                CollectionSnapshot.build(records_now, languages[0], generation).save(folder)
        except Exception as error:
            if isinstance(error, DiskFullError) or is_disk_full(error):
                raise DiskFullError(_stopped_sentence(store, held, len(missing))) from error
            raise
    else:
        load_fresh_snapshot(store, folder)
    if settings.sentence_vectors:
        report.sentences_embedded = index_sentences(
            [(chunk_id, chunk.text) for chunk_id, chunk in chunks.items()],
            name,
            lambda: embedder or build_embedder(settings),
            SentenceVectorStore.beside(settings.index_dir),
            languages[0],
        )
    report.seconds = time.perf_counter() - started
    return report


def _stopped_sentence(store: ChunkStore, held_before: int, to_add: int) -> str:
    """A run stopped by a full disk: which disk, what was added, and that the index still works."""
    try:
        holds = store.count()
        added = f"after adding {max(0, holds - held_before)} of {to_add} new chunks"
        searchable = f"still answers searches with the {holds} chunks it holds"
    except DiskFullError:
        added, searchable = "", "still answers searches with what it holds"
    return (
        f"{full_disk(store.settings)}: indexing stopped{' ' + added if added else ''}, and the index "
        f"collection {store.collection.name!r} {searchable}; free some space, then run the same command "
        "again (it resumes where it stopped; no --rebuild needed)."
    )


def _rebuild_beside(
    plan: ChunkPlan,
    settings: RagSettings,
    embedder: Embedder | None,
    progress: IndexProgress | None,
    *,
    started: float,
    corpus_args: str | None,
) -> IndexReport:
    """Build the collection anew under another name, then swap it in: the old one stays whole
    and searchable until the new one is complete, and a failed rebuild leaves no part of its own."""
    client = _client_for_rebuild(settings)
    name = settings.collection
    restore_previous(client, name)
    staging = staging_settings(settings)
    discard(client, staging)  # what an earlier failed rebuild left
    old = collection_named(client, name)
    try:
        report = _apply_plan(
            plan, staging, embedder, progress, started=started, corpus_args=corpus_args,
            # above the old generation, so open retrievers see a change and reload
            first_generation=int((old.metadata or {}).get("generation", 0)) if old is not None else 0,
        )  # fmt: skip
        swap_in(client, staging, settings)
    except BaseException as error:
        discard(client, staging)
        if isinstance(error, DiskFullError) or is_disk_full(error):
            store = ChunkStore(client, old, settings) if old is not None else None
            raise DiskFullError(rebuild_stopped_sentence(settings, store)) from error
        raise
    return report


def unlisted_chunks(
    paths: Sequence[Path], settings: RagSettings, allowed: AllowedRoots | None = None
) -> tuple[int, list[LoadIssue]]:
    """How many stored chunks belong to documents ``paths`` no longer list (what ``prune`` would
    remove), and the files that failed to load (while any fails, ``prune`` removes nothing)."""
    if allowed is not None:
        for path in paths:
            allowed.check(Path(path))
    plan = plan_chunks(paths, settings, allowed)
    try:
        store = ChunkStore.open(open_client(settings), settings.collection, settings)
    except IndexMissingError:
        return 0, plan.issues
    return len(_unlisted(store.all_metadata(), plan.chunks)), plan.issues


def drop_sources(sources: set[str], settings: RagSettings) -> int:
    """Remove the chunks that only ``sources`` hold (shared ones stay); returns how many. The
    lexical index follows."""
    store = ChunkStore.open(open_client(settings), settings.collection, settings)
    ids = sorted(i for i, meta in store.all_metadata().items() if _held_only_by(meta, sources))
    if not ids:
        return 0
    generation = int(store.info.get("generation", 0)) + 1
    store.update_info(generation=generation, complete=False)
    store.delete(ids)
    store.update_info(complete=True)
    folder = snapshot_folder(settings.index_dir, location_of(settings), settings.collection)
    CollectionSnapshot.from_store(store).save(folder)
    return len(ids)


def _chunks_to_embed(chunks: dict[str, Chunk], settings: RagSettings) -> int:
    """How many of ``chunks`` the index lacks, read without creating anything."""
    try:
        store = ChunkStore.open(open_client(settings), settings.collection, settings)
    except IndexMissingError:
        return len(chunks)
    return len(set(chunks) - set(store.all_metadata()))


def _check_run_size(to_embed: int, settings: RagSettings) -> None:
    """Refuse, before anything changes, a run that would embed more than ``max_run_chunks``."""
    if to_embed <= settings.max_run_chunks:
        return
    hours = to_embed / E5_PASSAGES_PER_SECOND / 3600
    raise IndexInputError(
        f"This run would embed {to_embed:,} chunks (about {hours:.1f} h with the local model on 2 cores), "
        f"more than RAG_MAX_RUN_CHUNKS={settings.max_run_chunks:,}: nothing was indexed or removed; index "
        "fewer files at a time or raise RAG_MAX_RUN_CHUNKS."
    )


def _replacing(stored: dict[str, Any], desired: dict[str, Any]) -> dict[str, Any]:
    """``desired`` as a metadata update: Chroma merges an update into what it holds, so a key no
    longer wanted (a guide's link removed from its front matter) is sent as None, which deletes it."""
    return {**{key: None for key in stored.keys() - desired.keys()}, **desired}


def _sources(metadata: dict[str, Any]) -> set[str]:
    sources = metadata.get("sources") or []
    return {str(metadata.get("source", "")), *(sources if isinstance(sources, list) else [str(sources)])}


def _unlisted(existing: dict[str, dict[str, Any]], chunks: dict[str, Chunk]) -> set[str]:
    """Stored chunks of documents the planned chunks no longer list (what ``prune`` removes)."""
    listed = {source for chunk in chunks.values() for source in _sources(chunk.to_metadata())}
    return {i for i in set(existing) - set(chunks) if not _sources(existing[i]) & listed}


def _held_only_by(metadata: dict[str, Any], sources: Collection[str]) -> bool:
    """Whether every source of a stored chunk is among ``sources`` (a chunk with none is not)."""
    held_by = _sources(metadata) - {""}
    return bool(held_by) and held_by <= set(sources)


def _client_for_rebuild(settings: RagSettings) -> Any:
    """A client for a rebuild; an unreadable embedded index is moved aside, then started afresh."""
    try:
        return open_client(settings, create=True)
    except IndexCorruptError:
        aside = settings.index_dir.with_name(f"{settings.index_dir.name}.corrupt-{int(time.time())}")
        logger.warning("Unreadable index moved to %s; building a new one.", aside)
        settings.index_dir.rename(aside)
        return open_client(settings, create=True)


def _embed_and_upsert(
    chunks: list[Chunk], embedder: Embedder, store: ChunkStore, progress: IndexProgress
) -> float:
    """Embed in groups while the previous group is written, so Chroma I/O hides behind the model.

    Returns the seconds spent embedding; the index records the vectors' dimension.
    """
    embed_seconds = 0.0
    pending: Future[None] | None = None
    with ThreadPoolExecutor(max_workers=1) as writer:
        for start in range(0, len(chunks), EMBED_GROUP):
            group = chunks[start : start + EMBED_GROUP]
            tick = time.perf_counter()
            vectors = embedder.embed_documents([chunk.embedding_text for chunk in group])
            embed_seconds += time.perf_counter() - tick
            if start == 0:
                dimension = int(vectors.shape[1])
                store.check_embedder(embedder.name, dimension)
                store.update_info(embedding_dimension=dimension)
            if pending is not None:
                pending.result()
            pending = writer.submit(_write_group, store, group, vectors)
            progress.advance(len(group))
        if pending is not None:
            pending.result()
    return embed_seconds


def _write_group(store: ChunkStore, group: list[Chunk], vectors: np.ndarray) -> None:
    store.upsert(
        [chunk.chunk_id for chunk in group],
        vectors,
        [chunk.text for chunk in group],
        [chunk.to_metadata() for chunk in group],
    )


def documents_within_cap(
    documents: list[Document], settings: RagSettings
) -> tuple[list[Document], list[Document]]:
    """Split ``documents`` into those one run can index within ``max_run_chunks`` and those left for
    a later run (a crawl larger than the cap then progresses run by run instead of never finishing).

    The documents are prepared (de-duplicated, repeated passages dropped) as one set first, so the
    part indexed now is chunked exactly as the whole set will be. Documents whose chunks are all
    stored cost nothing and always belong to the first part. When not even one document fits,
    everything is returned in the first part and indexing refuses the run as before.
    """
    prepared = prepare_documents(list(documents))
    whole = plan_loaded_chunks(LoadResult(documents=prepared, records_read=len(prepared)), settings)
    if len(whole.chunks) <= settings.max_run_chunks:
        return prepared, []
    try:
        stored = set(ChunkStore.open(open_client(settings), settings.collection, settings).all_metadata())
    except IndexMissingError:
        stored = set()
    now: list[Document] = []
    later: list[Document] = []
    chosen: set[str] = set()
    for document in prepared:
        loaded = LoadResult(documents=[document], records_read=1)
        new = set(plan_loaded_chunks(loaded, settings).chunks) - stored - chosen
        if len(chosen) + len(new) <= settings.max_run_chunks:
            now.append(document)
            chosen |= new
        else:
            later.append(document)
    if later and not chosen:
        return prepared, []
    return now, later
