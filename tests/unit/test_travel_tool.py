"""The travel tool: trains from shipped facts, routed or estimated road times, every failure handled."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from agents.tool_settings import ToolSettings
from agents.tools.http import ToolHttpClient
from agents.tools.travel.tool import TravelResult, TravelService, build_travel_tool, parse_mode

OSRM = "http://127.0.0.1:5000"
GOOGLE = "http://127.0.0.1:5001/directions/json"
GEOCODER = "http://127.0.0.1:5002/search"
Handler = Callable[[httpx.Request], httpx.Response]


def _refuse(request: httpx.Request) -> httpx.Response:
    pytest.fail(f"unexpected HTTP call to {request.url}")


def service(handler: Handler = _refuse, **overrides: Any) -> TravelService:
    """A service whose HTTP goes through ``handler``; no wait between retries."""
    values: dict[str, Any] = {
        "offline": False,
        "retry_initial_wait_seconds": 0,
        "retry_max_wait_seconds": 0,
        "osrm_url": OSRM,
        **overrides,
    }
    settings = ToolSettings(_env_file=None, **values)
    return TravelService(settings, ToolHttpClient(settings, transport=httpx.MockTransport(handler)))


def offline_service() -> TravelService:
    return service(offline=True, geocoder_url=GEOCODER)


def osrm_ok(seconds: float = 1800, metres: float = 17000) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"code": "Ok", "routes": [{"duration": seconds, "distance": metres}]})

    return handler


def option(result: TravelResult, mode: str) -> Any:
    return next((o for o in result.options if o.mode == mode), None)


# --- origins and arguments ---------------------------------------------------------------------


def test_unknown_origin_asks_for_a_station_or_landmark() -> None:
    result = offline_service().get("Gotham City", language="fr")

    assert result.status == "not_found" and result.options == []
    assert "Gotham City" in result.summary and "gare" in result.summary


def test_empty_origin_is_invalid() -> None:
    result = offline_service().get("  ", language="de")

    assert result.status == "invalid"
    assert "Bahnhof" in result.summary


@pytest.mark.parametrize(
    ("word", "mode"),
    [
        ("public transport", "public_transport"), ("train", "public_transport"), ("RER", "public_transport"),
        ("métro", "public_transport"), ("bus", "public_transport"),
        ("transports en commun", "public_transport"), ("öffentliche Verkehrsmittel", "public_transport"),
        ("電車", "public_transport"), ("car", "car"), ("voiture", "car"), ("coche", "car"), ("Auto", "car"),
        ("taxi", "car"), ("开车", "car"),
        ("bike", "bike"), ("vélo", "bike"), ("bicicleta", "bike"), ("Fahrrad", "bike"), ("自転車", "bike"),
        ("walk", "walk"), ("à pied", "walk"), ("a pie", "walk"), ("zu Fuß", "walk"), ("te voet", "walk"),
        ("徒歩", "walk"), (None, None), ("hot-air balloon", None),
    ],
)  # fmt: skip
def test_mode_words_in_several_languages(word: str | None, mode: str | None) -> None:
    assert parse_mode(word) == mode


def test_one_mode_narrows_the_options() -> None:
    result = offline_service().get("Gare du Nord", mode="voiture", language="it")

    assert [o.mode for o in result.options] == ["car"]
    assert result.summary.startswith("In auto")


def test_a_mode_too_long_for_the_trip_says_so_and_offers_the_rest() -> None:
    result = offline_service().get("CDG", mode="walk")

    assert "Walking is not realistic" in result.summary
    assert {o.mode for o in result.options} == {"public_transport", "car"}


# --- offline estimates and public-transport facts ----------------------------------------------


def test_estimates_are_plausible_and_labelled() -> None:
    result = offline_service().get("Eiffel Tower")
    car, bike = option(result, "car"), option(result, "bike")

    assert result.status == "ok" and result.source == "estimate"
    assert 20 <= car.duration_minutes <= 60 and car.source == "estimate"
    assert bike is not None and option(result, "walk") is None  # 18 km by road: too far on foot
    assert "estimates" in result.summary


def test_no_walking_or_cycling_from_the_airport() -> None:
    result = offline_service().get("Charles de Gaulle")

    assert option(result, "walk") is None and option(result, "bike") is None
    assert option(result, "car").duration_minutes > 45


def test_montparnasse_takes_the_transilien_n_to_versailles_chantiers() -> None:
    result = offline_service().get("Gare Montparnasse", mode="train")
    train = option(result, "public_transport")

    assert [o.mode for o in result.options] == ["public_transport"]
    assert train.lines == ["Transilien N"] and train.station == "Versailles Chantiers"
    assert train.walk_to_gate_minutes == 18 and train.source == "timetable facts"
    assert "Transilien N" in result.summary and "Versailles Chantiers" in result.summary
    assert result.ticket and "zone" in result.ticket


def test_from_cdg_the_rer_b_then_the_rer_c() -> None:
    result = offline_service().get("aéroport Charles-de-Gaulle", language="fr")
    train = option(result, "public_transport")

    assert train.lines == ["RER B", "RER C"] and train.station == "Versailles Château Rive Gauche"
    assert "RER B + RER C" in result.summary and "En transports en commun" in result.summary


def test_from_versailles_town_walking_and_no_train() -> None:
    result = offline_service().get("Versailles")

    assert option(result, "public_transport") is None
    assert option(result, "walk").duration_minutes <= 30


@pytest.mark.parametrize(
    ("language", "expected"),
    [("ja", "公共交通機関"), ("zh", "公共交通"), ("es", "En transporte público"), ("nl", "openbaar vervoer"),
     ("pt", "transportes públicos"), ("ko", "By public transport")],
)  # fmt: skip
def test_summaries_in_the_visitors_language(language: str, expected: str) -> None:
    assert expected in offline_service().get("Saint-Lazare", language=language).summary


def test_offline_never_calls_a_service() -> None:
    result = offline_service().get("Atlantis Hotel")  # unknown and a geocoder configured: still no call

    assert result.status == "not_found"
    assert offline_service().get("Louvre").source == "estimate"


# --- routers -----------------------------------------------------------------------------------


def test_osrm_times_replace_the_estimates() -> None:
    urls: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        urls.append(request.url)
        return osrm_ok()(request)

    result = service(handler).get("Tour Eiffel")

    assert result.source == "router" and result.router_error is None
    assert urls[0].path == "/route/v1/driving/2.29450,48.85840;2.12080,48.80470"
    assert urls[0].params["overview"] == "false"
    assert [url.path.split("/")[3] for url in urls] == ["driving", "cycling"]
    assert option(result, "car").duration_minutes == 40  # 30 min routed + 10 to park
    assert option(result, "car").distance_km == 17.0
    assert "route planner" in result.summary


def test_google_directions_when_a_key_is_set() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        leg = {"duration": {"value": 2400}, "distance": {"value": 20000}}
        return httpx.Response(200, json={"status": "OK", "routes": [{"legs": [leg]}]})

    result = service(
        handler, osrm_url=None, google_directions_url=GOOGLE, GOOGLE_MAPS_API_KEY="test-key"
    ).get("Louvre", mode="car")

    params = requests[0].url.params
    assert (params["origin"], params["destination"]) == ("48.86060,2.33760", "48.80470,2.12080")
    assert (params["mode"], params["key"]) == ("driving", "test-key")
    assert result.source == "router" and option(result, "car").duration_minutes == 50


def test_a_timeout_falls_back_to_the_estimate_without_waiting_on_every_mode() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        raise httpx.ReadTimeout("slow", request=request)

    result = service(handler, max_retries=1).get("Tour Eiffel")

    assert result.source == "estimate" and "did not answer in time" in (result.router_error or "")
    assert len(calls) == 2  # first attempt and one retry, for the car only
    assert "estimates" in result.summary


def test_429_is_retried_then_routed() -> None:
    answers = iter(
        [httpx.Response(429), httpx.Response(200, json={"routes": [{"duration": 600, "distance": 9000}]})]
    )

    result = service(lambda request: next(answers)).get("Saint-Cloud", mode="car")

    assert result.source == "router" and option(result, "car").duration_minutes == 20


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (httpx.Response(500), "HTTP 500"),
        (httpx.Response(200, text="not json{"), "not JSON"),
        (httpx.Response(200, json={"code": "Ok", "routes": []}), "unexpected payload"),
        (httpx.Response(200, json={"code": "NoRoute"}), "no route"),
        (httpx.Response(200, json=[1, 2]), "unexpected payload"),
    ],
    ids=["http-500", "malformed-json", "no-routes", "no-route-code", "wrong-shape"],
)
def test_router_failures_fall_back_to_the_estimate_with_the_reason(
    response: httpx.Response, reason: str
) -> None:
    result = service(lambda request: response, max_retries=0).get("Tour Eiffel")

    assert result.status == "ok" and result.source == "estimate"
    assert reason in (result.router_error or "")
    assert all(o.source != "router" for o in result.options)


def test_google_refusal_is_an_estimate() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"status": "REQUEST_DENIED", "routes": []})

    result = service(handler, osrm_url=None, google_directions_url=GOOGLE, GOOGLE_MAPS_API_KEY="k").get(
        "Louvre"
    )

    assert result.source == "estimate" and "REQUEST_DENIED" in (result.router_error or "")


# --- geocoder ----------------------------------------------------------------------------------


def test_an_unknown_place_is_geocoded_when_a_geocoder_is_configured() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.host == "127.0.0.1" and request.url.port == 5002
        place = {"lat": "48.8486", "lon": "2.3984", "display_name": "Nation, Paris 11e, Île-de-France"}
        return httpx.Response(200, json=[place])

    result = service(handler, osrm_url=None, geocoder_url=GEOCODER).get("Place de la Nation")

    assert result.status == "ok" and result.origin is not None
    assert (result.origin.matched_by, result.origin.name) == ("geocoder", "Nation, Paris 11e")


def test_a_failing_geocoder_means_not_found() -> None:
    result = service(
        lambda request: httpx.Response(503), osrm_url=None, geocoder_url=GEOCODER, max_retries=0
    ).get("Place de la Nation", language="es")

    assert result.status == "not_found" and "estación" in result.summary


# --- the LangChain tool ------------------------------------------------------------------------


def test_the_tool_returns_the_result_json() -> None:
    tool = build_travel_tool(offline_service())

    payload = json.loads(tool.invoke({"origin": "Montparnasse", "mode": "RER", "language": "fr"}))

    assert tool.name == "get_travel_info"
    assert set(tool.args) == {"origin", "mode", "language"}
    assert payload["status"] == "ok" and payload["options"][0]["station"] == "Versailles Chantiers"
    assert "when status is 'not_found'" in tool.description.lower()
