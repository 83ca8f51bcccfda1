"""One visitor turn read as a request: its topics, the slots each topic needs, what it inherited."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rag.lexicon.transport import TravelMode

Topic = Literal["knowledge_base", "weather", "travel"]
TOPICS: tuple[Topic, ...] = ("knowledge_base", "weather", "travel")
VERSAILLES = "Versailles"


class WeatherSlots(BaseModel):
    """Where and when the weather is asked for; ``day`` as the visitor wrote it."""

    model_config = ConfigDict(frozen=True)

    place: str = VERSAILLES
    day: str = "today"
    far: bool = False  # the place is not Versailles nor near it: the weather tool is not asked


class TravelSlots(BaseModel):
    """Where the visitor starts from and how they travel (None: not said, every option)."""

    model_config = ConfigDict(frozen=True)

    origin: str | None = None
    mode: TravelMode | None = None
    far: bool = False  # the journey ends at another known place, not at the Palace


class KnowledgeBaseSlots(BaseModel):
    """What the knowledge base is asked: the subject and the standalone text to search."""

    model_config = ConfigDict(frozen=True)

    subject: str  # the question the conversation is about; a follow-up keeps its predecessor's
    search: str  # the turn made standalone: a follow-up's words completed by the subject
    queries: list[str] = Field(default_factory=list)  # what to search, one query per need
    aspects: list[str] = Field(default_factory=list)  # what it asks of the visit facts, by meaning
    # searched only beside a tool (read by a narrow margin, or a route on a day): they ask the visit
    # facts nothing, and what the evidence does not answer is left to the tool
    beside_tool: bool = False


class TurnRequest(BaseModel):
    """A visitor turn as data: what it asks (several topics allowed), with which slots, in which
    language, and what it took from the previous turn's request because it left it unsaid."""

    model_config = ConfigDict(frozen=True)

    message: str
    topics: list[Topic] = Field(default_factory=list)
    knowledge_base: KnowledgeBaseSlots
    weather: WeatherSlots | None = None
    travel: TravelSlots | None = None
    places: list[str] = Field(default_factory=list)  # gazetteer places it names besides the Palace
    elliptical: bool = False  # it leaves its question unsaid ("and on Sunday?", "from there")
    inherited: list[str] = Field(default_factory=list)  # e.g. "topics", "travel.origin", "subject"
    language: str = "en"  # the reply language
    unsupported_language: str | None = None  # the message's language when the assistant lacks it

    @property
    def question(self) -> str:
        """The standalone question: the follow-up completed with its subject, else the message."""
        return self.knowledge_base.search
