"""The ``get_weather`` tool: an Open-Meteo forecast for one day, else the month's climate normals.

A forecast needs a readable, future date within the forecast horizon, a known place and a
reachable service. Beyond the horizon, when the service fails or when the tools are offline, the
result carries the month's typical conditions (``data/weather/climate_normals.json``), labelled as
such in its ``source`` and its summary, so that a typical month is never presented as a forecast.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, ValidationError

from agents.tool_settings import ToolSettings
from agents.tools.dates import ParsedDate, parse_visit_date
from agents.tools.http import ServiceUnavailable, ToolHttpClient
from agents.tools.results import ToolResult
from agents.tools.weather.advice import conditions, visit_advice
from agents.tools.weather.phrases import Phrases
from agents.tools.weather.places import GEOCODING_URL, Place, built_in_place, geocode
from rag.lexicon.dates import day_label
from rag.lexicon.languages import SUPPORTED_LANGUAGES

logger = logging.getLogger(__name__)

DAILY_VARIABLES = (
    "temperature_2m_max", "temperature_2m_min", "precipitation_probability_max", "precipitation_sum",
    "wind_speed_10m_max", "weather_code",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FallbackReason = Literal["beyond_horizon", "service_unavailable", "offline"]


class TypicalMonth(BaseModel):
    """A month's climate normals: what is usual, not what will happen."""

    month: int = Field(ge=1, le=12)
    temperature_max_c: float = Field(description="Mean daily maximum.")
    temperature_min_c: float = Field(description="Mean daily minimum.")
    precipitation_mm: float = Field(description="Total over the month.")
    rain_days: float = Field(description="Days with at least 1 mm of precipitation.")
    sunshine_hours: float = Field(description="Total over the month.")
    source: str


class WeatherResult(ToolResult):
    """The only shape ``get_weather`` returns; figures are absent when they do not apply."""

    date_text: str = Field(description="The date as the visitor wrote it.")
    date: str | None = Field(None, description="The day, ISO 8601.")
    date_label: str | None = Field(
        None, description="The day as the summary's language writes it ('samedi 28 novembre 2026')."
    )
    weekday: str | None = None
    days_ahead: int | None = None
    place: str
    latitude: float | None = None
    longitude: float | None = None
    conditions: str | None = Field(None, description="Kind of weather from the WMO code (e.g. 'showers').")
    weather_code: int | None = None
    temperature_max_c: float | None = None
    temperature_min_c: float | None = None
    precipitation_probability_max_pct: float | None = None
    precipitation_sum_mm: float | None = None
    wind_speed_max_kmh: float | None = None
    advice: list[str] = Field(default_factory=list, description="Visit advice, in the summary's language.")
    typical: TypicalMonth | None = Field(
        None, description="Climate normals, when source is 'climate normals'."
    )
    fallback_reason: FallbackReason | None = None
    language: str = "en"


class WeatherArguments(BaseModel):
    """Arguments the LLM fills in."""

    date: str = Field(
        description="The day as the visitor wrote it, in any language ('demain', 'next Saturday', "
        "'le 14 juillet', 'sábado', '明天') or ISO 8601 ('2026-07-14'). One day per call."
    )
    place: str = Field("Versailles", description="A town in the Paris region; Versailles by default.")
    language: str = Field(
        "en", description="The visitor's language, ISO 639-1 ('fr', 'ja'), for the summary."
    )


class _Daily(BaseModel):
    time: list[str]
    temperature_2m_max: list[float | None]
    temperature_2m_min: list[float | None]
    precipitation_probability_max: list[float | None]
    precipitation_sum: list[float | None]
    wind_speed_10m_max: list[float | None]
    weather_code: list[int | None]


class _ForecastAnswer(BaseModel):
    daily: _Daily


class ClimateNormals(BaseModel):
    """The shipped normals: twelve months, January first, and where the figures come from."""

    source: str
    source_short: str
    months: tuple[TypicalMonth, ...] = Field(min_length=12, max_length=12)


@functools.lru_cache(maxsize=4)
def load_climate_normals(path: Path) -> ClimateNormals:
    """``data/weather/climate_normals.json``, read once."""
    data = json.loads(path.read_text(encoding="utf-8"))
    months = [
        TypicalMonth(month=month, source=data["source"], **data["months"][str(month)])
        for month in range(1, 13)
    ]
    return ClimateNormals(source=data["source"], source_short=data["source_short"], months=tuple(months))


def _paris_today(timezone: str) -> Callable[[], dt.date]:
    return lambda: dt.datetime.now(ZoneInfo(timezone)).date()


