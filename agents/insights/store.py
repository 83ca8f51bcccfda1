"""The questions log, in the conversations' database: one schema for SQLite and PostgreSQL.

Tables are created on first use. A row holds what operators need to see what visitors ask and
what fails; never an IP address or browser data. Every text a visitor wrote or the analysis took
from it (the question, the missing parts, the comment) is masked (:mod:`agents.insights.masking`)
and made inert (:mod:`agents.insights.inert`) before it is written, and again when it is read, so a
row written before a masking rule existed is shown masked too. Rows older than the retention setting
are deleted as new ones arrive and by ``python -m agents prune``, with the cached embeddings of
questions no row holds any more; ``python -m agents forget`` deletes one conversation's rows.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from agents.config import AgentSettings
from agents.conversations.postgres_url import describe_postgres
from agents.insights.inert import inert_text
from agents.insights.masking import mask_personal

Feedback = Literal["helpful", "not_helpful"]
MAX_COMMENT_CHARS = 500
DAY_SECONDS = 86_400.0
SCHEMA_LOCK_KEY = 0x7669_7369_746F_7202  # PostgreSQL: one process creates the tables at a time
POOL_SIZE = 4  # pooled PostgreSQL connections: a turn's write holds one for a few milliseconds

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS visitor_questions (
        id TEXT PRIMARY KEY,
        asked_at DOUBLE PRECISION NOT NULL,
        thread_id TEXT NOT NULL,
        question TEXT NOT NULL,
        question_hash TEXT NOT NULL,
        language TEXT NOT NULL,
        kind TEXT NOT NULL,
        missing TEXT NOT NULL,
        sources TEXT NOT NULL,
        model TEXT NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        feedback TEXT,
        comment TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS visitor_questions_asked_at ON visitor_questions (asked_at)",
    """CREATE TABLE IF NOT EXISTS question_vectors (
        question_hash TEXT NOT NULL,
        embedder TEXT NOT NULL,
        vector TEXT NOT NULL,
        PRIMARY KEY (question_hash, embedder)
    )""",
)
COLUMNS = (
    "id, asked_at, thread_id, question, question_hash, language, kind, missing, sources, model, "
    "latency_ms, feedback, comment"
)


def visitor_text(text: str) -> str:
    """A visitor's text as the log keeps and shows it: personal data masked, control characters inert."""
    return inert_text(mask_personal(text))


def _clean(turn: LoggedQuestion) -> LoggedQuestion:
    """``turn`` with every visitor-written field passed through :func:`visitor_text`."""
    turn.question = visitor_text(turn.question)
    turn.missing = [visitor_text(part) for part in turn.missing]
    turn.comment = visitor_text(turn.comment) if turn.comment else turn.comment
    return turn


