"""Weather and travel tools as the agent sees them today: declared, honest, not yet implemented.

The graph and the models already route to ``get_weather`` and ``get_travel_info``; their real
implementations (Open-Meteo with climate normals, a gazetteer and routing) come with issue 4.
Until then each returns ``status="unavailable"`` and a summary that says where to look, so the
answer never invents a forecast or a timetable.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field


class PendingToolResult(BaseModel):
    """Result shape shared with the future implementations: status, source and a summary."""

    status: Literal["ok", "unavailable", "error"]
    source: str
    summary: str


class WeatherArguments(BaseModel):
    date: str = Field(
        description="The day, as the visitor wrote it ('demain', 'next Saturday', '2026-07-14')."
    )
    place: str = Field("Versailles", description="Where; Versailles by default.")


class TravelArguments(BaseModel):
    origin: str = Field(description="Where the visitor starts from (a station, airport, landmark or town).")
    mode: str | None = Field(None, description="Preferred mode: public transport, car, bike or walking.")


def _weather(date: str, place: str = "Versailles") -> str:
    return PendingToolResult(
        status="unavailable",
        source="none",
        summary=f"No weather service is connected yet, so there is no forecast for {date} in {place}: "
        "see meteofrance.com. The Palace's rooms are indoors; the gardens are outdoors.",
    ).model_dump_json()


def _travel(origin: str, mode: str | None = None) -> str:
    return PendingToolResult(
        status="unavailable",
        source="none",
        summary=f"No route planner is connected yet for a trip from {origin}: the knowledge base "
        "describes the trains (RER C, SNCF) and buses that serve Versailles.",
    ).model_dump_json()


def pending_tools() -> list[BaseTool]:
    """``get_weather`` and ``get_travel_info`` with descriptions written for the LLM."""
    return [
        StructuredTool.from_function(
            func=_weather,
            name="get_weather",
            description="Weather forecast for a day of the visit at Versailles (temperatures, rain, "
            "wind). Use when the visitor asks about the weather or plans around it.",
            args_schema=WeatherArguments,
        ),
        StructuredTool.from_function(
            func=_travel,
            name="get_travel_info",
            description="How to reach the Palace of Versailles from a place (station, airport, "
            "landmark, town): public transport, car, bike, walking.",
            args_schema=TravelArguments,
        ),
    ]