class WeatherService:
    """Answers ``get_weather``: parses the date, finds the place, forecasts or falls back to normals."""

    def __init__(
        self,
        settings: ToolSettings | None = None,
        http: ToolHttpClient | None = None,
        today: Callable[[], dt.date] | None = None,
        geocoding_url: str = GEOCODING_URL,
    ) -> None:
        self.settings = settings or ToolSettings()
        self.http = http or ToolHttpClient(self.settings)
        self.today = today or _paris_today(self.settings.timezone)
        self.geocoding_url = geocoding_url
        self.normals_file = self.settings.data_dir / "weather" / "climate_normals.json"

    def get(self, date: str, place: str = "Versailles", language: str = "en") -> WeatherResult:
        """The weather result for ``date`` (as written) at ``place``, summarised in ``language``."""
        phrases = Phrases(language)
        today = self.today()
        base = WeatherResult(
            status="invalid", summary="", date_text=date, place=place, language=phrases.language
        )
        parsed = parse_visit_date(date, today, _languages(phrases.language))
        if parsed.status != "ok" or parsed.day is None:
            return _invalid(base, parsed, today, phrases)
        day = parsed.day
        base = base.model_copy(
            update={
                "date": day.isoformat(),
                "date_label": day_label(day, phrases.language),
                "weekday": WEEKDAYS[day.weekday()],
                "days_ahead": (day - today).days,
            }
        )
        found = self._locate(place, phrases.language)
        if found is None:
            key = "not_found_offline" if self.settings.offline else "not_found"
            return base.model_copy(update={"status": "not_found", "summary": phrases.say(key, place=place)})
        base = base.model_copy(
            update={"place": found.name, "latitude": found.latitude, "longitude": found.longitude}
        )
        if self.settings.offline:
            return self._typical(base, found, day, "offline", phrases)
        if (day - today).days >= self.settings.forecast_days:
            return self._typical(base, found, day, "beyond_horizon", phrases)
        try:
            return self._forecast(base, found, day, phrases)
        except ServiceUnavailable as error:
            logger.warning("No forecast for %s on %s: %s", found.name, day, error)
            return self._typical(base, found, day, "service_unavailable", phrases)

    def _locate(self, name: str, language: str) -> Place | None:
        place = built_in_place(name)
        if place is not None or self.settings.offline:
            return place
        try:
            return geocode(self.http, name, self.geocoding_url, language)
        except ServiceUnavailable as error:
            logger.warning("Could not look up %r: %s", name, error)
            return None

    def _forecast(self, base: WeatherResult, place: Place, day: dt.date, phrases: Phrases) -> WeatherResult:
        payload = self.http.get_json(
            self.settings.forecast_url,
            params={
                "latitude": place.latitude,
                "longitude": place.longitude,
                "daily": ",".join(DAILY_VARIABLES),
                "timezone": self.settings.timezone,
                "start_date": day.isoformat(),
                "end_date": day.isoformat(),
            },
        )
        try:
            daily = _ForecastAnswer.model_validate(payload).daily
            index = daily.time.index(day.isoformat())
            high, low = daily.temperature_2m_max[index], daily.temperature_2m_min[index]
        except (ValidationError, ValueError, IndexError) as error:
            raise ServiceUnavailable(f"{self.settings.forecast_url} gave an unreadable forecast") from error
        if high is None or low is None:
            raise ServiceUnavailable(f"{self.settings.forecast_url} has no temperatures for {day}")
        probability, amount = daily.precipitation_probability_max[index], daily.precipitation_sum[index]
        wind, code = daily.wind_speed_10m_max[index], daily.weather_code[index]
        kinds = visit_advice(high, probability, amount, wind)
        result = base.model_copy(
            update={
                "status": "ok",
                "source": "forecast",
                "conditions": conditions(code),
                "weather_code": code,
                "temperature_max_c": high,
                "temperature_min_c": low,
                "precipitation_probability_max_pct": probability,
                "precipitation_sum_mm": amount,
                "wind_speed_max_kmh": wind,
                "advice": [phrases.advice(kind) for kind in kinds],
            }
        )
        return result.model_copy(update={"summary": _forecast_summary(result, phrases)})

    def _typical(
        self, base: WeatherResult, place: Place, day: dt.date, reason: FallbackReason, phrases: Phrases
    ) -> WeatherResult:
        # Open-Meteo counts today among its forecast days: the last forecast day is forecast_days - 1 ahead.
        why = phrases.say(reason, date=base.date_label, days=self.settings.forecast_days - 1)
        base = base.model_copy(update={"fallback_reason": reason})
        if not place.near_versailles:
            summary = phrases.sentences([why, phrases.say("no_normals", place=place.name)])
            return base.model_copy(update={"status": "unavailable", "summary": summary})
        normals = load_climate_normals(self.normals_file)
        month = normals.months[day.month - 1]
        advice = [phrases.advice(kind) for kind in visit_advice(month.temperature_max_c, typical=True)]
        typical = phrases.say(
            "typical",
            month=phrases.month(day.month),
            source=normals.source_short,
            low=phrases.number(month.temperature_min_c),
            high=phrases.number(month.temperature_max_c),
            amount=phrases.number(month.precipitation_mm, 0),
            days=phrases.number(month.rain_days, 0),
            sunshine=phrases.number(month.sunshine_hours, 0),
        )
        return base.model_copy(
            update={
                "status": "ok",
                "source": "climate normals",
                "typical": month,
                "advice": advice,
                "summary": phrases.sentences([why, typical, *advice]),
            }
        )


