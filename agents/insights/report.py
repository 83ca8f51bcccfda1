"""Insights over the questions log: counts per day and language, groups of questions by meaning
across languages, and the content gaps (the groups that fail most), each with the closest pages.

Pure of I/O but for the log and the embedder passed in; the CLI and the console draw the result.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import numpy as np
from pydantic import BaseModel, Field

from agents.insights.freshness import STALE_AFTER_DAYS, StaleSource, stale_sources
from agents.insights.grouping import centred, leader_groups, reference_questions
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog, text_hash
from rag.embeddings import Embedder

EXAMPLES_PER_LANGUAGE = 3
MISSING_PER_GAP = 5
PAGES_PER_GAP = 3
EMBED_BATCH = 256

PageSearch = Callable[[str], list[dict[str, str]]]  # a question -> the closest pages: title, url


class QuestionGroup(BaseModel):
    """Questions asking the same thing, in any language, and how well they were answered."""

    id: int
    label: str  # the commonest wording
    size: int
    languages: dict[str, int]
    examples: dict[str, list[str]]  # up to three wordings per language, commonest first
    answered: float  # shares of the group's turns, 0 to 1
    partial: float
    not_found: float
    not_helpful: float
    failing: int = 0  # turns not found, partial or marked not helpful
    missing: list[str] = Field(default_factory=list)  # what the gap analysis said was missing
    comments: list[str] = Field(default_factory=list)  # visitors' comments (masked), newest first
    pages: list[dict[str, str]] = Field(default_factory=list)  # closest pages of the knowledge base
    wordings: list[str] = Field(default_factory=list, exclude=True)  # every distinct wording (CSV)


class Insights(BaseModel):
    """What ``python -m agents insights --json`` prints and the console draws."""

    days: int
    questions: int
    by_language: dict[str, int]
    by_day: dict[str, int]
    groups: list[QuestionGroup]
    gaps: list[QuestionGroup]
    stale_after_days: int = STALE_AFTER_DAYS
    stale_sources: list[StaleSource] = Field(default_factory=list)  # most cited, not re-checked lately
    group_of: dict[str, int] = Field(default_factory=dict, exclude=True)  # question text -> group id


def embed_questions(log: QuestionLog, embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Each text's embedding, from the log's cache; only texts never seen are embedded (once)."""
    name = getattr(embedder, "name", type(embedder).__name__)
    hashes = [text_hash(text) for text in texts]
    cached = log.vectors(name, hashes)
    missing = [text for text, key in zip(texts, hashes, strict=True) if key not in cached]
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start : start + EMBED_BATCH]
        fresh = np.asarray(embedder.embed_queries(batch), dtype=np.float32)
        found = {text_hash(text): vector for text, vector in zip(batch, fresh, strict=True)}
        log.store_vectors(name, found)
        cached.update(found)
    return np.stack([cached[key] for key in hashes]) if hashes else np.zeros((0, 1), np.float32)


def _share(count: int, total: int) -> float:
    return round(count / total, 3) if total else 0.0


def _summarise(number: int, wordings: list[str], turns: list[LoggedQuestion]) -> QuestionGroup:
    kinds = Counter(turn.kind for turn in turns)
    not_helpful = sum(turn.feedback == "not_helpful" for turn in turns)
    per_language: dict[str, Counter[str]] = defaultdict(Counter)
    for turn in turns:
        per_language[turn.language or "?"][turn.question] += 1
    missing = Counter(part for turn in turns for part in turn.missing)
    comments = [turn.comment for turn in reversed(turns) if turn.comment][:EXAMPLES_PER_LANGUAGE]
    return QuestionGroup(
        id=number,
        label=wordings[0],
        size=len(turns),
        languages={
            lang: sum(c.values()) for lang, c in sorted(per_language.items(), key=lambda i: -i[1].total())
        },
        examples={
            lang: [text for text, _ in counts.most_common(EXAMPLES_PER_LANGUAGE)]
            for lang, counts in per_language.items()
        },
        answered=_share(kinds["answered"], len(turns)),
        partial=_share(kinds["partial"], len(turns)),
        not_found=_share(kinds["not_found"], len(turns)),
        not_helpful=_share(not_helpful, len(turns)),
        failing=sum(turn.kind != "answered" or turn.feedback == "not_helpful" for turn in turns),
        missing=[part for part, _ in missing.most_common(MISSING_PER_GAP)],
        comments=comments,
        wordings=wordings,
    )


def group_turns(
    log: QuestionLog, embedder: Embedder, turns: list[LoggedQuestion], threshold: float | None = None
) -> list[QuestionGroup]:
    """The turns grouped by the meaning of their questions, largest group first."""
    by_text: dict[str, list[LoggedQuestion]] = defaultdict(list)
    for turn in turns:
        by_text[turn.question].append(turn)
    texts = sorted(by_text, key=lambda text: (-len(by_text[text]), text))  # leaders: the commonest
    if not texts:
        return []
    references = reference_questions()
    vectors = embed_questions(log, embedder, [*texts, *references])
    own = centred(vectors[: len(texts)], vectors)
    labels = leader_groups(own) if threshold is None else leader_groups(own, threshold)
    members: dict[int, list[str]] = defaultdict(list)
    for text, label in zip(texts, labels, strict=True):
        members[label].append(text)
    groups = [
        _summarise(0, wordings, [turn for text in wordings for turn in by_text[text]])
        for wordings in members.values()
    ]
    groups.sort(key=lambda group: (-group.size, group.label))
    for number, group in enumerate(groups, 1):
        group.id = number
    return groups


def rank_gaps(groups: list[QuestionGroup], search: PageSearch | None, limit: int = 10) -> list[QuestionGroup]:
    """The groups with the most turns not found, partial or not helpful, with the closest pages."""
    failing = sorted(
        (group for group in groups if group.failing),
        key=lambda group: (-group.failing, -(group.not_found + group.partial + group.not_helpful), group.id),
    )[:limit]
    gaps = [group.model_copy(deep=True) for group in failing]
    for gap in gaps:
        if search is not None:
            gap.pages = search(gap.label)[:PAGES_PER_GAP]
    return gaps


def build_insights(
    log: QuestionLog,
    embedder: Embedder,
    days: int = 30,
    search: PageSearch | None = None,
    now: float | None = None,
    max_gaps: int = 10,
    checked: dict[str, float] | None = None,
    stale_after_days: int = STALE_AFTER_DAYS,
) -> Insights:
    """Insights over the last ``days`` days of the log."""
    since = (now or time.time()) - days * DAY_SECONDS
    turns = log.questions(since)
    days_since_epoch = Counter(int(turn.asked_at // DAY_SECONDS) for turn in turns)  # UTC days, cheaply
    by_day = {
        datetime.fromtimestamp(day * DAY_SECONDS, UTC).date().isoformat(): count
        for day, count in days_since_epoch.items()
    }
    groups = group_turns(log, embedder, turns)
    return Insights(
        group_of={text: group.id for group in groups for text in group.wordings},
        days=days,
        questions=len(turns),
        by_language=dict(Counter(turn.language or "?" for turn in turns).most_common()),
        by_day=dict(sorted(by_day.items())),
        groups=groups,
        gaps=rank_gaps(groups, search, max_gaps),
        stale_after_days=stale_after_days,
        stale_sources=stale_sources(turns, checked or {}, stale_after_days, now),
    )
