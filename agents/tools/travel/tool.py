"""The ``get_travel_info`` tool: how to reach the Palace from where the visitor is, as one typed result."""

from __future__ import annotations

from typing import Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from agents.tool_settings import ToolSettings
from agents.tools.http import ToolHttpClient
from agents.tools.results import ToolResult
from agents.tools.travel.gazetteer import Gazetteer, Geocoder, Place, load_gazetteer, normalise
from agents.tools.travel.journeys import (
    NO_TRANSIT_WITHIN_KM,
    PARKING_MINUTES,
    REACH_BOARDING_KM,
    RoadMode,
    RoadTime,
    TransitJourney,
    TransportFacts,
    build_router,
    haversine_km,
    load_transport,
    road_modes,
    road_times,
    transit_journeys,
)
from agents.tools.travel.phrases import kilometres, minutes, phrase, sentence
from rag.lexicon.languages import UNSPACED_LANGUAGES, supported_language
from rag.lexicon.terms import holds_term
from rag.lexicon.transport import TravelMode, mode_words

DESCRIPTION = (
    "How to get to the Palace of Versailles from where the visitor is, with durations: public transport "
    "(RER C, Transilien N and L, bus 171, with the station to use and the walk to the gate), car with "
    "parking, bike and walking. Use it whenever the visitor asks how to get to Versailles, how long the "
    "trip takes, which station to use or where to park. Arguments: origin, the starting point as the "
    "visitor wrote it, untranslated (a station, airport, landmark, hotel district or town: 'Gare "
    "Montparnasse', 'CDG', 'Tour Eiffel', 'near the Louvre'); mode, optional: 'public transport', 'car', "
    "'bike' or 'walk' (leave it out to get every option); language, the visitor's ISO 639-1 code "
    "('fr', 'en', 'ja'...) for the summary. The result's summary may be quoted as is; times from an "
    "estimate are labelled as such. When status is 'not_found', ask the visitor for a nearby station "
    "or landmark."
)


class TravelArguments(BaseModel):
    """Arguments the LLM fills in."""

    origin: str = Field(
        description="Where the visitor starts from, as written: a station, airport, landmark, hotel "
        "district or town ('Gare Montparnasse', 'CDG', 'Tour Eiffel', 'near the Louvre')."
    )
    mode: str | None = Field(
        None, description="Optional: 'public transport', 'car', 'bike' or 'walk'. Omit for every option."
    )
    language: str = Field("en", description="The visitor's language, ISO 639-1 ('fr', 'en', 'ja'...).")


class ResolvedOrigin(BaseModel):
    """The starting point as understood: a gazetteer place or a geocoder's answer."""

    name: str
    kind: str
    lat: float
    lon: float
    matched_by: Literal["gazetteer", "geocoder"]


class TravelOption(BaseModel):
    """One way to the Palace; ``duration_minutes`` is door to gate, a [low, high] range for trains."""

    mode: TravelMode
    duration_minutes: int | tuple[int, int]
    description: str
    source: Literal["router", "estimate", "timetable facts"]
    distance_km: float | None = None
    lines: list[str] | None = None
    change_at: list[str] | None = None
    boarding: str | None = None
    station: str | None = None
    walk_to_gate_minutes: int | None = None
    notes: list[str] = Field(default_factory=list)
    reference: str | None = None


class TravelResult(ToolResult):
    """The tool's only result shape; ``source`` is ``router`` when any time was routed."""

    origin: ResolvedOrigin | None = None
    destination: str | None = None
    distance_km: float | None = Field(None, description="Straight-line distance to the Palace.")
    mode: TravelMode | None = None
    options: list[TravelOption] = Field(default_factory=list)
    ticket: str | None = None
    router_error: str | None = None


def parse_mode(text: str | None) -> TravelMode | None:
    """The mode a word names in any of the nine languages ('RER', 'voiture', 'Fahrrad', '徒歩')."""
    query = normalise(text or "")
    if not query:
        return None
    best: tuple[int, TravelMode | None] = (0, None)
    for mode, words in mode_words().items():
        for word in map(normalise, words):
            if holds_term(query, word) and len(word) > best[0]:
                best = (len(word), mode)
    return best[1]


