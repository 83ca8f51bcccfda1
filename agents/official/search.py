"""The knowledge base searched with the official answers first.

An official answer is used when the visitor's query asks what it answers (its question, else its
text): the same centred cosine and threshold that group visitors' questions by meaning
(:mod:`agents.insights.grouping`), and, when the answer names topics of the glossary, the query
names one of them too ("Yes, it is free." never answers "Can I bring my dog?"). Only answers valid
on the day the query names (today when it names none) are used; an expired one never is.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import date

import numpy as np

from agents.insights.grouping import GROUP_THRESHOLD, centred, reference_questions
from agents.official.store import OfficialAnswer, OfficialAnswers, paris_today
from agents.tools.dates import parse_visit_date
from agents.tools.day_phrases import date_phrase_in
from rag.language import detect_language
from rag.lexicon.concepts import concept_name, found_in, roles
from rag.passage import OFFICIAL_COLLECTION, Passage
from rag.retriever import HybridRetriever

logger = logging.getLogger(__name__)
RELOAD_SECONDS = 30.0  # an answer added or removed from the command line is seen this soon


def official_passage(answer: OfficialAnswer, similarity: float) -> Passage:
    """An official answer as a passage: its own collection name marks it for the citation."""
    return Passage(
        chunk_id=answer.id,
        text=answer.text,
        title=f"Official answer, {answer.dated}",
        headings=answer.dated,
        source=answer.source,
        sources=[answer.source],
        language=answer.language,
        collection=OFFICIAL_COLLECTION,
        score=1.0,
        scores={"official": round(similarity, 6)},
    )


def topics_named(text: str, language: str) -> set[str]:
    """The glossary concepts ``text`` names in ``language`` or English, question words left out."""
    asking = set(roles()["question"])
    return {name for c, _, _ in found_in(text, [language, "en"]) if (name := concept_name(c)) not in asking}


def shares_topic(asked: set[str], answer: OfficialAnswer) -> bool:
    """Whether a query naming ``asked`` may be answered by ``answer``: it names one of the answer's
    topics, or the answer names none (its meaning alone decides)."""
    told = topics_named(f"{answer.question} {answer.text}", answer.language or "en")
    return not told or bool(asked & told)


class OfficialFirstSearcher:
    """What the search tool and the follow-ups call: official answers, then the knowledge base."""

    def __init__(
        self,
        retriever: HybridRetriever,
        threshold: float = GROUP_THRESHOLD,
        today: Callable[[], date] = paris_today,  # the visit's day, whatever the server's zone
    ) -> None:
        self.retriever, self.threshold, self.today = retriever, threshold, today
        self._answers: list[tuple[OfficialAnswer, np.ndarray]] = []
        self._loaded_at = -RELOAD_SECONDS
        self._background: np.ndarray | None = None

    @property
    def languages(self) -> list[str]:
        return self.retriever.languages

    @property
    def embedder(self) -> object:
        return self.retriever.embedder

    def _load(self) -> list[tuple[OfficialAnswer, np.ndarray]]:
        if time.monotonic() - self._loaded_at >= RELOAD_SECONDS:
            self._loaded_at = time.monotonic()
            try:
                store = OfficialAnswers.existing(self.retriever.settings)
                self._answers = store.vectors() if store is not None else []
            except Exception as error:  # noqa: BLE001 - the knowledge base still answers without them
                logger.warning("Official answers could not be read (%s).", type(error).__name__)
        return self._answers

    def matches(self, query: str) -> list[Passage]:
        """The official answers valid on the day ``query`` names (else today) that answer it,
        closest first."""
        answers = self._load()
        if not answers:
            return []
        phrase = date_phrase_in(query)  # the words naming a day, not the whole query read as one
        day = (parse_visit_date(phrase, self.today()).day if phrase else None) or self.today()
        asked = topics_named(query, detect_language(query, default="en") or "en")
        answers = [
            (answer, vector)
            for answer, vector in answers
            if answer.valid_on(day) and shares_topic(asked, answer)
        ]
        if not answers:
            return []
        if self._background is None:
            self._background = self.retriever.embedder.embed_queries(reference_questions())
        query_vector = self.retriever.embedder.embed_queries([query])
        both = centred(
            np.vstack([query_vector, np.stack([vector for _, vector in answers])]), self._background
        )
        similarities = both[1:] @ both[0]
        order = np.argsort(-similarities)
        return [
            official_passage(answers[i][0], float(similarities[i]))
            for i in order
            if similarities[i] >= self.threshold
        ]

    def search(self, query: str, k: int = 5) -> list[Passage]:
        official = self.matches(query)[:k]
        return (
            [*official, *self.retriever.search(query, k=k)][:k]
            if official
            else self.retriever.search(query, k=k)
        )
