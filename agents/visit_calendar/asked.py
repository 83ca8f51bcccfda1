"""Whether a turn asks the calendar: a day named with an opening, closing, free-entry or price word.

A slot rule rather than a topic of its own: the question stays a knowledge-base question (its other
parts are searched as before), and the calendar tool is called besides it for the day named.
"""

from __future__ import annotations

import functools
from pathlib import Path

from agents.offline.phrases import Cues
from agents.visit_calendar.answer import load_phrases
from agents.visit_calendar.rules import CALENDAR_FILE, load_calendar

DEFAULT_PLACE = "palace"
MAX_PLACES = 3


@functools.lru_cache(maxsize=1)
def aspect_cues() -> Cues:
    return Cues(load_phrases()["cues"]["aspects"])


@functools.lru_cache(maxsize=4)
def _place_cues(path: Path) -> tuple[tuple[str, Cues], ...]:
    return tuple(
        (key, Cues([*place.aliases, *place.names.values()]))
        for key, place in load_calendar(path).places.items()
    )


def asks_calendar(text: str) -> bool:
    """``text`` asks whether something is open, closed, free, or what it costs."""
    return bool(aspect_cues().find(text))


def places_asked(text: str, path: Path = CALENDAR_FILE) -> list[str]:
    """The places of the calendar in ``path`` that ``text`` names, in order; the Palace when none."""
    found = sorted((spans[0][0], key) for key, cues in _place_cues(path) if (spans := cues.find(text)))
    return [key for _, key in found][:MAX_PLACES] or [DEFAULT_PLACE]
