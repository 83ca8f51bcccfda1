"""The slots a turn fills: the travel mode, the places it names and where a journey starts (its day:
``agents.tools.day_phrases``).

Each vocabulary comes from the component that owns it: modes from the travel tool, places from the
gazetteer (every name and alias). ``data/offline/slots.toml`` holds only the few words none of them
has: origin markers ("from", "depuis"), deictic origins ("from there", "d'ici"), follow-up openers
("what about") and day modifiers ("next").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agents.offline.reading.request import TravelMode
from agents.tools.travel.gazetteer import Gazetteer, Place, load_gazetteer, normalise
from agents.tools.travel.tool import parse_mode
from agents.tools.weather.places import built_in_place
from rag.config import PROJECT_ROOT
from rag.lexicon.concepts import concept_name, found_in
from rag.lexicon.folding import blanked, fold
from rag.lexicon.phrases import phrases
from rag.lexicon.scripts import UNSPACED_CHARACTER
from rag.lexicon.stores import read_store
from rag.lexicon.terms import TermMatcher

SLOTS_FILE = PROJECT_ROOT / "data" / "offline" / "slots.toml"
GAZETTEER_FILE = PROJECT_ROOT / "data" / "travel" / "gazetteer.json"
_ARTICLES = frozenset(
    {
        "the",
        "le",
        "la",
        "les",
        "l",
        "el",
        "los",
        "der",
        "die",
        "das",
        "dem",
        "il",
        "lo",
        "o",
        "a",
        "het",
        "my",
    }
)
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True)
class PlaceMention:
    """A gazetteer place named in a text, where its name starts in the normalised text."""

    place: Place
    spelling: str  # the longest of its names found, as the gazetteer writes it
    start: int

    @property
    def is_versailles(self) -> bool:
        """The Palace, its town or one of its stations."""
        return self.place.rank == 0

    @property
    def is_palace(self) -> bool:
        """The Palace itself: never where a journey to it starts."""
        return self.place.rank == 0 and self.place.kind == "landmark"

    @property
    def is_bare_town_of_versailles(self) -> bool:
        """The town named "Versailles" alone: after "de", "von" or "di" it names the estate ("le parc de
        Versailles"), not where a journey starts ("centre-ville de Versailles" does)."""
        return self.is_versailles and self.place.kind == "town" and len(self.spelling.split()) == 1

    @property
    def far(self) -> bool:
        """Another known place than Versailles and Paris as a whole (a museum, a town)."""
        return self.place.rank > 1


def _lexicon() -> dict[str, dict[str, list[str]]]:
    return read_store(SLOTS_FILE)


def lexicon(table: str, language: str) -> list[str]:
    """A ``slots.toml`` table's words for ``language``, then English's."""
    words = _lexicon()[table]
    return list(dict.fromkeys([*words.get(language, []), *words["en"]]))


@lru_cache(maxsize=64)
def lexicon_cues(table: str, language: str) -> TermMatcher:
    """A matcher for :func:`lexicon`'s words."""
    return TermMatcher(lexicon(table, language))


@lru_cache(maxsize=1)
def gazetteer() -> Gazetteer:
    """The travel tool's gazetteer."""
    return load_gazetteer(GAZETTEER_FILE)


@lru_cache(maxsize=1)
def day_modifiers() -> TermMatcher:
    """The words that say which occurrence of a day is meant ("prochain", "next", "来週")."""
    return TermMatcher(w for table in _lexicon()["day_modifiers"].values() for w in table)


def mode_in(text: str) -> TravelMode | None:
    """The travel mode the text names, in the travel tool's own vocabulary."""
    return parse_mode(text)


def places_in(text: str) -> list[PlaceMention]:
    """Every gazetteer place the text names, in the order they appear."""
    query = normalise(text)
    mentions = []
    for place in gazetteer().named_in(text):
        found = [(_position(query, normalise(s)), s) for s in (place.name, *place.aliases)]
        found = [(start, s) for start, s in found if start >= 0]
        if found:
            start = min(position for position, _ in found)
            spelling = max((s for _, s in found), key=lambda s: len(normalise(s)))
            if not (place.kind in _TOWNS and _street_before().search(query[:start])):
                mentions.append(PlaceMention(place, spelling, start))
    return sorted(_outermost(mentions), key=lambda mention: mention.start)


_TOWNS = frozenset({"town", "city"})


def _without_streets(text: str) -> str:
    """``text`` with its street names blanked out ("on the Avenue de Paris" -> "on the ")."""
    return _street_name().sub(lambda match: " " * len(match.group()), text)


@lru_cache(maxsize=1)
def _street_words() -> str:
    """The street words of every language, as written and normalised, as a regular expression's
    alternatives."""
    written = {w for table in _lexicon()["street_words"].values() for w in table}
    words = written | {normalise(w) for w in written}
    return "|".join(map(re.escape, sorted(words)))


@lru_cache(maxsize=1)
def _street_before() -> re.Pattern[str]:
    """ "avenue de |", "rue du |" in normalised text: a town after it names a street ("avenue de Paris")."""
    return re.compile(rf"(?<!\w)(?:{_street_words()})\s+(?:de|du|des|d['’])\s*$")


@lru_cache(maxsize=1)
def _street_name() -> re.Pattern[str]:
    """A street word, "de" and the capitalised words of a name: "Avenue de Paris", "rue de Saint-Cloud"."""
    name = r"[A-ZÀ-Þ][\w'’-]*(?:[\s-][A-ZÀ-Þ][\w'’-]*)*"
    return re.compile(
        rf"(?<!\w)(?i:{_street_words()})\s+(?i:de|du|des|d['’])\s*(?:(?i:la)\s+|(?i:l)['’])?{name}"
    )


def _outermost(mentions: list[PlaceMention]) -> list[PlaceMention]:
    """Without the places named inside another's name ("Sèvres" in "Pont de Sèvres")."""

    def inside(a: PlaceMention, b: PlaceMention) -> bool:
        a_end, b_end = a.start + len(normalise(a.spelling)), b.start + len(normalise(b.spelling))
        return a is not b and b.start <= a.start and a_end <= b_end and (a_end - a.start) < (b_end - b.start)

    return [a for a in mentions if not any(inside(a, b) for b in mentions)]


def _position(query: str, key: str) -> int:
    if not key:
        return -1
    if UNSPACED_CHARACTER.search(key):
        return query.find(key)
    match = re.search(rf"(?<!\S){re.escape(key)}(?!\S)", query)
    return match.start() if match else -1


def _after_marker(query: str, start: int, markers: list[str]) -> bool:
    """Whether an origin marker comes right before ``start``, but for articles and one other word
    ("desde la estación de Versailles Chantiers")."""
    words = query[:start].split()
    candidates = []
    for skipped in (0, 1):
        rest = words[: len(words) - skipped]
        while rest and rest[-1] in _ARTICLES:
            rest = rest[:-1]
        candidates.append(" ".join(rest))
    keys = [m for m in map(normalise, markers) if m and not UNSPACED_CHARACTER.search(m)]
    return any(before == m or before.endswith(f" {m}") for before in candidates for m in keys)


def _origin_markers(language: str, genitive: bool) -> list[str]:
    """The origin markers of ``language``; with ``genitive`` False, not those also meaning "of"."""
    markers = lexicon("origin_markers", language)
    return (
        markers if genitive else [m for m in markers if m not in lexicon("genitive_origin_markers", language)]
    )


def marked_origin_in(text: str, language: str, genitive: bool = True) -> str | None:
    """A place named after an origin marker ("from Orly", "depuis la gare de Lyon", "パリから", "从巴黎");
    with ``genitive`` False, not after one that also means "of" ("les horaires du Louvre")."""
    query, markers = normalise(text), _origin_markers(language, genitive)
    for mention in places_in(text):
        if (
            not mention.is_palace
            and not mention.is_bare_town_of_versailles
            and (_after_marker(query, mention.start, markers) or _cjk_marked(text, mention.spelling, markers))
        ):
            return mention.spelling
    return None


def leaves_versailles(text: str, language: str) -> bool:
    """Whether a journey starts at Versailles ("from Versailles to Disneyland", "ヴェルサイユから"): the
    Palace or its town after an origin marker that does not also mean "of" ("le parc de Versailles")."""
    query, markers = normalise(text), _origin_markers(language, genitive=False)
    return any(
        (mention.is_palace or mention.is_bare_town_of_versailles)
        and (_after_marker(query, mention.start, markers) or _cjk_marked(text, mention.spelling, markers))
        for mention in places_in(text)
    )


def destination_elsewhere(text: str, language: str) -> str | None:
    """The place a journey goes to when that is not Versailles: a place after a destination marker
    ("to Paris", "nach Paris", "パリまで", "到巴黎") in a turn that names where the journey starts
    before it ("from Tokyo to Paris"). None when there is none."""
    query = normalise(text)
    origins = _origin_markers(language, genitive=True)
    destinations = lexicon("destination_markers", language)
    for mention in places_in(text):
        if mention.is_versailles or not _origin_before(query, mention.start, origins):
            continue
        if _right_after(query, mention.start, destinations) or _cjk_marked(
            text, mention.spelling, destinations
        ):
            return mention.spelling
    return None


def _right_after(query: str, start: int, markers: list[str]) -> bool:
    """Whether a marker comes right before ``start``, or before an article there ("to the Louvre").
    Unlike ``_after_marker``, a marker that is also an article ("a París", "a Parigi") counts."""
    words = query[:start].split()
    keys = [m.split() for m in map(normalise, markers) if m and not UNSPACED_CHARACTER.search(m)]
    candidates = [words, words[:-1] if words and words[-1] in _ARTICLES else []]
    return any(key and rest[-len(key) :] == key for rest in candidates for key in keys)


def _origin_before(query: str, end: int, markers: list[str]) -> bool:
    """Whether an origin marker and a word after it come before ``end`` in ``query``."""
    keys = [normalise(m) for m in markers if normalise(m)]
    latin = [k for k in keys if not UNSPACED_CHARACTER.search(k)]
    pattern = "|".join(re.escape(k) for k in sorted(latin, key=len, reverse=True))
    if pattern and re.search(rf"(?<!\w)(?:{pattern})\s+\w", query[:end]):
        return True
    return any(k in query[:end] for k in keys if UNSPACED_CHARACTER.search(k))


def origin_in(text: str, language: str) -> str | None:
    """Where a journey starts: a place after an origin marker, else the only place named besides
    Versailles ("staying near Bastille"), else the words after a long marker ("from Lyon")."""
    if marked := marked_origin_in(text, language):
        return marked
    mentions = [m for m in places_in(text) if not m.is_versailles]
    if len(mentions) == 1 or (mentions and not any(m.far for m in mentions)):
        return mentions[0].spelling
    if mentions:
        return None
    named = TermMatcher(m.spelling for m in places_in(text)).find(text)
    rest = blanked(text, named)
    if close := gazetteer().find(_without_streets(rest)):  # a spelling off by a letter or two ("Inválidos")
        return None if close.rank == 0 else close.name
    return _words_after_marker(text, language, lexicon("origin_markers", language))


_MARKERS_AFTER_THE_PLACE = frozenset({"から", "まで", "へ"})  # Japanese particles follow their noun


def _cjk_marked(text: str, spelling: str, markers: list[str]) -> bool:
    """ "パリから", "パリまで" (the marker after the place) or "从巴黎", "到巴黎" (before it)."""
    folded, name = fold(text), fold(spelling)
    return any(
        f"{name}{fold(m)}" in folded if m in _MARKERS_AFTER_THE_PLACE else f"{fold(m)}{name}" in folded
        for m in markers
        if UNSPACED_CHARACTER.search(m)
    )


def _words_after_marker(text: str, language: str, markers: list[str]) -> str | None:
    """The words after a long origin marker, up to a short word or a punctuation mark ("from Lyon by
    train" -> "Lyon"): an origin the gazetteer does not know, left for the travel tool to look up."""
    for marker in (m for m in markers if len(m) >= 4 and not UNSPACED_CHARACTER.search(m)):
        match = re.search(rf"(?<!\w){re.escape(marker)}\s+([^,.;:?!()¿¡？。，]+)", text, re.IGNORECASE)
        if not match:
            continue
        words = [w for w in _WORD.findall(match.group(1))]
        while words and fold(words[0]) in _ARTICLES:
            words.pop(0)
        kept: list[str] = []
        for word in words[:4]:
            if len(word) <= 3 or parse_mode(word) or (kept and word[:1].islower()):
                break
            kept.append(word)
        if kept and kept[0][:1].isupper():
            return " ".join(kept)
    return None


def weather_spelling(mention: PlaceMention) -> str | None:
    """The place's spelling the weather tool knows itself near Versailles (its built-in towns), if any."""
    for spelling in (mention.spelling, mention.place.name, *mention.place.aliases):
        known = built_in_place(spelling)
        if known is not None and known.near_versailles:
            return spelling
    return None


def deictic_origin_in(text: str, language: str) -> bool:
    """Whether the journey starts "from there" or "from here": a place the conversation named."""
    return bool(lexicon_cues("deictic_origins", language).find(text))


def opens_follow_up(text: str, language: str) -> bool:
    """Whether the text opens as a follow-up: an "and"-word or "what about" first."""
    spans = _openers(language).find(text.lstrip(" ¿¡\"'«“"))
    return any(start == 0 for start, _ in spans)


@lru_cache(maxsize=16)
def _openers(language: str) -> TermMatcher:
    return TermMatcher([*phrases()["connectors"].get(language, []), *lexicon("follow_up_openers", language)])


# Museums and palaces a visitor may name that neither the glossary nor the gazetteer knows
# ("Museu Rodin", "Reggia di Caserta", "Schloss Chantilly", "the Rodin Museum").
SITE_KINDS = frozenset({"museum", "palace"})
_NAME_AFTER = re.compile(
    r"\s+(?:(?:de|del|della|di|do|da|von|van|of|the)\s+)*(?:d['’])?(?P<name>[A-ZÀ-Þ][\w-]+)"
)
_NAME_BEFORE = re.compile(r"\S\s+(?P<name>[A-ZÀ-Þ][\w-]+)[\s-]$")  # not the text's first word
_NAMED_BEFORE_IN = frozenset({"en", "de", "nl"})


def named_sites(text: str, language: str) -> list[str]:
    """Names of museums or palaces ``text`` names that are neither the glossary's nor the
    gazetteer's: a sentence must name one to answer about it."""
    names = []
    for concept, start, end in found_in(text, [language, "en"]):
        if concept_name(concept) not in SITE_KINDS:
            continue
        if after := _NAME_AFTER.match(text, end):
            names.append(after.group("name"))
        if language in _NAMED_BEFORE_IN and (before := _NAME_BEFORE.search(text[:start])):
            names.append(before.group("name"))
    return [
        name
        for name in dict.fromkeys(names)
        if not found_in(name, [language, "en"]) and not places_in(name)  # Versailles is a place too
    ]