class TravelService:
    """Resolves the origin, then gathers public-transport facts and road times, and summarises."""

    def __init__(self, settings: ToolSettings | None = None, http: ToolHttpClient | None = None):
        self.settings = settings or ToolSettings()
        self.http = http or ToolHttpClient(self.settings)
        travel_dir = self.settings.data_dir / "travel"
        self.gazetteer: Gazetteer = load_gazetteer(travel_dir / "gazetteer.json")
        self.facts: TransportFacts = load_transport(travel_dir / "transport.json")
        self.router = build_router(self.settings, self.http)
        url = self.settings.geocoder_url
        self.geocoder = Geocoder(self.http, url) if url and not self.settings.offline else None

    def get(self, origin: str, mode: str | None = None, language: str = "en") -> TravelResult:
        """Every sensible way from ``origin`` to the Palace, or the one ``mode`` asks for."""
        language = supported_language(language)
        if not normalise(origin or ""):
            return TravelResult(status="invalid", summary=phrase(language, "invalid"))
        place, matched_by = self._resolve(origin, language)
        if place is None:
            return TravelResult(
                status="not_found", summary=phrase(language, "not_found", origin=origin.strip())
            )
        wanted = parse_mode(mode)
        crow_km = haversine_km(place, self.facts.destination)
        journeys = transit_journeys(self.facts, place, place.access)
        with_transit, modes, too_far = _selection(wanted, bool(journeys), road_modes(crow_km))
        options = [self._transit_option(journey, place) for journey in journeys if with_transit]
        times, router_error = road_times(modes, place, self.facts.destination, self.router)
        options += [self._road_option(time) for time in times]
        result = TravelResult(
            status="ok",
            source="router" if any(option.source == "router" for option in options) else "estimate",
            summary="",
            origin=ResolvedOrigin(
                name=place.name, kind=place.kind, lat=place.lat, lon=place.lon, matched_by=matched_by
            ),
            destination=self.facts.destination.name,
            distance_km=round(crow_km, 1),
            mode=wanted,
            options=options,
            ticket=self.facts.ticket.text if journeys and with_transit else None,
            router_error=router_error,
        )
        result.summary = _summary(language, result, place, too_far, missing_transit=not journeys)
        return result

    def _resolve(self, origin: str, language: str) -> tuple[Place | None, Literal["gazetteer", "geocoder"]]:
        place = self.gazetteer.find(origin)
        if place is not None or self.geocoder is None:
            return place, "gazetteer"
        return self.geocoder.find(origin, language), "geocoder"

    def _transit_option(self, journey: TransitJourney, place: Place) -> TravelOption:
        route, boarding, station = journey.route, journey.boarding.name, journey.station.name
        change = f", change at {', '.join(route.change_at)}" if route.change_at else ""
        notes = list(route.notes)
        if journey.boarding_km > REACH_BOARDING_KM:
            notes.insert(0, f"First reach {boarding}, about {journey.boarding_km:.1f} km from {place.name}.")
        return TravelOption(
            mode="public_transport",
            duration_minutes=journey.minutes,
            description=f"{' + '.join(route.lines)} from {boarding}{change}, to {station}",
            source="timetable facts",
            lines=route.lines,
            change_at=route.change_at,
            boarding=boarding,
            station=station,
            walk_to_gate_minutes=journey.station.walk_to_gate_minutes,
            notes=notes,
            reference=route.source,
        )

    def _road_option(self, time: RoadTime) -> TravelOption:
        how = (
            "routed by an online route planner" if time.source == "router" else "estimated from the distance"
        )
        if time.mode == "car":
            fact = self.facts.car
            text = f"By car, {how}; about {PARKING_MINUTES} minutes to park are included."
        else:
            fact = self.facts.bike if time.mode == "bike" else self.facts.walk
            text = f"{'By bike' if time.mode == 'bike' else 'On foot'}, {how}."
        return TravelOption(
            mode=time.mode,
            duration_minutes=time.minutes,
            description=text,
            source=time.source,
            distance_km=time.distance_km,
            notes=[fact.text],
            reference=fact.source,
        )

    def close(self) -> None:
        self.http.close()


def _selection(
    wanted: TravelMode | None, has_transit: bool, offered: list[RoadMode]
) -> tuple[bool, list[RoadMode], TravelMode | None]:
    """Whether to show public transport, which road modes, and the wanted mode that is too far.

    A mode the trip cannot be made with (walking from the airport, no train known) shows every
    alternative instead, so the answer is never empty.
    """
    too_far = wanted if wanted in ("walk", "bike") and wanted not in offered else None
    narrowed = wanted is not None and too_far is None and (wanted != "public_transport" or has_transit)
    if not narrowed:
        return True, offered, too_far
    return wanted == "public_transport", [mode for mode in offered if mode == wanted], None


def _summary(
    language: str, result: TravelResult, place: Place, too_far: TravelMode | None, missing_transit: bool
) -> str:
    """1–4 short sentences in the visitor's language: best train, then the road, then how times were got."""
    parts: list[str] = []
    distance = kilometres(language, result.distance_km or 0.0)
    far_from_palace = (result.distance_km or 0.0) > NO_TRANSIT_WITHIN_KM
    if too_far is not None:
        parts.append(phrase(language, f"{too_far}_too_far", origin=place.name, distance=distance))
    transit = next((option for option in result.options if option.mode == "public_transport"), None)
    if transit is not None:
        change = phrase(language, "change", stops=", ".join(transit.change_at)) if transit.change_at else ""
        parts.append(
            phrase(
                language,
                "public_transport",
                boarding=transit.boarding,
                lines=" + ".join(transit.lines or []) + change,
                station=transit.station,
                walk=minutes(language, transit.walk_to_gate_minutes or 0),
                duration=minutes(language, transit.duration_minutes),
            )
        )
    elif missing_transit and result.mode in (None, "public_transport") and far_from_palace:
        parts.append(phrase(language, "no_public_transport", origin=place.name))
    road = [option for option in result.options if option.mode != "public_transport"]
    if road:
        fragments = [phrase(language, o.mode, duration=minutes(language, o.duration_minutes)) for o in road]
        parts.append(sentence(language, fragments))
        parts.append(phrase(language, "routed" if all(o.source == "router" for o in road) else "estimated"))
    return ("" if language in UNSPACED_LANGUAGES else " ").join(parts)


def build_travel_tool(service: TravelService) -> BaseTool:
    """The LangChain tool bound to ``service``: the model reads the JSON of a TravelResult, the
    graph reads the result itself (the ToolMessage's artifact)."""

    def run(origin: str, mode: str | None = None, language: str = "en") -> tuple[str, TravelResult]:
        result = service.get(origin, mode, language)
        return result.to_json(), result

    return StructuredTool.from_function(
        func=run,
        name="get_travel_info",
        description=DESCRIPTION,
        args_schema=TravelArguments,
        response_format="content_and_artifact",
    )
