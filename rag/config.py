"""Knowledge-base settings: explicit value > environment (``RAG_*``, ``.env``) > default."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

EmbeddingProvider = Literal["local", "minilm", "mistral", "openai"]

E5_MODEL = "multilingual-e5-small"
E5_EMBEDDER = f"local/{E5_MODEL}"  # the name an index records for the default embedder
DEFAULT_EMBEDDING_MODELS: dict[str, str] = {
    "local": E5_MODEL,
    "minilm": "all-MiniLM-L6-v2",
    "mistral": "mistral-embed",
    "openai": "text-embedding-3-small",
}

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = PROJECT_ROOT / "data" / "corpus"
# Chroma's rule for collection names (checked when a collection is opened: a late traceback).
COLLECTION_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]")
IPV4 = re.compile(r"\d{1,3}(\.\d{1,3}){3}")


class RagSettings(BaseSettings):
    """Every knob of indexing and retrieval, each documented where it is declared."""

    # inf, nan and 1e400 (read as inf) are refused by every number: a timeout must end.
    model_config = SettingsConfigDict(env_prefix="RAG_", env_file=".env", extra="ignore", allow_inf_nan=False)

    index_dir: Path = Field(Path(".rag_index"), description="Folder of the embedded Chroma index.")
    collection: str = Field("knowledge_base", description="Chroma collection to write and read.")
    chroma_host: str | None = Field(None, description="Chroma server host; unset = embedded.")
    chroma_port: int = Field(8000, description="Chroma server port.")

    embedding_provider: EmbeddingProvider = Field(
        "local",
        description="local (multilingual-e5-small, bundled), minilm (all-MiniLM-L6-v2, optional install), "
        "mistral or openai.",
    )
    embedding_model: str | None = Field(None, description="Model name; default per provider.")
    embedding_batch_size: int = Field(64, ge=1, description="Texts per embedding call.")
    sentence_vectors: bool = Field(
        True,
        description="Embed each new chunk's sentences while indexing, for the offline model's reader "
        "(about 3 sentences a chunk); false saves that time where a provider's model answers.",
    )
    mistral_api_key: SecretStr | None = Field(None, validation_alias="MISTRAL_API_KEY")
    openai_api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(None, validation_alias="OPENAI_BASE_URL")
    mistral_base_url: str | None = Field(None, validation_alias="MISTRAL_BASE_URL")

    remote_timeout_seconds: float = Field(
        30.0, gt=0, le=600, description="Per-call timeout of remote embedders."
    )
    remote_max_retries: int = Field(2, ge=0, description="Retries of a remote embedding call.")

    chunk_size: int = Field(700, ge=100, description="Characters per chunk (e5 reads 512 tokens).")
    chunk_overlap: int = Field(100, ge=0, description="Characters shared by neighbour chunks.")
    max_record_chars: int = Field(
        200_000, ge=1_000, description="Characters kept of one record or file (the rest is cut, reported)."
    )
    max_run_chunks: int = Field(
        20_000, ge=1, description="Chunks one indexing run may embed; a larger run is refused unchanged."
    )
    # NoDecode: read by _folder_list, so a malformed value is a sentence, not pydantic-settings' traceback.
    app_index_roots: Annotated[list[Path], NoDecode] = Field(
        default_factory=lambda: [DEFAULT_CORPUS],
        description="Folders the app may index (JSON list); its uploads folder is always allowed.",
    )
    upload_max_mb: float = Field(20.0, gt=0, le=200, description="Largest file the app accepts, in MB.")
    upload_max_files: int = Field(50, ge=1, le=1000, description="Uploaded files the app keeps at most.")

    hnsw_ef_construction: int = Field(200, ge=10)
    hnsw_ef_search: int = Field(200, ge=10)
    hnsw_max_neighbors: int = Field(32, ge=4)

    freshness_check_seconds: float = Field(
        2.0,
        ge=0.0,
        le=3600,
        description="How often a long-lived retriever checks for a re-indexed collection.",
    )
    candidates: int = Field(60, ge=1, description="Hits taken from each retriever before fusion.")
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant.")
    bm25_weight: float = Field(1.0, ge=0.0, description="Weight of the BM25 list in fusion.")
    dense_weight: float = Field(
        2.0, ge=0.0, description="Weight of the dense list in fusion (BM25's is bm25_weight)."
    )
    passage_chars: int = Field(
        1100, ge=100, description="A hit grows with its neighbour chunks up to this many characters."
    )
    query_expansion: bool = Field(True, description="Add corpus-language glossary terms to BM25.")
    rerank: bool = Field(True, description="Apply the reranking step after fusion.")
    rerank_depth: int = Field(20, ge=1, description="Fused candidates the reranker looks at.")
    coverage_weight: float = Field(0.5, ge=0.0, description="Weight of query-term coverage in reranking.")
    answer_type_weight: float = Field(
        0.6, ge=0.0, description="Bonus for passages holding the kind of value asked (date, price...)."
    )
    dense_similarity_weight: float = Field(
        0.25, ge=0.0, description="Weight of the query's dense similarity (rescaled 0-1) in reranking."
    )
    same_language_weight: float = Field(
        0.5, ge=0.0, description="Bonus for passages in the visitor's language (bilingual corpora)."
    )
    duplicate_threshold: float = Field(
        0.8, gt=0.0, le=1.0, description="Word overlap above which a hit is a near-duplicate."
    )

    crawl_user_agent: str = Field(
        "VersaillesVisitorAssistant/0.1 (knowledge-base crawler; python -m rag crawl)",
        min_length=1,
        description="User-Agent of the crawler; robots.txt rules are matched against its first word.",
    )
    crawl_requests_per_second: float = Field(
        2.0, gt=0.0, le=100.0, description="Most requests the crawler starts per second (robots.txt "
        "Crawl-delay, when longer, wins).",
    )  # fmt: skip
    crawl_concurrency: int = Field(2, ge=1, le=16, description="Requests the crawler keeps in flight.")
    crawl_timeout_seconds: float = Field(
        15.0, gt=0.0, le=600, description="Time limit of one crawler request."
    )
    crawl_max_pages: int = Field(1000, ge=1, description="Most pages one crawl run fetches.")
    crawl_max_page_bytes: int = Field(
        2_000_000, ge=1000, description="Larger pages (decompressed size) are skipped."
    )
    crawl_retries: int = Field(
        1,
        ge=0,
        le=5,
        description="Retries within a run of a page that failed transiently (timeout, 5xx, 429).",
    )
    crawl_max_retry_wait_seconds: float = Field(
        30.0,
        ge=0.0,
        le=3600,
        description="A Retry-After longer than this is not waited for: the page is retried next run.",
    )
    crawl_gone_after: int = Field(
        2, ge=1, description="Runs in a row a page must answer 404/410 before its chunks are removed."
    )
    crawl_max_delay_seconds: float = Field(
        60.0,
        ge=0.0,
        description="Longest Crawl-delay (robots.txt) or Retry-After the crawler honours; longer asks "
        "are cut to this, with a warning.",
    )
    crawl_max_sitemaps: int = Field(
        20, ge=1, le=1000, description="Most sitemaps (indexes and their children) one crawl run reads."
    )
    crawl_max_sitemap_bytes: int = Field(
        10_000_000, ge=1000, description="Larger sitemaps (decompressed size) are skipped."
    )

    @field_validator("app_index_roots", mode="before")
    @classmethod
    def _folder_list(cls, value: Any) -> Any:
        """A JSON list of folders, as documented; a single folder is accepted as itself."""
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text.startswith(("[", "{", '"')):
            return [text] if text else []
        try:
            folders = json.loads(text)
        except ValueError:
            raise ValueError('it must be a JSON list of folders, e.g. ["data/corpus"]') from None
        return [folders] if isinstance(folders, str) else folders

    @field_validator("collection")
    @classmethod
    def _chroma_collection_name(cls, value: str) -> str:
        if not COLLECTION_NAME.fullmatch(value) or ".." in value or IPV4.fullmatch(value):
            raise ValueError(
                "a collection name has 3-512 characters from a-z, A-Z, 0-9, '.', '_', '-', starts and "
                "ends with a letter or digit, has no '..' and is not an IP address"
            )
        return value

    @field_validator("crawl_user_agent")
    @classmethod
    def _printable_user_agent(cls, value: str) -> str:
        """Blank, a server cannot tell who crawls; with a line break, it would forge headers."""
        if not value.strip() or not value.isprintable():
            raise ValueError("it must name the crawler in printable characters (it cannot be blank)")
        return value.strip()

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Self:
        """Chunks advance by size minus overlap: an overlap as large as a chunk never advances."""
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(
                f"RAG_CHUNK_OVERLAP={self.chunk_overlap} must be smaller than RAG_CHUNK_SIZE="
                f"{self.chunk_size}: lower the overlap (a fifth of the size is usual)."
            )
        return self

    @property
    def resolved_embedding_model(self) -> str:
        """The embedding model name, defaulting per provider."""
        return self.embedding_model or DEFAULT_EMBEDDING_MODELS[self.embedding_provider]


def location_of(settings: RagSettings) -> str:
    """Name of the Chroma instance, so the lexical snapshots and crawl states of two instances never mix."""
    return f"{settings.chroma_host}_{settings.chroma_port}" if settings.chroma_host else "embedded"
