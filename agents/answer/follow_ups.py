"""Two or three questions a visitor may ask next, from the visit topics an answer was about.

The topics, their questions in the nine reply languages and the signals that mark an answer as
being about one live in ``data/follow_ups.toml``: a topic is answered when a cited passage was
indexed from an address holding one of its signals (``plan-your-visit/opening-hours.en.md``,
``…/billets-tarifs``) or when one of its tools answered (directions). The suggestions are the
related topics of the topics answered, the first cited first, never a topic already answered. A
declined answer, or one about no known topic (a greeting, the weather), gets none.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from agents.answer.model import Answer
from rag.config import PROJECT_ROOT
from rag.lexicon.folding import fold_accents
from rag.lexicon.stores import read_store

FOLLOW_UPS_FILE = PROJECT_ROOT / "data" / "follow_ups.toml"
MAX_SUGGESTIONS = 3


class Topic(BaseModel):
    """A visit topic: one question per reply language, what it leads to, what marks an answer of it."""

    id: str
    signals: list[str] = Field(min_length=1)
    related: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    question: dict[str, str]

    def marks(self, address: str) -> bool:
        """Whether ``address`` (where a cited passage was indexed from, folded) holds one of its signals."""
        return any(_folded(signal) in address for signal in self.signals)


class TopicTable(BaseModel):
    topic: list[Topic]


@cache
def load_topics(path: Path = FOLLOW_UPS_FILE) -> dict[str, Topic]:
    """The topics of ``path`` by id, in the file's order."""
    table = TopicTable.model_validate(read_store(path))
    return {topic.id: topic for topic in table.topic}


def answered_topics(reply: Answer, topics: dict[str, Topic], tools: Sequence[str] = ()) -> list[str]:
    """The topics ``reply`` is about, first cited first: judged by where its cited passages were
    indexed from, then by the ``tools`` called for it."""
    found: list[str] = []
    for citation in reply.citations:
        for address in (citation.source, citation.url):
            found += [
                t.id for t in topics.values() if address and t.marks(_folded(address)) and t.id not in found
            ]
    found += [t.id for t in topics.values() if set(t.tools) & set(tools) and t.id not in found]
    return found


def suggest_follow_ups(
    reply: Answer, language: str, tools: Sequence[str] = (), topics: dict[str, Topic] | None = None
) -> list[str]:
    """Up to three questions in ``language`` on topics related to the answer's, none it answered."""
    if reply.kind == "not_found" or reply.related or not reply.text.strip():
        return []
    topics = load_topics() if topics is None else topics
    answered = answered_topics(reply, topics, tools)
    suggested: list[str] = []
    for topic_id in answered:
        for related in topics[topic_id].related:
            if related not in answered and related not in suggested and related in topics:
                suggested.append(related)
    questions = [topics[topic_id].question.get(language) for topic_id in suggested]
    return [question for question in questions if question][:MAX_SUGGESTIONS]


def _folded(text: str) -> str:
    return fold_accents(text).casefold()
