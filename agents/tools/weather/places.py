"""Where the weather is wanted: a few built-in places near Versailles, else Open-Meteo's geocoder."""

from __future__ import annotations

import logging
import math
import re

from pydantic import BaseModel, ValidationError

from agents.tools.http import ServiceUnavailable, ToolHttpClient
from rag.lexicon.folding import fold_accents

logger = logging.getLogger(__name__)

GEOCODING_URL = "https://geocoding-api.open-meteo.com/v1/search"
VERSAILLES = (48.8049, 2.1204)
# Climate normals from Paris-Montsouris describe Versailles and the towns around it, not beyond.
NORMALS_RADIUS_KM = 60.0


class Place(BaseModel):
    """A named point; ``near_versailles`` says whether the Paris-region normals apply to it."""

    name: str
    latitude: float
    longitude: float

    @property
    def near_versailles(self) -> bool:
        return distance_km((self.latitude, self.longitude), VERSAILLES) <= NORMALS_RADIUS_KM


BUILT_IN = {
    "versailles": Place(name="Versailles", latitude=48.8049, longitude=2.1204),
    "paris": Place(name="Paris", latitude=48.8566, longitude=2.3522),
    "marly-le-roi": Place(name="Marly-le-Roi", latitude=48.8675, longitude=2.0947),
    "saint-germain-en-laye": Place(name="Saint-Germain-en-Laye", latitude=48.8989, longitude=2.0938),
    "rambouillet": Place(name="Rambouillet", latitude=48.6436, longitude=1.8299),
}
# Other names visitors give the same places (accent-folded, lower case).
ALIASES = {
    "chateau de versailles": "versailles", "palace of versailles": "versailles", "le chateau": "versailles",
    "trianon": "versailles", "versalles": "versailles", "versalhes": "versailles", "versaglia": "versailles",
    "ヴェルサイユ": "versailles", "凡尔赛": "versailles", "凡爾賽": "versailles",
    "parigi": "paris", "parijs": "paris", "パリ": "paris", "巴黎": "paris",
    "marly": "marly-le-roi", "st-germain-en-laye": "saint-germain-en-laye",
    "saint germain en laye": "saint-germain-en-laye", "st germain en laye": "saint-germain-en-laye",
}  # fmt: skip


class _GeocodedPlace(BaseModel):
    name: str
    latitude: float
    longitude: float


class _GeocodingAnswer(BaseModel):
    results: list[_GeocodedPlace] = []


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (latitude, longitude) points."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def built_in_place(name: str) -> Place | None:
    """A place this module knows without going online; an empty name means Versailles."""
    key = re.sub(r"\s+", " ", fold_accents(name).strip(" .,!?"))
    key = ALIASES.get(key, key) or "versailles"
    return BUILT_IN.get(key)


def geocode(http: ToolHttpClient, name: str, url: str = GEOCODING_URL, language: str = "en") -> Place | None:
    """The best match for ``name`` from Open-Meteo's geocoder; None when it knows no such place.

    Raises:
        ServiceUnavailable: the geocoder could not be reached or gave an unreadable answer.
    """
    payload = http.get_json(url, params={"name": name, "count": 1, "language": language, "format": "json"})
    try:
        answer = _GeocodingAnswer.model_validate(payload)
    except ValidationError as error:
        raise ServiceUnavailable(f"{url} gave an unreadable answer") from error
    if not answer.results:
        return None
    best = answer.results[0]
    return Place(name=best.name, latitude=best.latitude, longitude=best.longitude)
