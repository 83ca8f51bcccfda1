"""Journey times to the Palace: public transport from shipped facts, road times routed or estimated."""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from agents.tool_settings import ToolSettings
from agents.tools.http import ServiceUnavailable, ToolHttpClient

logger = logging.getLogger(__name__)

RoadMode = Literal["car", "bike", "walk"]
ROAD_MODES: tuple[RoadMode, ...] = ("car", "bike", "walk")

# Estimates. Roads are longer than the straight line: 1.3 is the usual detour factor in a dense
# network. Door to door a car averages about 30 km/h in the Paris region (lights, traffic), faster
# on the motorway beyond the first 20 km; parking and walking to the gate take about 10 minutes.
DETOUR_FACTOR = 1.3
CAR_URBAN_KM, CAR_URBAN_KMH, CAR_OPEN_ROAD_KMH = 20.0, 30.0, 80.0
PARKING_MINUTES = 10
BIKE_KMH, WALK_KMH = 15.0, 4.5
# Road distances beyond which a mode is not offered.
MAX_ROAD_KM: dict[RoadMode, float] = {"car": math.inf, "bike": 40.0, "walk": 12.0}

# Public transport when the gazetteer names no route: none within this distance of the Palace (walk),
# else the line whose boarding station is nearest, if the visitor can reach it on foot or by metro.
NO_TRANSIT_WITHIN_KM = 2.5
MAX_BOARDING_KM = 3.0
REACH_BOARDING_KM = 1.0  # farther than this, the option says to reach the boarding station first

OSRM_PROFILES: dict[RoadMode, str] = {"car": "driving", "bike": "cycling", "walk": "foot"}
GOOGLE_MODES: dict[RoadMode, str] = {"car": "driving", "bike": "bicycling", "walk": "walking"}


class Point(Protocol):
    @property
    def lat(self) -> float: ...

    @property
    def lon(self) -> float: ...


def haversine_km(a: Point, b: Point) -> float:
    """Great-circle distance between two points, in kilometres."""
    lat1, lat2 = math.radians(a.lat), math.radians(b.lat)
    dlat, dlon = lat2 - lat1, math.radians(b.lon - a.lon)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


# --- road times --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoadTime:
    """Minutes and kilometres by road for one mode, and where they come from."""

    mode: RoadMode
    minutes: int
    distance_km: float
    source: Literal["router", "estimate"]


def road_modes(crow_km: float) -> list[RoadMode]:
    """The road modes worth offering at this straight-line distance."""
    return [mode for mode in ROAD_MODES if crow_km * DETOUR_FACTOR <= MAX_ROAD_KM[mode]]


def estimate(mode: RoadMode, crow_km: float) -> RoadTime:
    """Typical door-to-gate time from the straight-line distance, rounded to 5 minutes."""
    road_km = crow_km * DETOUR_FACTOR
    if mode == "car":
        urban = min(road_km, CAR_URBAN_KM)
        hours = urban / CAR_URBAN_KMH + (road_km - urban) / CAR_OPEN_ROAD_KMH
        minutes = hours * 60 + PARKING_MINUTES
    else:
        minutes = road_km / (BIKE_KMH if mode == "bike" else WALK_KMH) * 60
    return RoadTime(mode, max(5, 5 * round(minutes / 5)), round(road_km, 1), "estimate")


class Router(Protocol):
    """An online route planner; every failure, odd payload included, is :class:`ServiceUnavailable`."""

    def route(self, mode: RoadMode, origin: Point, destination: Point) -> RoadTime: ...


class OsrmRouter:
    """OSRM ``/route/v1/{profile}``: ``routes[0].duration`` in seconds, ``distance`` in metres."""

    def __init__(self, http: ToolHttpClient, base_url: str):
        self.http = http
        self.base_url = base_url.rstrip("/")

    def route(self, mode: RoadMode, origin: Point, destination: Point) -> RoadTime:
        coordinates = f"{origin.lon:.5f},{origin.lat:.5f};{destination.lon:.5f},{destination.lat:.5f}"
        url = f"{self.base_url}/route/v1/{OSRM_PROFILES[mode]}/{coordinates}"
        payload = self.http.get_json(url, params={"overview": "false"})
        try:
            if payload.get("code", "Ok") != "Ok":
                raise ServiceUnavailable(f"OSRM found no route ({payload.get('code')})")
            best = payload["routes"][0]
            return _routed(mode, float(best["duration"]), float(best["distance"]))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
            raise ServiceUnavailable(f"OSRM answered an unexpected payload ({error!r})") from error


