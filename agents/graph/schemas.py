"""Structured outputs of the reasoning nodes, and the tagged layout of their prompts.

Every node prompt that carries the visitor's question, the reply language or evidence uses the
same tags, so that a model reads them the same way in every node (``agents.graph.gathered`` renders
them, and hands the same context typed as the message's artifact):
``<question>…</question>``, ``<language>fr</language>`` and the ``<evidence>`` block of
``agents.tools.knowledge_base.render_evidence``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class GapAnalysis(BaseModel):
    """Which parts of the question the evidence answers, which are missing, how to fill them."""

    answered: list[str] = Field(
        default_factory=list, description="Aspects of the question the evidence answers."
    )
    missing: list[str] = Field(default_factory=list, description="Aspects the evidence does not answer yet.")
    follow_up_queries: list[str] = Field(
        default_factory=list,
        description="New knowledge-base queries (in the knowledge base's language), one per missing aspect.",
    )


class Critique(BaseModel):
    """Is the evidence enough to answer the whole question?"""

    sufficient: bool = Field(description="True when the evidence answers every part of the question.")
    reason: str = Field(description="One sentence explaining the verdict.")


def tagged(name: str, value: str) -> str:
    """``<name>value</name>``."""
    return f"<{name}>{value}</{name}>"
