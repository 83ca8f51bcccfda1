"""The calendar file as typed rules (``data/visit_calendar.toml``), each citing its source document."""

from __future__ import annotations

import datetime as dt
import functools
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from agents.errors import AgentError
from rag.config import PROJECT_ROOT

CALENDAR_FILE = PROJECT_ROOT / "data" / "visit_calendar.toml"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
Weekday = Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SeasonName = Literal["high", "low"]


def month_day(text: str) -> tuple[int, int]:
    """ "04-01" -> (4, 1); raises ValueError for a day no year has."""
    month, day = (int(part) for part in text.split("-"))
    dt.date(2024, month, day)  # 2024 is a leap year: 02-29 is allowed
    return month, day


class Rule(BaseModel):
    """What every rule has: an id, the document it comes from, the days it is valid."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    source: str = Field(min_length=1, description="The indexed document the values are written in.")
    valid_from: dt.date | None = None
    valid_until: dt.date | None = None  # included

    def valid_on(self, day: dt.date) -> bool:
        return (self.valid_from is None or day >= self.valid_from) and (
            self.valid_until is None or day <= self.valid_until
        )


class Place(BaseModel):
    """A part of the estate: its name in each language and the words that name it in a question."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    names: dict[str, str]
    plural: bool = False  # "the Gardens are open"
    aliases: list[str] = Field(default_factory=list)
    # The rooms and buildings visited with it (schema.org containsPlace), as the glossary's concept
    # names: "hall of mirrors" is named in every language the glossary knows, and keeps its hours.
    contains: list[str] = Field(default_factory=list)


class Season(Rule):
    name: SeasonName
    starts: str  # MM-DD
    ends: str  # MM-DD, included; may be earlier in the year than starts (a season across 1 January)

    @field_validator("starts", "ends")
    @classmethod
    def _month_day(cls, value: str) -> str:
        month_day(value)
        return value

    def holds(self, day: dt.date) -> bool:
        start, end, this = month_day(self.starts), month_day(self.ends), (day.month, day.day)
        return start <= this <= end if start <= end else this >= start or this <= end


class ClosedWeekdays(Rule):
    places: list[str]
    weekdays: list[Weekday]


class ClosedDates(Rule):
    places: list[str]
    dates: list[str]  # MM-DD

    @field_validator("dates")
    @classmethod
    def _month_days(cls, values: list[str]) -> list[str]:
        for value in values:
            month_day(value)
        return values


def _clock(value: str) -> str:
    dt.time.fromisoformat(value)  # "HH:MM", else a ValueError the file's error names
    return value


Clock = Annotated[str, AfterValidator(_clock)]  # a time of day, "HH:MM", Europe/Paris


class Hours(Rule):
    place: str
    season: SeasonName | None = None  # None: whatever the season
    opens: Clock
    closes: Clock
    last_admission: Clock | None = None
    ticket_office_closes: Clock | None = None
    weekdays: list[Weekday] | None = None  # open on these days only (None: every day not closed)
    public_holidays: bool = False  # ... and on French public holidays
    other_days: Literal["closed", "unknown"] = "closed"


class SpecialHours(Rule):
    """Other hours in some months of a season (schema.org's specialOpeningHoursSpecification):
    "opens at 10:00 in July and August"; what it does not say keeps the season's value."""

    place: str
    months: list[int] = Field(min_length=1)
    opens: Clock | None = None
    closes: Clock | None = None


class FreeDays(Rule):
    places: list[str]
    first_sunday_of: list[int] = Field(default_factory=list)  # months
    every_day: bool = False
    seasons: list[SeasonName] = Field(default_factory=list)
    except_events: list[str] = Field(default_factory=list)


class Price(Rule):
    ticket: str
    places: list[str]
    full: float
    reduced: float | None = None
    season: SeasonName | None = None
    event: str | None = None  # only on this event's days


# Who an offer is for besides an age or a residence (schema.org eligibleCustomerType), as the visitor
# argument of the tool names them.
CustomerType = Literal["disabled", "companion_of_disabled", "student", "teacher", "job_seeker"]
# Each customer type as the glossary's concept naming it (data/glossary/visitor_terms.toml): the words a
# source writes it with, and a visitor asks with.
CUSTOMER_CONCEPTS: dict[CustomerType, str] = {
    "disabled": "disabled",
    "companion_of_disabled": "companion",
    "student": "student",
    "teacher": "teacher",
    "job_seeker": "unemployed",
}


