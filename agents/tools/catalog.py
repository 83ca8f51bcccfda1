"""The weather and travel tools, built once per service around one shared HTTP client."""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_core.tools import BaseTool

from agents.tools.http import ToolHttpClient
from agents.tools.settings import ToolSettings
from agents.tools.travel import TravelService, build_travel_tool
from agents.tools.weather import WeatherService, build_weather_tool


@dataclass
class VisitorTools:
    """``get_weather`` and ``get_travel_info`` sharing one ``httpx`` client (timeouts, retries)."""

    settings: ToolSettings = field(default_factory=ToolSettings)

    def __post_init__(self) -> None:
        self.http = ToolHttpClient(self.settings)
        self.weather = WeatherService(self.settings, self.http)
        self.travel = TravelService(self.settings, self.http)

    @property
    def tools(self) -> list[BaseTool]:
        return [build_weather_tool(self.weather), build_travel_tool(self.travel)]

    def close(self) -> None:
        self.http.close()
