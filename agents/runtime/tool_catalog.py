"""The weather, travel and visit-calendar tools, built once per service around one shared HTTP client."""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.tools import BaseTool

from agents.tool_settings import ToolSettings
from agents.tools.http import ToolHttpClient
from agents.tools.travel.tool import TravelService, build_travel_tool
from agents.tools.weather.tool import WeatherService, build_weather_tool
from agents.visit_calendar.tool import CalendarService, SourceTexts, build_calendar_tool


@dataclass
class VisitorTools:
    """``get_weather`` and ``get_travel_info`` sharing one ``httpx`` client (timeouts, retries), and
    ``get_visit_calendar``, whose rules are checked against ``source_texts`` (the index's documents)."""

    settings: ToolSettings = field(default_factory=ToolSettings)
    source_texts: SourceTexts | None = None

    def __post_init__(self) -> None:
        self.http = ToolHttpClient(self.settings)
        self.weather = WeatherService(self.settings, self.http)
        self.travel = TravelService(self.settings, self.http)
        self.calendar = CalendarService(self.settings, self.source_texts)

    @property
    def tools(self) -> list[BaseTool]:
        return [
            build_weather_tool(self.weather),
            build_travel_tool(self.travel),
            build_calendar_tool(self.calendar),
        ]

    def close(self) -> None:
        self.http.close()
