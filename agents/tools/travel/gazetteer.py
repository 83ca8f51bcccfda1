"""Where a visitor starts from: the shipped gazetteer first, an optional online geocoder second."""

from __future__ import annotations

import difflib
import functools
import logging
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agents.tools.http import ServiceUnavailable, ToolHttpClient
from rag.lexicon.folding import fold_latin_accents
from rag.lexicon.scripts import CJK, CJK_CHARACTER
from rag.lexicon.terms import holds_term

logger = logging.getLogger(__name__)

PlaceKind = Literal["station", "airport", "landmark", "district", "city", "town", "geocoded"]

FUZZY_THRESHOLD = 0.85
MIN_FUZZY_LENGTH = 5  # "cdg" must not become "cdh"; typos are only forgiven in longer names
# Geocoded places outside this box (mainland France, with margins) are treated as unknown.
FRANCE_BOUNDS = (41.0, 51.5, -5.5, 10.0)

_CJK_GAP = re.compile(rf"(?<=[{CJK}]) +| +(?=[{CJK}])")
_NOT_WORD = re.compile(r"[\W_]+")
_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "mt": "mont"}


class Place(BaseModel):
    """One place of the gazetteer (or one answer of the geocoder)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    kind: PlaceKind
    lat: float
    lon: float
    aliases: tuple[str, ...] = ()
    access: tuple[str, ...] = ()
    rank: int = 2  # when a text names several places: 1 for Paris as a whole, 0 for Versailles itself


class GazetteerFile(BaseModel):
    """The shape of ``data/travel/gazetteer.json``."""

    source: str
    note: str = ""
    places: list[Place]


def normalise(text: str) -> str:
    """Lower case, no accents or punctuation, 'St' spelt 'saint', no spaces around CJK characters."""
    words = _NOT_WORD.sub(" ", fold_latin_accents(text)).split()
    return _CJK_GAP.sub("", " ".join(_ABBREVIATIONS.get(word, word) for word in words))


@dataclass(frozen=True)
class _Alias:
    key: str
    place: Place

    @property
    def cjk(self) -> bool:
        return bool(CJK_CHARACTER.search(self.key))

    def found_in(self, text: str) -> bool:
        """Whether normalised ``text`` holds the alias (the lexicon's one rule for word boundaries)."""
        return holds_term(text, self.key)


class Gazetteer:
    """Alias lookup: exact, then an alias inside the visitor's text, then a close spelling."""

    def __init__(self, places: list[Place]):
        self.places = {place.id: place for place in places}
        aliases: dict[str, _Alias] = {}
        for place in places:
            for spelling in (place.name, *place.aliases):
                key = normalise(spelling)
                if key and key not in aliases:  # the first place to claim a spelling keeps it
                    aliases[key] = _Alias(key, place)
        self._aliases = aliases
        self._fuzzy = [  # the aliases a typo may be forgiven in, with their letters counted
            (alias, Counter(alias.key))
            for alias in aliases.values()
            if not alias.cjk and len(alias.key) >= MIN_FUZZY_LENGTH
        ]

    def find(self, text: str) -> Place | None:
        """The place ``text`` names (a bare name or a sentence containing one), or ``None``."""
        query = normalise(text)
        if not query:
            return None
        if query in self._aliases:
            return self._aliases[query].place
        contained = [alias for alias in self._aliases.values() if alias.found_in(query)]
        if contained:
            return max(contained, key=lambda alias: (alias.place.rank, len(alias.key))).place
        return self._closest(query)

    def named_in(self, text: str) -> list[Place]:
        """Every place whose name or alias ``text`` contains (exact spellings only), each once."""
        query = normalise(text)
        found = [alias.place for alias in self._aliases.values() if query and alias.found_in(query)]
        return list({place.id: place for place in found}.values())

    @staticmethod
    def mentions(text: str, place: Place) -> bool:
        """Whether ``text`` names ``place`` (by its name or an alias, exact spelling)."""
        query, keys = normalise(text), (normalise(name) for name in (place.name, *place.aliases))
        return any(key and _Alias(key, place).found_in(query) for key in keys)

    def _closest(self, query: str) -> Place | None:
        """The alias most like the text or one of its word windows (typos: 'Montparnase'). difflib's
        ratio, computed only where its two upper bounds (the lengths, the shared letters) reach the
        threshold: they rule out nearly every alias, and building a matcher for each cost 25 ms."""
        tokens = query.split()
        best: tuple[float, int, int] = (0.0, 0, 0)
        found: Place | None = None
        windows: dict[int, list[tuple[str, Counter[str]]]] = {}
        for alias, letters in self._fuzzy:
            width = len(alias.key.split())
            if width not in windows:
                spans = range(max(len(tokens) - width + 1, 1))
                texts = dict.fromkeys(" ".join(tokens[i : i + width]) for i in spans)
                windows[width] = [(text, Counter(text)) for text in texts]
            for window, counts in windows[width]:
                length = len(window) + len(alias.key)
                if 2.0 * min(len(window), len(alias.key)) / length < FUZZY_THRESHOLD:
                    continue  # difflib's real_quick_ratio
                if 2.0 * sum((counts & letters).values()) / length < FUZZY_THRESHOLD:
                    continue  # difflib's quick_ratio
                ratio = difflib.SequenceMatcher(None, window, alias.key).ratio()
                score = (ratio, alias.place.rank, len(alias.key))
                if ratio >= FUZZY_THRESHOLD and score > best:
                    best, found = score, alias.place
        return found


@functools.lru_cache(maxsize=4)
def load_gazetteer(path: Path) -> Gazetteer:
    """The gazetteer stored at ``path`` (read once per path)."""
    data = GazetteerFile.model_validate_json(path.read_text(encoding="utf-8"))
    return Gazetteer(data.places)


class Geocoder:
    """An online geocoder with the Nominatim search API, for places the gazetteer does not know."""

    def __init__(self, http: ToolHttpClient, url: str):
        self.http = http
        self.url = url

    def find(self, text: str, language: str = "en") -> Place | None:
        """The first match in France, or ``None`` (no match, odd payload or service unavailable)."""
        params = {"q": text, "format": "json", "limit": 1, "accept-language": language}
        try:
            payload = self.http.get_json(self.url, params=params)
        except ServiceUnavailable as error:
            logger.warning("Geocoder unavailable, origin left unknown: %s", error)
            return None
        return _place_from_nominatim(payload)


def _place_from_nominatim(payload: Any) -> Place | None:
    try:
        first = payload[0]
        lat, lon = float(first["lat"]), float(first["lon"])
        label = str(first.get("display_name") or "")
    except (IndexError, KeyError, TypeError, ValueError):
        return None
    south, north, west, east = FRANCE_BOUNDS
    if not (south <= lat <= north and west <= lon <= east):
        return None
    name = ", ".join(part.strip() for part in label.split(",")[:2] if part.strip()) or f"{lat:.4f}, {lon:.4f}"
    return Place(id="geocoded", name=name, kind="geocoded", lat=lat, lon=lon)
