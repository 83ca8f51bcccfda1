"""The one result shape every non-search tool returns: status, data source and a quotable summary."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from rag.passage import Passage

ToolStatus = Literal["ok", "not_found", "invalid", "unavailable", "error"]
DataSource = Literal["forecast", "climate normals", "router", "estimate", "calendar", "none"]


class ToolResult(BaseModel):
    """Base of the weather and travel results; subclasses add their data fields.

    ``status``: ``ok`` (data below), ``not_found`` (unknown place), ``invalid`` (a date in the
    past or unreadable), ``unavailable`` (no service and no fallback), ``error`` (unexpected).
    ``source`` says where the figures come from, so a typical month is never taken for a forecast.
    ``summary`` is a short, factual text the model can quote as is.
    """

    status: ToolStatus
    source: DataSource = "none"
    summary: str = Field(description="Human-readable result the model may quote.")

    def to_json(self) -> str:
        """The serialised form given to the model (done once, here)."""
        return self.model_dump_json(exclude_none=True)


class ToolOutcome(BaseModel):
    """A weather, travel or calendar call of this turn as the graph keeps it: the call, the tool's
    result, and the passages the result cites its values from (typed, to join the evidence)."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    status: str = "ok"
    summary: str = ""
    result: dict[str, Any] = Field(default_factory=dict)  # the JSON the model read, less the passages
    passages: list[Passage] = Field(default_factory=list)  # the visit facts' excerpts, cited by chunk id

    @model_validator(mode="before")
    @classmethod
    def _passages_apart(cls, data: Any) -> Any:
        """Outcomes stored by earlier versions kept the passages as dicts inside ``result``."""
        if isinstance(data, dict) and isinstance(result := data.get("result"), dict) and "passages" in result:
            found = result["passages"]
            data = {
                **data,
                "result": {k: v for k, v in result.items() if k != "passages"},
                "passages": data.get("passages") or (found if isinstance(found, list) else []),
            }
        return data

    def for_model(self) -> dict[str, Any]:
        """The record a prompt shows: the call, then every field of the result (its passages are
        shown numbered among the evidence)."""
        return {"tool": self.tool, "args": self.args, **self.result}