def text_hash(text: str) -> str:
    """The key of a question's cached embedding: its (masked) text, hashed."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass
class LoggedQuestion:
    """One visitor turn as the log keeps it (the question already masked)."""

    question: str
    language: str
    kind: str  # answered, partial or not_found
    thread_id: str = ""
    missing: list[str] = field(default_factory=list)  # what the gap analysis found missing
    sources: list[dict[str, str]] = field(default_factory=list)  # cited: title and url
    model: str = ""
    latency_ms: float = 0.0
    asked_at: float = field(default_factory=time.time)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    feedback: Feedback | None = None
    comment: str | None = None

    @property
    def question_hash(self) -> str:
        return text_hash(self.question)


class Database:
    """Connections to the SQLite file or to PostgreSQL; SQL written with ``?`` placeholders.

    Each transaction opens a short connection, except with ``pooled`` on PostgreSQL: a long-lived
    process that writes every turn (the served graph) keeps a few open, as a new connection costs
    about 10 ms there, more on a busy machine.
    """

    def __init__(
        self,
        sqlite_path: Path | None = None,
        postgres_url: str | None = None,
        timeout: float = 10.0,
        pooled: bool = False,
    ):
        self.sqlite_path, self.postgres_url, self.timeout = sqlite_path, postgres_url, timeout
        self.pooled = pooled
        self._pool: Any = None
        self._pool_lock = threading.Lock()

    @property
    def is_postgres(self) -> bool:
        return self.postgres_url is not None

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        """A cursor in one transaction, committed on success."""
        if self.postgres_url is not None:
            with self._postgres() as connection, connection.cursor() as cursor:
                yield cursor
            return
        assert self.sqlite_path is not None
        self.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        database = sqlite3.connect(str(self.sqlite_path), timeout=self.timeout)
        try:
            with database:
                yield database.cursor()
        finally:
            database.close()

    def _postgres(self) -> Any:
        """A connection whose block commits on success and rolls back on an error."""
        import psycopg

        assert self.postgres_url is not None
        connect_timeout = max(2, round(self.timeout))  # libpq wants whole seconds
        if not self.pooled:
            return psycopg.connect(self.postgres_url, connect_timeout=connect_timeout)
        with self._pool_lock:
            if self._pool is None:
                from psycopg_pool import ConnectionPool

                # No minimum: nothing retries in the background while the server is away.
                self._pool = ConnectionPool(
                    self.postgres_url, min_size=0, max_size=POOL_SIZE, timeout=self.timeout,
                    kwargs={"connect_timeout": connect_timeout}, name="questions-log", open=True,
                )  # fmt: skip
        return self._pool.connection()

    def close(self) -> None:
        """Close the pooled connections, if any (short connections need nothing)."""
        with self._pool_lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.is_postgres else statement


class QuestionLog:
    """Write turns and feedback; read them back for insights; keep embeddings of questions."""

    def __init__(self, database: Database, retention_days: int = 90) -> None:
        self.database = database
        self.retention_days = retention_days
        self._ready = False

    @classmethod
    def for_settings(cls, settings: AgentSettings, pooled: bool = False) -> QuestionLog:
        """The log in the conversations' database: PostgreSQL when configured, else beside the
        checkpoints' SQLite file (the same file: one place to back up, one to delete). ``pooled``:
        see :class:`Database`."""
        url = settings.checkpoint_url.get_secret_value() if settings.checkpoint_url else None
        database = Database(
            sqlite_path=None if url else settings.checkpoint_path,
            postgres_url=url,
            timeout=settings.checkpoint_timeout_seconds,
            pooled=pooled,
        )
        return cls(database, settings.questions_retention_days)

    @property
    def description(self) -> str:
        if self.database.postgres_url is not None:
            return describe_postgres(self.database.postgres_url)
        return f"the conversation file {self.database.sqlite_path}"

    def ensure_schema(self) -> None:
        """Create the tables on first use (PostgreSQL: under a lock, so replicas do not race)."""
        if self._ready:
            return
        with self.database.cursor() as cursor:
            if self.database.is_postgres:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            for statement in SCHEMA:
                cursor.execute(statement)
        self._ready = True

    def record(self, turn: LoggedQuestion) -> str:
        """Store one turn (its texts masked here, whatever the caller did) and drop expired rows, in
        one transaction."""
        self.ensure_schema()
        _clean(turn)
        with self.database.cursor() as cursor:
            cursor.execute(
                self.database.sql(
                    f"INSERT INTO visitor_questions ({COLUMNS}) VALUES ({', '.join('?' * 13)})"
                ),
                _row(turn),
            )
            self._prune(cursor, time.time())
        return turn.id

    def record_many(self, turns: Sequence[LoggedQuestion]) -> None:
        """Store many turns in one transaction (the scale benchmark's generated log)."""
        self.ensure_schema()
        for turn in turns:
            _clean(turn)
        with self.database.cursor() as cursor:
            cursor.executemany(
                self.database.sql(
                    f"INSERT INTO visitor_questions ({COLUMNS}) VALUES ({', '.join('?' * 13)})"
                ),
                [_row(turn) for turn in turns],
            )

    def set_feedback(
        self, turn_id: str, thread_id: str, feedback: Feedback, comment: str | None = None
    ) -> bool:
        """Attach a visitor's verdict (and a short masked comment) to a turn of their own thread."""
        self.ensure_schema()
        text = visitor_text(comment.strip())[:MAX_COMMENT_CHARS] if comment and comment.strip() else None
        with self.database.cursor() as cursor:
            cursor.execute(
                self.database.sql(
                    "UPDATE visitor_questions SET feedback = ?, comment = ? WHERE id = ? AND thread_id = ?"
                ),
                (feedback, text, turn_id, thread_id),
            )
            return bool(cursor.rowcount)

    def prune(self, now: float | None = None) -> int:
        """Delete rows older than the retention, and the embeddings no remaining row needs."""
        self.ensure_schema()
        with self.database.cursor() as cursor:
            return self._prune(cursor, now or time.time())

    def _prune(self, cursor: Any, now: float) -> int:
        cutoff = now - self.retention_days * DAY_SECONDS
        cursor.execute(self.database.sql("DELETE FROM visitor_questions WHERE asked_at < ?"), (cutoff,))
        return _with_orphans_removed(cursor)

    def forget_thread(self, thread_id: str) -> int:
        """Delete every row of one conversation (feedback included) and the embeddings only it
        needed; returns how many turns were deleted."""
        self.ensure_schema()
        with self.database.cursor() as cursor:
            if not self.database.is_postgres:  # the freed pages are zeroed: no trace left in the file
                cursor.execute("PRAGMA secure_delete = ON")
            cursor.execute(
                self.database.sql("DELETE FROM visitor_questions WHERE thread_id = ?"), (thread_id,)
            )
            return _with_orphans_removed(cursor)

    def questions(self, since: float | None = None) -> list[LoggedQuestion]:
        """The logged turns asked since ``since`` (epoch seconds), oldest first."""
        return self._select("asked_at >= ?", since or 0.0)

    def thread_turns(self, thread_id: str) -> list[LoggedQuestion]:
        """The logged turns of one conversation, oldest first (a reload gives back their feedback)."""
        return self._select("thread_id = ?", thread_id)

    def _select(self, condition: str, value: object) -> list[LoggedQuestion]:
        """The logged turns meeting ``condition`` (one ``?`` placeholder), oldest first."""
        self.ensure_schema()
        with self.database.cursor() as cursor:
            cursor.execute(
                self.database.sql(
                    f"SELECT {COLUMNS} FROM visitor_questions WHERE {condition} ORDER BY asked_at"
                ),
                (value,),
            )
            return [_logged(row) for row in cursor.fetchall()]

    def vectors(self, embedder: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached embeddings of questions, by question hash."""
        self.ensure_schema()
        wanted = set(hashes)
        with self.database.cursor() as cursor:
            cursor.execute(
                self.database.sql("SELECT question_hash, vector FROM question_vectors WHERE embedder = ?"),
                (embedder,),
            )
            return {key: _vector(value) for key, value in cursor.fetchall() if key in wanted}

    def store_vectors(self, embedder: str, vectors: dict[str, np.ndarray]) -> None:
        """Cache embeddings so that each question is embedded once."""
        if not vectors:
            return
        self.ensure_schema()
        insert = "INSERT INTO question_vectors (question_hash, embedder, vector) VALUES (?, ?, ?)"
        conflict = "ON CONFLICT (question_hash, embedder) DO NOTHING"
        with self.database.cursor() as cursor:
            cursor.executemany(
                self.database.sql(f"{insert} {conflict}"),
                [(key, embedder, _encoded(vector)) for key, vector in vectors.items()],
            )


def _row(turn: LoggedQuestion) -> tuple[Any, ...]:
    return (
        turn.id,
        turn.asked_at,
        turn.thread_id,
        turn.question,
        turn.question_hash,
        turn.language,
        turn.kind,
        json.dumps(turn.missing, ensure_ascii=False),
        json.dumps(turn.sources, ensure_ascii=False),
        turn.model,
        turn.latency_ms,
        turn.feedback,
        turn.comment,
    )


@lru_cache(maxsize=65_536)
def _decoded(text: str) -> Any:
    """JSON decoded once per distinct text: most rows repeat a few lists (100,000 rows in insights)."""
    return json.loads(text)


def _logged(row: Sequence[Any]) -> LoggedQuestion:
    (
        id_,
        asked_at,
        thread,
        question,
        _hash,
        language,
        kind,
        missing,
        sources,
        model,
        latency,
        feedback,
        comment,
    ) = row
    return _clean(
        LoggedQuestion(
            id=id_,
            asked_at=float(asked_at),
            thread_id=thread,
            question=question,
            language=language,
            kind=kind,
            missing=list(_decoded(missing)),
            sources=[dict(source) for source in _decoded(sources)],
            model=model,
            latency_ms=float(latency),
            feedback=feedback,
            comment=comment,
        )
    )


def _encoded(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode("ascii")


def _vector(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=np.float32)


def _with_orphans_removed(cursor: Any) -> int:
    """After deleting questions: how many were deleted, the embeddings no question needs removed."""
    deleted = int(cursor.rowcount or 0)
    if deleted:
        cursor.execute(
            "DELETE FROM question_vectors WHERE question_hash NOT IN "
            "(SELECT question_hash FROM visitor_questions)"
        )
    return deleted