class PeopleAudience(BaseModel):
    """schema.org PeopleAudience: the ages an offer is for, both included ("under 18" is at most 17)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    suggested_min_age: int | None = Field(None, ge=0)
    suggested_max_age: int | None = Field(None, ge=0)


class Eligibility(Rule):
    """Who enters free, or pays a ticket's reduced rate (schema.org Offer with eligibleCustomerType,
    audience and eligibleRegion): a visitor it is for meets every condition it names, and one of
    its customer types when it names some."""

    places: list[str]
    rate: Literal["free", "reduced"]
    ticket: str | None = None  # a reduced rate: the ticket of ``prices`` whose reduced amount it is
    eligible_customer_type: list[CustomerType] = Field(default_factory=list)
    audience: PeopleAudience | None = None
    eligible_region: str | None = None  # a key of the calendar's ``regions``
    event: str | None = None  # only on this event's days
    book_ahead: bool = False  # a free timed ticket is still booked, proof of eligibility shown


class Event(Rule):
    name: str
    places: list[str]
    dates: list[dt.date] = Field(default_factory=list)
    weekdays: list[Weekday] = Field(default_factory=list)  # every such day from valid_from to valid_until
    paid: bool = False

    def on(self, day: dt.date) -> bool:
        if not self.valid_on(day):
            return False
        return day in self.dates or (bool(self.weekdays) and WEEKDAYS[day.weekday()] in self.weekdays)


class Calendar(BaseModel):
    """The whole file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timezone: str = "Europe/Paris"
    places: dict[str, Place]
    seasons: list[Season] = Field(default_factory=list)  # none: the hours hold all year
    closed_weekdays: list[ClosedWeekdays] = Field(default_factory=list)
    closed_dates: list[ClosedDates] = Field(default_factory=list)
    hours: list[Hours] = Field(default_factory=list)
    special_hours: list[SpecialHours] = Field(default_factory=list)
    free_days: list[FreeDays] = Field(default_factory=list)
    prices: list[Price] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    eligibility: list[Eligibility] = Field(default_factory=list)
    # Regions an offer may be for, as sets of ISO 3166 country codes ({"EU": ["AT", "BE", ...]}).
    regions: dict[str, list[str]] = Field(default_factory=dict)
    # The same document in other languages, by source: {"hours.en.md": {"fr": "hours.fr.md"}}. A
    # rule is cited from the visitor's language's version when that one states its values too.
    translations: dict[str, dict[str, str]] = Field(default_factory=dict)

    def rules(self) -> list[Rule]:
        """Every rule, seasons first."""
        groups: list[list[Rule]] = [
            list(self.seasons), list(self.closed_weekdays), list(self.closed_dates), list(self.hours),
            list(self.special_hours), list(self.free_days), list(self.prices), list(self.events),
            list(self.eligibility),
        ]  # fmt: skip
        return [rule for group in groups for rule in group]

    @model_validator(mode="after")
    def _regions_named(self) -> Calendar:
        unknown = {r.eligible_region for r in self.eligibility} - {None, *self.regions}
        if unknown:
            raise ValueError(f"eligibility names regions missing from [regions]: {sorted(map(str, unknown))}")
        return self

    def place_named(self, text: str) -> str | None:
        """The place key ``text`` names (a key, a name or an alias), else None."""
        folded = text.casefold().strip()
        if folded in self.places:
            return folded
        for key, place in self.places.items():
            words = [*place.names.values(), *place.aliases]
            if any(word.casefold() in folded for word in words):
                return key
        return None


class CalendarFileError(AgentError, ValueError):
    """The calendar file is missing or does not follow the format of docs/tools.md."""


@functools.lru_cache(maxsize=4)
def load_calendar(path: Path = CALENDAR_FILE) -> Calendar:
    """The calendar in ``path``, read and validated once."""
    try:
        with path.open("rb") as file:
            return Calendar.model_validate(tomllib.load(file))
    except FileNotFoundError as error:
        raise CalendarFileError(
            f"No visit-facts file at {path}: unset TOOLS_CALENDAR_FILE or point it at one."
        ) from error
    except (tomllib.TOMLDecodeError, ValueError) as error:
        raise CalendarFileError(
            f"{path} is not a valid calendar ({error}); fix it as docs/tools.md describes."
        ) from error
