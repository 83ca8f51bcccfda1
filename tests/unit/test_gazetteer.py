"""The travel gazetteer: spellings in nine languages, typos, sentences, and the optional geocoder."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from agents.tool_settings import DATA_DIR, ToolSettings
from agents.tools.http import ToolHttpClient
from agents.tools.travel.gazetteer import Gazetteer, Geocoder, load_gazetteer, normalise
from agents.tools.travel.journeys import load_transport

TRAVEL_DIR = DATA_DIR / "travel"


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return load_gazetteer(TRAVEL_DIR / "gazetteer.json")


@pytest.mark.parametrize(
    "text",
    [
        "aéroport Charles-de-Gaulle", "Charles de Gaulle airport", "CDG", "Roissy",
        "Flughafen Paris-Charles-de-Gaulle", "aeropuerto Charles de Gaulle", "シャルル・ド・ゴール空港",
        "シャルルドゴール空港", "戴高乐机场",
    ],
)  # fmt: skip
def test_charles_de_gaulle_in_several_languages(gazetteer: Gazetteer, text: str) -> None:
    place = gazetteer.find(text)

    assert place is not None and place.id == "cdg"


@pytest.mark.parametrize(
    "text",
    [
        "Tour Eiffel",
        "la tour eiffel",
        "Eiffel Tower",
        "Torre Eiffel",
        "Eiffelturm",
        "エッフェル塔",
        "埃菲尔铁塔",
    ],
)
def test_eiffel_tower_variants(gazetteer: Gazetteer, text: str) -> None:
    place = gazetteer.find(text)

    assert place is not None and place.id == "eiffel_tower"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Montparnase", "paris_montparnasse"),
        ("Eifel tower", "eiffel_tower"),
        ("gare St Lazare", "paris_saint_lazare"),
        ("Sacre Coeur", "montmartre"),
        ("CHATELET LES HALLES", "chatelet"),
    ],
)
def test_typos_abbreviations_case_and_accents(gazetteer: Gazetteer, text: str, expected: str) -> None:
    place = gazetteer.find(text)

    assert place is not None and place.id == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("je suis à la gare Montparnasse", "paris_montparnasse"),
        ("from my hotel near the Louvre", "louvre"),
        ("私はシャルルドゴール空港にいます", "cdg"),
        ("我在埃菲尔铁塔附近", "eiffel_tower"),
        ("from Paris to Versailles", "paris"),  # Versailles is the destination: it loses
        ("Porte de Versailles", "porte_de_versailles"),  # the longest name wins
    ],
)
def test_a_place_inside_a_sentence(gazetteer: Gazetteer, text: str, expected: str) -> None:
    place = gazetteer.find(text)

    assert place is not None and place.id == expected


@pytest.mark.parametrize("text", ["Tokyo", "my hotel", "xyzzy", "Lyon", "   "])
def test_unknown_places_are_none(gazetteer: Gazetteer, text: str) -> None:
    assert gazetteer.find(text) is None


def test_normalise_folds_case_accents_punctuation_and_cjk_spaces() -> None:
    assert normalise("  Gare de l'Est ") == "gare de l est"
    assert normalise("Sacré-Cœur") == "sacre coeur"
    assert normalise("St-Germain") == "saint germain"
    assert normalise("シャルル・ド・ゴール空港") == "シャルルドゴール空港"
    assert normalise("ド") == "ド"  # the voicing mark of kana is not an accent


def test_every_route_named_by_the_gazetteer_exists() -> None:
    places = load_gazetteer(TRAVEL_DIR / "gazetteer.json").places.values()
    routes = load_transport(TRAVEL_DIR / "transport.json").routes

    assert len(places) >= 60
    assert {route for place in places for route in place.access} <= set(routes)
    assert all(48.0 < place.lat < 49.6 and 1.3 < place.lon < 2.9 for place in places)


def _geocoder(handler: Any) -> Geocoder:
    settings = ToolSettings(
        _env_file=None, offline=False, max_retries=0, retry_initial_wait_seconds=0, retry_max_wait_seconds=0
    )
    http = ToolHttpClient(settings, transport=httpx.MockTransport(handler))
    return Geocoder(http, "http://127.0.0.1:8080/search")


def test_geocoder_reads_nominatim_json() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200, json=[{"lat": "48.7262", "lon": "2.3652", "display_name": "Orly, Essonne"}]
        )

    place = _geocoder(handler).find("Hôtel Ibis Orly", "fr")

    assert place is not None and (place.kind, place.name) == ("geocoded", "Orly, Essonne")
    assert seen[0].url.params["q"] == "Hôtel Ibis Orly" and seen[0].url.params["format"] == "json"


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(200, json=[]),
        httpx.Response(200, json={"error": "bad"}),
        httpx.Response(200, json=[{"lat": "35.68", "lon": "139.76", "display_name": "Tokyo"}]),
        httpx.Response(500),
        httpx.Response(200, text="<html>"),
    ],
    ids=["no-match", "not-a-list", "outside-france", "http-500", "not-json"],
)
def test_geocoder_problems_mean_unknown(response: httpx.Response) -> None:
    assert _geocoder(lambda request: response).find("somewhere") is None
