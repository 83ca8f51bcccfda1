"""The one shape of a retrieved passage, from the Chroma row to the citation a visitor reads."""

from __future__ import annotations

from pydantic import BaseModel, Field

# Collections whose passages state a value rather than discuss it: an operator's official answer,
# and the excerpt a visit fact is checked against. A reader may head its answer with them.
OFFICIAL_COLLECTION = "official"
VISIT_FACTS_COLLECTION = "visit_facts"


class Passage(BaseModel):
    """A retrieved chunk (widened with its neighbours), with the score of every stage that ranked it.

    Retrieval returns it, the search tool returns it as its artifact, the agent's state holds it
    (``number`` is given once, when it joins a turn's evidence) and a citation refers to it.
    """

    chunk_id: str
    text: str
    title: str = ""
    headings: str = ""  # the section path inside the document ("Horaires > Jardins")
    source: str = ""  # the URL or file path it was indexed from
    sources: list[str] = Field(default_factory=list)  # every URL or path the same text was seen under
    url: str = ""  # the official page a guide summarises (its front matter); pages link to ``source``
    category: str = ""
    language: str = ""
    collection: str = ""
    score: float = 0.0  # the final ranking score
    scores: dict[str, float] = Field(default_factory=dict)  # bm25, dense, rrf, coverage, rerank...
    number: int | None = None  # its number in the turn's evidence, cited as [n]

    @property
    def page(self) -> str:
        """The address a reader opens for it: the guide's official page, else where it was indexed from."""
        return self.url or self.source

    def rounded(self) -> Passage:
        """The same passage with scores rounded for display and JSON."""
        return self.model_copy(
            update={
                "score": round(self.score, 6),
                "scores": {name: round(value, 6) for name, value in self.scores.items()},
            }
        )
