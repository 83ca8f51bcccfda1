"""The weather tool over a mocked Open-Meteo: forecasts, failures, climate-normal fallbacks, languages."""

from __future__ import annotations

import datetime as dt
import json
import re
import string
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from agents.tool_settings import DATA_DIR, ToolSettings
from agents.tools.http import ToolHttpClient
from agents.tools.weather.advice import conditions, visit_advice
from agents.tools.weather.phrases import load_phrases
from agents.tools.weather.tool import WeatherResult, WeatherService, build_weather_tool, load_climate_normals
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language

TODAY = dt.date(2026, 5, 13)  # a Wednesday
SATURDAY = "2026-05-16"
Handler = Callable[[httpx.Request], httpx.Response]


def forecast(day: str = SATURDAY, **values: Any) -> dict[str, Any]:
    """An Open-Meteo daily answer for one day; ``values`` override the figures."""
    figures = {
        "temperature_2m_max": 21.4, "temperature_2m_min": 11.2, "precipitation_probability_max": 10,
        "precipitation_sum": 0.0, "wind_speed_10m_max": 14.8, "weather_code": 2, **values,
    }  # fmt: skip
    return {
        "latitude": 48.8,
        "longitude": 2.12,
        "daily": {"time": [day], **{k: [v] for k, v in figures.items()}},
    }


def settings(**overrides: Any) -> ToolSettings:
    values: dict[str, Any] = {
        "offline": False, "retry_initial_wait_seconds": 0, "retry_max_wait_seconds": 0, **overrides
    }  # fmt: skip
    return ToolSettings(_env_file=None, **values)


class Recorder:
    """A MockTransport handler that records requests and plays scripted answers in turn."""

    def __init__(self, *answers: Handler | httpx.Response | dict[str, Any]) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        if isinstance(answer, httpx.Response):
            return answer
        if isinstance(answer, dict):
            return httpx.Response(200, json=answer)
        return answer(request)


def service(handler: Handler, **overrides: Any) -> WeatherService:
    tool_settings = settings(**overrides)
    client = ToolHttpClient(tool_settings, transport=httpx.MockTransport(handler))
    return WeatherService(tool_settings, client, today=lambda: TODAY)


def timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def never_called(request: httpx.Request) -> httpx.Response:
    pytest.fail(f"no HTTP request expected, got {request.url}")


def test_forecast_request_and_result() -> None:
    recorder = Recorder(forecast())
    result = service(recorder).get("samedi")

    (request,) = recorder.requests
    assert request.url.host == "api.open-meteo.com"
    params = dict(request.url.params)
    assert params == {
        "latitude": "48.8049", "longitude": "2.1204", "timezone": "Europe/Paris",
        "start_date": SATURDAY, "end_date": SATURDAY,
        "daily": "temperature_2m_max,temperature_2m_min,precipitation_probability_max,precipitation_sum,"
        "wind_speed_10m_max,weather_code",
    }  # fmt: skip
    assert (result.status, result.source, result.date, result.weekday, result.days_ahead) == (
        "ok", "forecast", SATURDAY, "Saturday", 3
    )  # fmt: skip
    assert result.date_label == "Saturday, May 16, 2026"  # ``date`` (ISO) for the model, this for the visitor
    assert (result.temperature_max_c, result.temperature_min_c, result.wind_speed_max_kmh) == (
        21.4,
        11.2,
        14.8,
    )
    assert (result.precipitation_probability_max_pct, result.precipitation_sum_mm) == (10, 0.0)
    assert result.conditions == "partly_cloudy"
    assert result.summary.startswith(
        "Open-Meteo forecast for Versailles on Saturday, May 16, 2026: partly cloudy, 11 to 21 °C"
    )
    assert "10 % chance of rain (0 mm)" in result.summary and "wind up to 15 km/h" in result.summary
    assert result.advice == ["Pleasant conditions for both the Palace and the gardens."]
    assert result.typical is None and result.fallback_reason is None