class GoogleDirectionsRouter:
    """Google Directions: ``routes[0].legs[0].duration.value`` in seconds."""

    def __init__(self, http: ToolHttpClient, url: str, api_key: str):
        self.http = http
        self.url = url
        self.api_key = api_key

    def route(self, mode: RoadMode, origin: Point, destination: Point) -> RoadTime:
        params = {
            "origin": f"{origin.lat:.5f},{origin.lon:.5f}",
            "destination": f"{destination.lat:.5f},{destination.lon:.5f}",
            "mode": GOOGLE_MODES[mode],
            "key": self.api_key,
        }
        payload = self.http.get_json(self.url, params=params)
        try:
            if payload.get("status") != "OK":
                raise ServiceUnavailable(f"Google Directions answered status {payload.get('status')}")
            leg = payload["routes"][0]["legs"][0]
            return _routed(mode, float(leg["duration"]["value"]), float(leg["distance"]["value"]))
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
            raise ServiceUnavailable(
                f"Google Directions answered an unexpected payload ({error!r})"
            ) from error


def _routed(mode: RoadMode, seconds: float, metres: float) -> RoadTime:
    """A router's answer as a door-to-gate time: by car, parking is added as in the estimate."""
    if seconds < 0 or metres < 0 or math.isnan(seconds) or math.isnan(metres):
        raise ValueError("negative or missing duration")
    minutes = math.ceil(seconds / 60) + (PARKING_MINUTES if mode == "car" else 0)
    return RoadTime(mode, max(1, minutes), round(metres / 1000, 1), "router")


def build_router(settings: ToolSettings, http: ToolHttpClient) -> Router | None:
    """OSRM when configured, else Google Directions when a key is set; none offline."""
    if settings.offline:
        return None
    if settings.osrm_url:
        return OsrmRouter(http, settings.osrm_url)
    if settings.google_maps_api_key is not None:
        key = settings.google_maps_api_key.get_secret_value()
        return GoogleDirectionsRouter(http, settings.google_directions_url, key)
    return None


def road_times(
    modes: list[RoadMode], origin: Point, destination: Point, router: Router | None
) -> tuple[list[RoadTime], str | None]:
    """Routed times where the router answers, estimates otherwise, and why the router was not used."""
    crow_km = haversine_km(origin, destination)
    times: list[RoadTime] = []
    failure: str | None = None
    for mode in modes:
        if router is not None and failure is None:
            try:
                times.append(router.route(mode, origin, destination))
                continue
            except ServiceUnavailable as error:  # one failure is enough: no more waiting on it
                failure = str(error)
                logger.warning("Router unavailable, estimating travel times: %s", failure)
        times.append(estimate(mode, crow_km))
    return times, failure


# --- public transport --------------------------------------------------------------------------


class Boarding(BaseModel):
    name: str
    lat: float
    lon: float
    ride_minutes: tuple[int, int]


class Station(BaseModel):
    name: str
    lat: float
    lon: float
    lines: list[str]
    walk_to_gate_minutes: int
    source: str


class Route(BaseModel):
    lines: list[str]
    to: str
    change_at: list[str] = Field(default_factory=list)
    boardings: list[Boarding]
    notes: list[str] = Field(default_factory=list)
    source: str


class Fact(BaseModel):
    text: str
    source: str


class Destination(BaseModel):
    name: str
    lat: float
    lon: float
    source: str


class TransportFacts(BaseModel):
    """The shape of ``data/travel/transport.json``."""

    source: str
    note: str = ""
    destination: Destination
    ticket: Fact
    stations: dict[str, Station]
    routes: dict[str, Route]
    car: Fact
    bike: Fact
    walk: Fact


@functools.lru_cache(maxsize=4)
def load_transport(path: Path) -> TransportFacts:
    """The public-transport facts stored at ``path`` (read once per path)."""
    return TransportFacts.model_validate_json(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class TransitJourney:
    """One public-transport way to the Palace, from a boarding station."""

    route_id: str
    route: Route
    boarding: Boarding
    station: Station
    boarding_km: float  # from the visitor's origin to the boarding station

    @property
    def minutes(self) -> tuple[int, int]:
        """Ride plus the walk to the gate, widened to whole 5 minutes: these are typical times."""
        low, high = self.boarding.ride_minutes
        walk = self.station.walk_to_gate_minutes
        return 5 * ((low + walk) // 5), 5 * math.ceil((high + walk) / 5)


def transit_journeys(facts: TransportFacts, origin: Point, access: tuple[str, ...]) -> list[TransitJourney]:
    """The recommended journeys: the place's own routes, else the nearest line within reach."""
    if access:
        return [_journey(facts, route_id, origin) for route_id in access if route_id in facts.routes]
    if haversine_km(origin, facts.destination) <= NO_TRANSIT_WITHIN_KM:
        return []
    nearest = min(
        (_journey(facts, route_id, origin) for route_id in facts.routes), key=lambda j: j.boarding_km
    )
    return [nearest] if nearest.boarding_km <= MAX_BOARDING_KM else []


def _journey(facts: TransportFacts, route_id: str, origin: Point) -> TransitJourney:
    route = facts.routes[route_id]
    boarding = min(route.boardings, key=lambda stop: haversine_km(origin, stop))
    return TransitJourney(route_id, route, boarding, facts.stations[route.to], haversine_km(origin, boarding))
