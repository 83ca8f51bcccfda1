"""Hybrid retrieval: BM25 and dense search per collection, fused by RRF, then reranked."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rag.config import RagSettings, location_of
from rag.context import Neighbour, widen
from rag.embeddings import Embedder, build_embedder, embedder_name
from rag.errors import RagError
from rag.filters import SearchFilters
from rag.fusion import reciprocal_rank_fusion
from rag.language import detect_language
from rag.lexicon.glossary import load_glossary
from rag.passage import Passage
from rag.query_expansion import expand_query
from rag.query_memo import remembering
from rag.rerank import Reranker
from rag.snapshot import CollectionSnapshot, load_fresh_snapshot, snapshot_folder
from rag.store import ChunkStore, open_client

logger = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000


class QueryError(RagError, ValueError):
    """A query that cannot be searched (empty, for instance)."""


@dataclass
class CollectionSearcher:
    """One collection: its Chroma store and its lexical snapshot."""

    name: str
    store: ChunkStore
    snapshot: CollectionSnapshot

    def __post_init__(self) -> None:
        self.position = {chunk_id: i for i, chunk_id in enumerate(self.snapshot.ids)}
        self.by_place = {
            (str(meta.get("source")), int(meta.get("position", -1))): i
            for i, meta in enumerate(self.snapshot.metadatas)
        }

    def neighbours(self, hit: Passage) -> tuple[Neighbour | None, Neighbour | None]:
        """The chunks just before and just after ``hit`` in its document."""
        meta = self.snapshot.metadatas[self.position[hit.chunk_id]]
        place = (str(meta.get("source")), int(meta.get("position", -1)))
        found = []
        for offset in (-1, 1):
            i = self.by_place.get((place[0], place[1] + offset))
            found.append(None if i is None else Neighbour(self.snapshot.ids[i], self.snapshot.texts[i]))
        return found[0], found[1]

    def allowed(self, filters: SearchFilters) -> np.ndarray | None:
        """0/1 mask of chunks passing ``filters``; None when nothing is filtered."""
        if not filters.active:
            return None
        return np.array([filters.matches(meta) for meta in self.snapshot.metadatas], dtype=np.float32)

    def lexical(self, query: str, n: int, mask: np.ndarray | None) -> list[tuple[str, float]]:
        """BM25 ranking as (chunk id, score), restricted to ``mask`` when given."""
        found = self.snapshot.bm25.search(query, n, mask)
        return [(self.snapshot.ids[position], score) for position, score in found]

    def dense(self, vector: np.ndarray, n: int, mask: np.ndarray | None) -> list[tuple[str, float]]:
        """Chroma nearest neighbours as (chunk id, cosine similarity), restricted like BM25."""
        if mask is None:
            found = self.store.query(vector, n)
        else:
            allowed = [i for i, keep in zip(self.snapshot.ids, mask, strict=True) if keep]
            found = self.store.query(vector, n, ids=allowed)
        # Between a re-index and the next refresh, Chroma may hold ids the snapshot lacks.
        return [(chunk_id, score) for chunk_id, score in found if chunk_id in self.position]

    def hit(self, chunk_id: str) -> Passage:
        """A result for ``chunk_id`` with the text and metadata of the snapshot."""
        i = self.position[chunk_id]
        meta = self.snapshot.metadatas[i]
        return Passage(
            chunk_id=chunk_id,
            text=self.snapshot.texts[i],
            title=str(meta.get("title", "")),
            headings=str(meta.get("headings", "")),
            source=str(meta.get("source", "")),
            sources=list(meta.get("sources") or [meta.get("source", "")]),
            url=str(meta.get("url") or ""),
            category=str(meta.get("category", "")),
            language=str(meta.get("language", "")),
            collection=self.name,
        )


class HybridRetriever:
    """Searches one or several collections with BM25 + dense, fused and reranked."""

    def __init__(
        self,
        settings: RagSettings | None = None,
        embedder: Embedder | None = None,
        collections: Sequence[str] | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.settings = settings or RagSettings()
        self.client = open_client(self.settings)
        names = list(collections or [self.settings.collection])
        stores = [ChunkStore.open(self.client, name, self.settings) for name in names]
        for store in stores:
            store.check_embedder(
                embedder.name if embedder else embedder_name(self.settings), settings=self.settings
            )
        # remembered query vectors: the offline reader reads the question the search embedded
        self.embedder = remembering(embedder or build_embedder(self.settings))
        self.dimension = int(self.embedder.embed_query("dimension probe").shape[0])
        self.collections = [self._searcher(store) for store in stores]
        self._checked_at = time.monotonic()
        self.reranker = reranker or Reranker(
            enabled=self.settings.rerank,
            depth=self.settings.rerank_depth,
            coverage_weight=self.settings.coverage_weight,
            duplicate_threshold=self.settings.duplicate_threshold,
            answer_type_weight=self.settings.answer_type_weight,
            same_language_weight=self.settings.same_language_weight,
            dense_similarity_weight=self.settings.dense_similarity_weight,
        )

    @property
    def incomplete(self) -> list[str]:
        """Collections whose last indexing run did not finish (killed): searchable, but partial."""
        return [searcher.name for searcher in self.collections if not searcher.store.info.get("complete")]

    def _searcher(self, store: ChunkStore) -> CollectionSearcher:
        store.check_embedder(self.embedder.name, self.dimension, settings=self.settings)
        name = store.collection.name
        folder = snapshot_folder(self.settings.index_dir, location_of(self.settings), name)
        return CollectionSearcher(name, store, load_fresh_snapshot(store, folder))

    def refresh(self) -> None:
        """Reload every collection whose Chroma generation moved (re-indexed since opened)."""
        for i, searcher in enumerate(self.collections):
            store = ChunkStore.open(self.client, searcher.name, self.settings)
            if int(store.info.get("generation", 0)) != searcher.snapshot.generation:
                logger.info("Collection %s changed on disk; reloading it.", searcher.name)
                self.collections[i] = self._searcher(store)
        self._checked_at = time.monotonic()

    @property
    def languages(self) -> list[str]:
        """Main languages of the indexed corpora, most frequent first (for query writing)."""
        seen: list[str] = []
        for searcher in self.collections:
            for language in str(searcher.store.info.get("languages", "")).split(","):
                if language and language not in seen:
                    seen.append(language)
        return seen

    def search(self, query: str, k: int = 5, filters: SearchFilters | None = None) -> list[Passage]:
        """The ``k`` best passages for ``query`` across every collection."""
        query = " ".join(query.split())
        if not query:
            raise QueryError("The query is empty: type a question or a few keywords.")
        query = query[:MAX_QUERY_CHARS]
        if time.monotonic() - self._checked_at > self.settings.freshness_check_seconds:
            self.refresh()
        vector = self.embedder.embed_query(query)
        language = detect_language(query)
        lexical = self._lexical_queries(query, language)
        try:
            hits = self._fused(lexical, vector, filters or SearchFilters(), max(self.settings.candidates, k))
        except Exception as error:  # a rebuild swapped a collection in since the last refresh
            from chromadb.errors import NotFoundError

            if not isinstance(error, NotFoundError):
                raise
            self.refresh()
            hits = self._fused(lexical, vector, filters or SearchFilters(), max(self.settings.candidates, k))
        ordered = self.reranker.rerank(
            hits,
            lambda pool: self._coverage(lexical, pool),
            " ".join(set(lexical.values())),
            language,
        )
        return widen(ordered, k, self.settings.passage_chars, self._neighbours)

    def _lexical_queries(self, query: str, language: str) -> dict[str, str]:
        """The BM25 query of each collection: expanded into its language when they differ."""
        if not self.settings.query_expansion:
            return {searcher.name: query for searcher in self.collections}
        glossary = load_glossary()
        return {
            searcher.name: expand_query(query, language, searcher.snapshot.bm25.language, glossary)
            for searcher in self.collections
        }

    def _fused(
        self, lexical: dict[str, str], vector: np.ndarray, filters: SearchFilters, n: int
    ) -> list[Passage]:
        """BM25 and dense rankings of every collection, fused by reciprocal rank."""
        rankings: dict[str, list[str]] = {}
        weights: dict[str, float] = {}
        stage_scores: dict[str, dict[str, float]] = {}
        owners: dict[str, CollectionSearcher] = {}
        for searcher in self.collections:
            mask = searcher.allowed(filters)
            stages = {
                "bm25": (searcher.lexical(lexical[searcher.name], n, mask), self.settings.bm25_weight),
                "dense": (searcher.dense(vector, n, mask), self.settings.dense_weight),
            }
            for stage, (ranked, weight) in stages.items():
                key = f"{searcher.name}:{stage}"
                rankings[key] = [chunk_id for chunk_id, _ in ranked]
                weights[key] = weight
                for chunk_id, score in ranked:
                    stage_scores.setdefault(chunk_id, {})[stage] = score
                    owners.setdefault(chunk_id, searcher)
        hits = []
        for chunk_id, score in reciprocal_rank_fusion(rankings, weights, k=self.settings.rrf_k):
            hit = owners[chunk_id].hit(chunk_id)
            hit.scores = {**stage_scores[chunk_id], "rrf": score}
            hit.score = score
            hits.append(hit)
        return hits

    def _neighbours(self, hit: Passage) -> tuple[Neighbour | None, Neighbour | None]:
        return next(s for s in self.collections if s.name == hit.collection).neighbours(hit)

    def _coverage(self, lexical: dict[str, str], hits: list[Passage]) -> list[float]:
        """Query-term coverage of each hit, computed by the BM25 index of its collection."""
        shares = [0.0] * len(hits)
        for searcher in self.collections:
            mine = [i for i, hit in enumerate(hits) if hit.collection == searcher.name]
            positions = [searcher.position[hits[i].chunk_id] for i in mine]
            for i, share in zip(
                mine, searcher.snapshot.bm25.coverage(lexical[searcher.name], positions), strict=True
            ):
                shares[i] = share
        return shares