def test_rain_and_heat_bring_their_advice() -> None:
    result = service(Recorder(forecast(temperature_2m_max=31.0, precipitation_probability_max=80))).get(
        "samedi"
    )
    assert "Grandes Eaux" in result.advice[0] and "rooms first" in result.advice[0]
    assert "shade" in result.advice[1] and "water" in result.advice[1]
    assert all(advice in result.summary for advice in result.advice)


def assert_normals(result: WeatherResult, reason: str, month: int = 5) -> None:
    assert (result.status, result.source, result.fallback_reason) == ("ok", "climate normals", reason)
    assert result.typical is not None and result.typical.month == month
    assert result.temperature_max_c is None  # typical figures never pass for a day's forecast
    assert "not a forecast" in result.summary and "Paris-Montsouris" in result.summary


def test_timeout_falls_back_to_climate_normals_after_bounded_retries() -> None:
    recorder = Recorder(timeout)
    result = service(recorder, max_retries=2).get("samedi")
    assert len(recorder.requests) == 3
    assert_normals(result, "service_unavailable")
    assert result.summary.startswith("No forecast for Saturday, May 16, 2026:")
    assert "the forecast service cannot be reached right now. Typical for May" in result.summary


def test_429_then_success_gives_the_forecast() -> None:
    recorder = Recorder(httpx.Response(429), forecast())
    result = service(recorder).get("samedi")
    assert len(recorder.requests) == 2
    assert (result.status, result.source) == ("ok", "forecast")


@pytest.mark.parametrize("status_code", [429, 500, 503])
def test_repeated_errors_fall_back_to_climate_normals(status_code: int) -> None:
    recorder = Recorder(httpx.Response(status_code))
    result = service(recorder, max_retries=1).get("samedi")
    assert len(recorder.requests) == 2
    assert_normals(result, "service_unavailable")


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(200, text="not json"),
        httpx.Response(200, json={"error": True, "reason": "bad request"}),
        httpx.Response(200, json={"daily": {"time": [SATURDAY]}}),
        httpx.Response(200, json=forecast(day="2026-05-17")),
        httpx.Response(200, json=forecast(temperature_2m_max=None)),
    ],
)
def test_malformed_answers_fall_back_to_climate_normals(answer: httpx.Response) -> None:
    recorder = Recorder(answer)
    assert_normals(service(recorder).get("samedi"), "service_unavailable")
    assert len(recorder.requests) == 1  # an unreadable answer is not retried


def test_beyond_the_horizon_uses_climate_normals_without_calling() -> None:
    result = service(never_called).get("le 14 juillet")
    assert_normals(result, "beyond_horizon", month=7)
    assert result.date == "2026-07-14" and result.days_ahead == 62
    assert result.summary.startswith(
        "Tuesday, July 14, 2026 is more than 15 days ahead, beyond the forecast horizon."
    )
    assert result.typical is not None and result.typical.temperature_max_c == 25.2


def test_last_forecast_day_is_still_forecast() -> None:
    recorder = Recorder(forecast(day="2026-05-28"))
    assert service(recorder).get("2026-05-28").source == "forecast"
    assert service(never_called).get("2026-05-29").fallback_reason == "beyond_horizon"


def test_offline_never_calls_and_says_why() -> None:
    result = service(never_called, offline=True).get("demain", language="fr")
    assert (result.source, result.fallback_reason) == ("climate normals", "offline")
    assert result.summary.startswith("Pas de prévision pour le jeudi 14 mai 2026 :")
    assert "les prévisions en ligne sont désactivées. Valeurs habituelles de mai" in result.summary
    assert "pas une prévision" in result.summary and "10,9 à 19,6 °C" in result.summary


def test_the_settings_offline_flag_comes_from_the_environment() -> None:
    # tests/conftest.py sets TOOLS_OFFLINE=1: a service built with default settings stays offline.
    result = WeatherService(http=ToolHttpClient(transport=httpx.MockTransport(never_called))).get("demain")
    assert result.fallback_reason == "offline"