def _languages(first: str) -> tuple[str, ...]:
    """The nine date languages, the visitor's first: it settles words several languages share."""
    return (first, *(code for code in SUPPORTED_LANGUAGES if code != first))


def _invalid(base: WeatherResult, parsed: ParsedDate, today: dt.date, phrases: Phrases) -> WeatherResult:
    """A summary asking for a usable day; the example is written the visitor's way, except after an
    unreadable date, where the summary teaches the one form always read (year-month-day)."""
    tomorrow = today + dt.timedelta(days=1)
    example = day_label(tomorrow, phrases.language)
    if parsed.status == "past" and parsed.day is not None:
        label = day_label(parsed.day, phrases.language)
        summary = phrases.say("past", date=label, example=example)
        update = {"summary": summary, "date": parsed.day.isoformat(), "date_label": label}
        return base.model_copy(update=update)
    if parsed.status == "vague":
        summary = phrases.say("vague", text=parsed.text.strip(), example=example)
    else:
        summary = phrases.say("unreadable", text=parsed.text.strip(), example=tomorrow.isoformat())
    return base.model_copy(update={"summary": summary})


def _forecast_summary(result: WeatherResult, phrases: Phrases) -> str:
    figures = []
    if result.conditions:
        figures.append(phrases.conditions(result.conditions))
    figures.append(
        phrases.say(
            "temperatures",
            low=phrases.number(result.temperature_min_c or 0, 0),
            high=phrases.number(result.temperature_max_c or 0, 0),
        )
    )
    probability, amount = result.precipitation_probability_max_pct, result.precipitation_sum_mm
    if probability is not None and amount is not None:
        figures.append(
            phrases.say(
                "rain_both", probability=phrases.number(probability, 0), amount=phrases.number(amount)
            )
        )
    elif probability is not None:
        figures.append(phrases.say("rain_chance", probability=phrases.number(probability, 0)))
    elif amount is not None:
        figures.append(phrases.say("rain_amount", amount=phrases.number(amount)))
    if result.wind_speed_max_kmh is not None:
        figures.append(phrases.say("wind", speed=phrases.number(result.wind_speed_max_kmh, 0)))
    headline = phrases.say(
        "forecast", place=result.place, date=result.date_label, figures=phrases.listing(figures)
    )
    return phrases.sentences([headline, *result.advice])


def describe(forecast_days: int) -> str:
    """Tool description for the LLM."""
    return (
        "Weather for one day of a visit to Versailles: an Open-Meteo forecast up to "
        f"{forecast_days - 1} days ahead (temperatures, chance and amount of rain, wind, conditions, "
        "visit advice), or the month's typical conditions from climate normals beyond that or when "
        "the forecast service is unreachable. Use it when the visitor asks about the weather or plans "
        "around it (rain, heat, what to wear, rooms or gardens first). Pass the date exactly as the "
        "visitor wrote it, in any language, or as YYYY-MM-DD; one call per day. Quote the summary: "
        "when source is 'climate normals' it is typical weather, never a forecast; when status is "
        "'invalid' or 'not_found', ask the visitor for what the summary asks. Write the day to the visitor "
        "as date_label does (date is ISO 8601, for reasoning)."
    )


def build_weather_tool(service: WeatherService) -> BaseTool:
    """The LangChain tool bound to ``service``: the model reads the JSON of a WeatherResult, the
    graph reads the result itself (the ToolMessage's artifact)."""

    def run(date: str, place: str = "Versailles", language: str = "en") -> tuple[str, WeatherResult]:
        result = service.get(date, place, language)
        return result.to_json(), result

    return StructuredTool.from_function(
        func=run,
        name="get_weather",
        description=describe(service.settings.forecast_days),
        args_schema=WeatherArguments,
        response_format="content_and_artifact",
    )
