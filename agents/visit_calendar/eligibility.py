"""Who a visitor is, as the visit facts need it, and the eligibility rules that hold for them (pure)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agents.visit_calendar.facts import event_months
from agents.visit_calendar.rules import Calendar, CustomerType, Eligibility

Verdict = Literal["yes", "no", "unknown"]


class Visitor(BaseModel):
    """What a visitor said of themselves that an offer may depend on (None or False: not said)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    age: int | None = Field(None, ge=0, le=120, description="Their age in years, when they say it.")
    country: str | None = Field(
        None, description="Where they live, as an ISO 3166-1 alpha-2 code ('ES', 'BR'), when they say it."
    )
    eu_resident: bool | None = Field(None, description="Whether they live in the European Union, when known.")
    disabled: bool = Field(False, description="A disabled visitor.")
    companion_of_disabled: bool = Field(False, description="Accompanying a disabled visitor.")
    student: bool = False
    teacher: bool = False
    job_seeker: bool = Field(False, description="A job seeker, or receiving social minimum benefits.")

    def said(self) -> dict[str, Any]:
        """The facts the visitor gave, and nothing else."""
        return self.model_dump(exclude_defaults=True)

    def customer_types(self) -> set[CustomerType]:
        kinds: tuple[CustomerType, ...] = (
            "disabled", "companion_of_disabled", "student", "teacher", "job_seeker",
        )  # fmt: skip
        return {kind for kind in kinds if getattr(self, kind)}

    def resident_of(self, region: str, calendar: Calendar) -> bool | None:
        """Whether they live in ``region`` (a key of the calendar's regions); None when not said."""
        if region == "EU" and self.eu_resident is not None:
            return self.eu_resident
        if self.country is None:
            return None
        return self.country.upper() in calendar.regions.get(region, [])


def verdict(rule: Eligibility, visitor: Visitor, calendar: Calendar) -> Verdict:
    """Whether ``rule`` holds for ``visitor``: "no" when a condition it names is not met, "unknown"
    when the visitor did not say what one depends on, else "yes"."""
    found: list[Verdict] = []
    if rule.eligible_customer_type:
        found.append("yes" if set(rule.eligible_customer_type) & visitor.customer_types() else "no")
    if rule.audience is not None:
        low, high = rule.audience.suggested_min_age, rule.audience.suggested_max_age
        if visitor.age is None:
            found.append("unknown")
        else:
            found.append(
                "yes"
                if (low is None or visitor.age >= low) and (high is None or visitor.age <= high)
                else "no"
            )
    if rule.eligible_region:
        resident = visitor.resident_of(rule.eligible_region, calendar)
        found.append("unknown" if resident is None else "yes" if resident else "no")
    if "no" in found or not found:
        return "no"
    return "unknown" if "unknown" in found else "yes"


def accounted(rule: Eligibility, visitor: Visitor) -> dict[str, Any]:
    """The visitor's facts a line of ``rule`` answers for: all of them when entry is free (nothing
    else they are makes it cheaper), else those the rule tested."""
    said = visitor.said()
    if rule.rate == "free":
        return said
    tested = {"age"} if rule.audience else set()
    tested |= {"country", "eu_resident"} if rule.eligible_region else set()
    tested |= set(rule.eligible_customer_type) & visitor.customer_types()
    return {key: value for key, value in said.items() if key in tested}


def eligible(
    calendar: Calendar,
    place: str,
    visitor: Visitor,
    withheld: Collection[str] = (),
    months: Collection[int] = (),
) -> list[Eligibility]:
    """The rules of ``place`` that hold for ``visitor``, free entry first: none withheld by the
    source check, none of an event not held in the ``months`` asked, and a reduced rate only with
    its ticket's price on file."""
    events = {event.id: event_months(event) for event in calendar.events}
    priced = {p.ticket for p in calendar.prices if p.reduced is not None and p.id not in withheld}
    found = [
        rule
        for rule in calendar.eligibility
        if place in rule.places
        and rule.id not in withheld
        and not (rule.event and months and not set(months) & events.get(rule.event, set()))
        and (rule.rate == "free" or rule.ticket in priced)
        and verdict(rule, visitor, calendar) == "yes"
    ]
    return sorted(found, key=lambda rule: rule.rate != "free")
