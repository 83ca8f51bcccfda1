"""The answer a turn produces, typed: its text, its kind, and its numbered citations with passages."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rag.passage import Passage

AnswerKind = Literal["answered", "partial", "not_found"]
# The key of a reply's ``response_metadata`` under which a model may say which kind of answer it wrote
# (the offline model does); the answer node reads it there.
ANSWER_KIND_KEY = "answer_kind"


class Citation(BaseModel):
    """One cited source under the number the answer shows, with the passages cited from it."""

    number: int
    title: str
    source: str  # the URL or file path it was indexed from
    url: str = ""  # the official page a guide summarises (front matter); a page's own URL is ``source``

    @property
    def page(self) -> str:
        """The address a reader opens: the guide's official page, else where it was indexed from."""
        return self.url or self.source

    passages: list[Passage] = Field(default_factory=list)


class CheckedValue(BaseModel):
    """A value the answer stated (a price, a time, a date…) and where it was found."""

    text: str  # as the answer wrote it
    kind: str  # price, hours, date, duration, phone, distance, age, area, count
    verified: bool
    cited: list[int] = Field(default_factory=list)  # evidence numbers its sentence cites
    found_in: list[int] = Field(default_factory=list)  # evidence numbers of the passages stating it
    in_tool_result: bool = False


class Answer(BaseModel):
    """What the visitor reads: any front end draws it without parsing the text."""

    text: str = ""
    kind: AnswerKind = "answered"
    citations: list[Citation] = Field(default_factory=list)  # in the order the answer first cites them
    removed_citations: list[int] = Field(default_factory=list)  # evidence numbers that matched no passage
    values: list[CheckedValue] = Field(default_factory=list)  # every value stated, verified or not
    removed_sentences: list[str] = Field(default_factory=list)  # sentences dropped for unverified values
    related: list[int] = Field(default_factory=list)  # shown numbers offered as related, not as the answer

    @property
    def abstained(self) -> bool:
        """The knowledge base was searched and the answer says it does not tell."""
        return self.kind == "not_found"

    def cited_passages(self) -> list[tuple[Citation, Passage]]:
        """Every cited passage with the citation it is shown under, in citation order."""
        return [(citation, passage) for citation in self.citations for passage in citation.passages]

    def shown_numbers(self) -> dict[int, int]:
        """Evidence number -> the number the answer shows for it."""
        return {p.number: c.number for c in self.citations for p in c.passages if p.number is not None}