@pytest.mark.parametrize(
    ("date", "kind"), [("hier", "past"), ("2020-01-01", "past"), ("blah", "x"), ("", "x")]
)
def test_past_and_unreadable_dates_are_invalid(date: str, kind: str) -> None:
    result = service(never_called).get(date)
    assert (result.status, result.source) == ("invalid", "none")
    if kind == "past":
        assert "is in the past" in result.summary and "such as Thursday, May 14, 2026." in result.summary
        assert not re.search(r"\d{4}-\d\d-\d\d", result.summary)  # "2020-01-01" is written out too
    else:  # the one form always read is taught as it is typed
        assert "could not be read" in result.summary
        assert "such as 2026-05-14 (year-month-day)" in result.summary


def test_a_month_alone_asks_for_a_day() -> None:
    result = service(never_called).get("juillet", language="fr")
    assert result.status == "invalid"
    expected = "« juillet » n'est pas un jour précis : indiquez un jour comme jeudi 14 mai 2026."
    assert result.summary == expected


def test_built_in_places_need_no_lookup() -> None:
    recorder = Recorder(forecast())
    result = service(recorder).get("samedi", place="Saint-Germain-en-Laye")
    assert result.place == "Saint-Germain-en-Laye"
    assert dict(recorder.requests[0].url.params)["latitude"] == "48.8989"


def test_other_places_are_geocoded_online() -> None:
    found = {
        "results": [{"name": "Saint-Cloud", "latitude": 48.844, "longitude": 2.2187, "country_code": "FR"}]
    }
    recorder = Recorder(found, forecast())
    result = service(recorder).get("samedi", place="Saint-Cloud")
    geocoding, forecasting = recorder.requests
    assert geocoding.url.host == "geocoding-api.open-meteo.com"
    assert dict(geocoding.url.params)["name"] == "Saint-Cloud"
    assert dict(forecasting.url.params)["latitude"] == "48.844"
    assert (result.status, result.place) == ("ok", "Saint-Cloud")


@pytest.mark.parametrize(
    "answer", [httpx.Response(200, json={"generationtime_ms": 0.1}), httpx.Response(500)]
)
def test_unknown_place_or_geocoder_down_is_not_found(answer: httpx.Response) -> None:
    result = service(Recorder(answer), max_retries=0).get("samedi", place="Zzyzx")
    assert (result.status, result.place) == ("not_found", "Zzyzx")
    assert "town near Versailles" in result.summary


def test_unknown_place_offline_is_not_found_and_says_what_is_covered() -> None:
    result = service(never_called, offline=True).get("samedi", place="Lyon")
    assert result.status == "not_found"
    assert "online look-up is off" in result.summary and "Versailles" in result.summary


def test_normals_are_not_given_for_a_place_far_from_paris() -> None:
    tokyo = {"results": [{"name": "Tokyo", "latitude": 35.6895, "longitude": 139.6917}]}
    result = service(Recorder(tokyo, httpx.Response(500)), max_retries=0).get("samedi", place="Tokyo")
    assert (result.status, result.typical) == ("unavailable", None)
    assert "cover only the Paris region, not Tokyo" in result.summary


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "Prévision Open-Meteo pour Versailles le samedi 16 mai 2026 : partiellement nuageux, 11 à 21"),
        ("es", "Previsión de Open-Meteo para Versailles el sábado, 16 de mayo de 2026: parcialmente nublado"),
        ("de", "Open-Meteo-Vorhersage für Versailles am Samstag, 16. Mai 2026: teilweise bewölkt, 11 bis 21"),
        ("it", "Previsioni Open-Meteo per Versailles, sabato 16 maggio 2026: parzialmente nuvoloso, da 11"),
        ("pt", "Previsão Open-Meteo para Versailles, sábado, 16 de maio de 2026: "),
        ("nl", "Open-Meteo-verwachting voor Versailles op zaterdag 16 mei 2026: "),
        ("ja", "Versaillesの2026年5月16日土曜日のOpen-Meteo予報：晴れ時々曇り、11〜21 °C"),
        ("zh", "Open-Meteo 预报，Versailles，2026年5月16日星期六：多云，11至21 °C"),
        ("fr-FR", "Prévision Open-Meteo"),
        ("ko", "Open-Meteo forecast for Versailles"),
    ],
)
def test_summary_in_the_visitors_language(language: str, expected: str) -> None:
    result = service(Recorder(forecast(precipitation_sum=2.5))).get("samedi", language=language)
    assert result.summary.startswith(expected)
    assert result.language == supported_language(language)


