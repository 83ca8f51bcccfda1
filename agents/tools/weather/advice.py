"""Visit advice from a day's weather figures, and the plain meaning of Open-Meteo's weather codes."""

from __future__ import annotations

from typing import Literal

Advice = Literal["rain", "heat", "cold", "wind", "pleasant"]
Conditions = Literal[
    "clear", "partly_cloudy", "overcast", "fog", "drizzle", "rain", "snow", "showers", "thunderstorm"
]

RAIN_PROBABILITY_PCT = 50
RAIN_SUM_MM = 2.0
HOT_MAX_C = 28.0
COLD_MAX_C = 5.0
STRONG_WIND_KMH = 50.0

# WMO weather interpretation codes, as documented by Open-Meteo.
_CONDITIONS: dict[int, Conditions] = {
    0: "clear", 1: "partly_cloudy", 2: "partly_cloudy", 3: "overcast", 45: "fog", 48: "fog",
    51: "drizzle", 53: "drizzle", 55: "drizzle", 56: "drizzle", 57: "drizzle",
    61: "rain", 63: "rain", 65: "rain", 66: "rain", 67: "rain",
    71: "snow", 73: "snow", 75: "snow", 77: "snow", 85: "snow", 86: "snow",
    80: "showers", 81: "showers", 82: "showers", 95: "thunderstorm", 96: "thunderstorm", 99: "thunderstorm",
}  # fmt: skip


def conditions(weather_code: int | None) -> Conditions | None:
    """The kind of weather a WMO code stands for; None for a missing or unknown code."""
    return None if weather_code is None else _CONDITIONS.get(weather_code)


def visit_advice(
    temperature_max_c: float | None,
    precipitation_probability_pct: float | None = None,
    precipitation_mm: float | None = None,
    wind_max_kmh: float | None = None,
    *,
    typical: bool = False,
) -> list[Advice]:
    """What the figures change for a visit; ``pleasant`` only for a forecast with nothing to flag.

    Rain: probability >= 50 % or >= 2 mm. Heat: maximum >= 28 °C. Cold: maximum <= 5 °C.
    Strong wind: daily maximum wind >= 50 km/h. For a typical month pass only its mean maximum
    temperature (a month's rain says nothing about one day) and ``typical=True``: it is never
    called pleasant, only heat or cold can be flagged.
    """
    advice: list[Advice] = []
    if (precipitation_probability_pct or 0) >= RAIN_PROBABILITY_PCT or (precipitation_mm or 0) >= RAIN_SUM_MM:
        advice.append("rain")
    if temperature_max_c is not None and temperature_max_c >= HOT_MAX_C:
        advice.append("heat")
    if temperature_max_c is not None and temperature_max_c <= COLD_MAX_C:
        advice.append("cold")
    if (wind_max_kmh or 0) >= STRONG_WIND_KMH:
        advice.append("wind")
    if not advice and not typical:
        advice.append("pleasant")
    return advice
