"""Official answers in their own Chroma collection of the index the agent searches.

An operator writes an answer (one language), its source link and optional valid-from / valid-until
dates. Each answer is one chunk (id ``official-<hash>`` of its text, source and period, so the same
text for another period is another answer) embedded with the knowledge base's embedder; removing
the answer removes the chunk. A search returns only answers valid on the day in Europe/Paris, where
the visit takes place, whatever the server's time zone.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import numpy as np
from pydantic import BaseModel, Field

from agents.errors import AgentError
from rag.config import RagSettings
from rag.store import open_client

COLLECTION_SUFFIX = "_official"
VISIT_TIMEZONE = ZoneInfo("Europe/Paris")
MAX_ANSWER_CHARS = 4000  # the console's text box holds no more
# Characters no source link may hold: they would end or restyle the Markdown link it is drawn as.
_LINK_BREAKERS = frozenset('<>"`{}|\\^[]()')


def paris_day(seconds: float | None = None) -> date:
    """The day in Europe/Paris at ``seconds`` (Unix time; now when None)."""
    return datetime.fromtimestamp(time.time() if seconds is None else seconds, VISIT_TIMEZONE).date()


def paris_today() -> date:
    """Today in Europe/Paris: the day an official answer must hold on to be used."""
    return paris_day()


class OfficialAnswerError(AgentError, ValueError):
    """An official answer that cannot be stored or found; ``str(error)`` says what to do."""


class OfficialAnswer(BaseModel):
    """One official answer as an operator wrote it."""

    id: str = ""
    text: str
    source: str
    language: str = ""
    question: str = ""  # the visitors' question it answers (matched); empty: the text is matched
    valid_from: date | None = None
    valid_until: date | None = None
    written_at: float = Field(default_factory=time.time)

    def valid_on(self, day: date) -> bool:
        """Whether the answer holds on ``day`` (an expired or not-yet-valid answer is never used)."""
        return (self.valid_from is None or self.valid_from <= day) and (
            self.valid_until is None or day <= self.valid_until
        )

    @property
    def dated(self) -> str:
        """The date an answer is cited with: its valid-from date, else the day it was written."""
        return (self.valid_from or paris_day(self.written_at)).isoformat()


def answer_id(text: str, source: str, valid_from: date | None = None, valid_until: date | None = None) -> str:
    """The id of an answer: its text, source and period (another period is another answer)."""
    period = f"{valid_from or ''}/{valid_until or ''}"
    key = f"{source}\n{text}" if period == "/" else f"{source}\n{text}\n{period}"
    return "official-" + hashlib.sha256(key.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class StoredAnswer:
    """An answer as stored, and whether it replaced one with the same text, source and period."""

    answer: OfficialAnswer
    replaced: bool


def source_problem(source: str) -> str | None:
    """Why ``source`` is not a usable link (an http(s) URL with a host, no spaces or Markdown), or None."""
    parts = urlsplit(source)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return "The source must be an http(s) link with a host name, e.g. https://www.chateauversailles.fr/."
    if any(char.isspace() or not char.isprintable() or char in _LINK_BREAKERS for char in source):
        return "The source link must hold no spaces, brackets, quotes or Markdown: give the page's address."
    return None


def collection_name(settings: RagSettings) -> str:
    return f"{settings.collection}{COLLECTION_SUFFIX}"


class OfficialAnswers:
    """Add, list, remove and match the official answers of one index."""

    def __init__(self, settings: RagSettings, collection: Any) -> None:
        self.settings, self.collection = settings, collection

    @classmethod
    def open(cls, settings: RagSettings) -> OfficialAnswers:
        """The index's official answers, their collection created on first use."""
        client = open_client(settings)
        return cls(
            settings,
            client.get_or_create_collection(collection_name(settings), metadata={"hnsw:space": "cosine"}),
        )

    @classmethod
    def existing(cls, settings: RagSettings) -> OfficialAnswers | None:
        """The index's official answers, or None when none was ever added (nothing is created)."""
        client = open_client(settings)
        try:
            return cls(settings, client.get_collection(collection_name(settings)))
        except Exception:  # noqa: BLE001 - chromadb raises NotFoundError or ValueError by version
            return None

    def add(self, answer: OfficialAnswer, vector: np.ndarray) -> OfficialAnswer:
        if answer.valid_from and answer.valid_until and answer.valid_until < answer.valid_from:
            raise OfficialAnswerError("--valid-until is before --valid-from: give an end after the start.")
        answer.id = answer_id(answer.text, answer.source, answer.valid_from, answer.valid_until)
        self.collection.upsert(
            ids=[answer.id],
            embeddings=[np.asarray(vector, dtype=np.float32).tolist()],
            documents=[answer.text],
            metadatas=[{"answer": answer.model_dump_json()}],
        )
        return answer

    def all(self) -> list[OfficialAnswer]:
        rows = self.collection.get(include=["metadatas"])
        answers = [
            OfficialAnswer.model_validate_json(str(meta["answer"])) for meta in rows["metadatas"] or []
        ]
        return sorted(answers, key=lambda answer: answer.written_at)

    def contains(self, answer_id_: str) -> bool:
        return bool(self.collection.get(ids=[answer_id_])["ids"])

    def remove(self, answer_id_: str) -> None:
        if not self.collection.get(ids=[answer_id_])["ids"]:
            raise OfficialAnswerError(
                f"No official answer has the id {answer_id_}: see `python -m agents official list`."
            )
        self.collection.delete(ids=[answer_id_])

    def vectors(self) -> list[tuple[OfficialAnswer, np.ndarray]]:
        rows: dict[str, Any] = self.collection.get(include=["metadatas", "embeddings"])
        return [
            (OfficialAnswer.model_validate_json(str(meta["answer"])), np.asarray(vector, dtype=np.float32))
            for meta, vector in zip(
                rows["metadatas"] or [],
                rows["embeddings"] if rows["embeddings"] is not None else [],
                strict=True,
            )
        ]


def add_official_answer(
    settings: RagSettings,
    embed_queries: Callable[[Sequence[str]], np.ndarray],
    answer: OfficialAnswer,
    today: Callable[[], date] = paris_today,
) -> StoredAnswer:
    """Check and store ``answer`` (the command line and the console both add through here); each
    refusal is one sentence saying what to change."""
    text, source = " ".join(answer.text.split()), answer.source.strip()
    if not text or not source:
        raise OfficialAnswerError("Give the answer's text and its source as an http(s) link.")
    if len(text) > MAX_ANSWER_CHARS:
        raise OfficialAnswerError(
            f"The answer has {len(text)} characters; at most {MAX_ANSWER_CHARS}: shorten it or split it."
        )
    if problem := source_problem(source):
        raise OfficialAnswerError(problem)
    if answer.valid_from and answer.valid_until and answer.valid_until < answer.valid_from:
        raise OfficialAnswerError("--valid-until is before --valid-from: give an end after the start.")
    if answer.valid_until is not None and answer.valid_until < today():
        raise OfficialAnswerError(
            f"Its validity ended on {answer.valid_until.isoformat()} (Europe/Paris): "
            "give a --valid-until of today or later."
        )
    checked = answer.model_copy(update={"text": text, "source": source, "question": answer.question.strip()})
    vector = embed_queries([checked.question or checked.text])[0]
    answers = OfficialAnswers.open(settings)
    replaced = answers.contains(answer_id(text, source, checked.valid_from, checked.valid_until))
    return StoredAnswer(answers.add(checked, vector), replaced)