def test_decimal_comma_where_the_language_writes_one() -> None:
    recorder = Recorder(forecast(precipitation_sum=2.5))
    assert "(2,5 mm)" in service(recorder).get("samedi", language="de").summary
    assert "(2.5 mm)" in service(recorder).get("samedi", language="en").summary


def test_the_tool_returns_a_weather_result_as_json() -> None:
    tool = build_weather_tool(service(Recorder(forecast())))
    assert tool.name == "get_weather"
    assert set(tool.args) == {"date", "place", "language"}
    assert "climate normals" in tool.description and "as the visitor wrote it" in tool.description
    result = WeatherResult.model_validate_json(tool.invoke({"date": "sábado", "language": "es"}))
    assert (result.status, result.source, result.date, result.language) == ("ok", "forecast", SATURDAY, "es")
    raw = json.loads(tool.invoke({"date": "ayer"}))
    assert raw["status"] == "invalid" and "temperature_max_c" not in raw


@pytest.mark.parametrize(
    ("figures", "expected"),
    [
        ({"temperature_max_c": 20, "precipitation_probability_pct": 60}, ["rain"]),
        ({"temperature_max_c": 20, "precipitation_probability_pct": 10, "precipitation_mm": 3}, ["rain"]),
        ({"temperature_max_c": 30}, ["heat"]),
        ({"temperature_max_c": 3}, ["cold"]),
        ({"temperature_max_c": 15, "wind_max_kmh": 60}, ["wind"]),
        (
            {"temperature_max_c": 29, "precipitation_probability_pct": 70, "wind_max_kmh": 55},
            ["rain", "heat", "wind"],
        ),
        (
            {"temperature_max_c": 20, "precipitation_probability_pct": 20, "precipitation_mm": 0.4},
            ["pleasant"],
        ),
        ({"temperature_max_c": 20, "typical": True}, []),
    ],
)
def test_visit_advice_rules(figures: dict[str, Any], expected: list[str]) -> None:
    assert visit_advice(**figures) == expected


def test_weather_codes_have_plain_meanings() -> None:
    assert [conditions(code) for code in (0, 3, 45, 61, 80, 95, 42, None)] == [
        "clear", "overcast", "fog", "rain", "showers", "thunderstorm", None, None
    ]  # fmt: skip


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_phrase_with_the_same_placeholders() -> None:
    phrases = load_phrases()
    assert set(phrases) == set(SUPPORTED_LANGUAGES)
    english = phrases["en"]
    for language, block in phrases.items():
        assert set(block) == set(english), language
        assert len(block["months"]) == 12 and set(block["conditions"]) == set(english["conditions"]), language
        assert set(block["advice"]) == set(english["advice"]), language
        for key, template in block.items():
            if isinstance(template, str):
                assert _placeholders(template) == _placeholders(english[key]), (language, key)


def test_climate_normals_name_their_source_and_are_plausible() -> None:
    normals = load_climate_normals(DATA_DIR / "weather" / "climate_normals.json")
    assert re.search(r"Météo-France .*1981–2010.*Paris-Montsouris", normals.source)
    assert [month.month for month in normals.months] == list(range(1, 13))
    for month in normals.months:
        assert -5 < month.temperature_min_c < month.temperature_max_c < 35
        assert (
            0 < month.rain_days < 31 and 0 < month.precipitation_mm < 200 and 0 < month.sunshine_hours < 400
        )
    assert round(sum(month.precipitation_mm for month in normals.months), 1) == 637.4
