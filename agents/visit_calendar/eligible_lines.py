"""The eligibility rules holding for a visitor, as lines in the visitor's language: "The Palace: free
for visitors under 18 (12 years old); book a free timed ticket and bring proof."."""

from __future__ import annotations

import re
from typing import Any

from babel import Locale
from babel.lists import format_list

from agents.visit_calendar.answer import FactLine, load_phrases
from agents.visit_calendar.eligibility import Visitor, accounted
from agents.visit_calendar.rules import Calendar, Eligibility
from rag.lexicon.languages import supported_language

_CONTEXT = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
_UNSPACED = {"ja", "zh"}


def eligibility_line(
    rule: Eligibility, calendar: Calendar, visitor: Visitor, language: str | None, place: str
) -> FactLine:
    """``rule`` as one line for ``visitor`` at ``place``: who it is for, the visitor's facts it answers, the
    amount of a reduced rate, and what to do (book a free timed ticket)."""
    code = supported_language(language)
    words = load_phrases()[code]
    said = {"who": _who(rule, calendar, words, code), "for_you": _for_you(visitor, rule, words, code)}
    rules = [rule.id]
    if rule.rate == "free":
        spot = calendar.places[place]
        text = words["eligible_free"].format(place=spot.names.get(code) or spot.names["en"], **said)
    else:
        price = next(p for p in calendar.prices if p.ticket == rule.ticket and p.reduced is not None)
        ticket = words["tickets"].get(price.ticket, price.ticket)
        text = words["eligible_reduced"].format(ticket=ticket, amount=f"{price.reduced:g}", **said)
        rules.append(price.id)
    if rule.book_ahead:
        text += words["book_ahead"]
    end = "。" if code in _UNSPACED else "."
    return FactLine(
        text=text[:1].upper() + text[1:] + end,
        rules=rules,
        answers="free" if rule.rate == "free" else "price",
        visitor=accounted(rule, visitor),
    )


def _who(rule: Eligibility, calendar: Calendar, words: dict[str, Any], code: str) -> str:
    """Whom the rule is for, in ``code``: an age range (of a region's residents), customer types."""
    parts: list[str] = []
    audience = rule.audience
    if audience is not None and audience.suggested_max_age is not None:
        low, high = audience.suggested_min_age, audience.suggested_max_age
        if rule.eligible_region:
            region = words["region_names"].get(rule.eligible_region, rule.eligible_region)
            parts.append(words["who_region_under"].format(region=region, age=high + 1))
        elif low:
            parts.append(words["who_between"].format(low=low, high=high))
        else:
            parts.append(words["who_under"].format(age=high + 1))
    parts += [words["customer_types"][kind] for kind in rule.eligible_customer_type]
    who = format_list(parts, locale=code)
    if rule.event:
        event = next((e for e in calendar.events if e.id == rule.event), None)
        name = words["event_names"].get(event.name, event.name) if event else rule.event
        who += words["on_event_days"].format(event=_CONTEXT.sub("", name))
    return who


def _for_you(visitor: Visitor, rule: Eligibility, words: dict[str, Any], code: str) -> str:
    """The visitor's own facts the rule turned on, in brackets: their age, their country."""
    facts = []
    if rule.audience is not None and visitor.age is not None:
        facts.append(words["years_old"].format(age=visitor.age))
    if rule.eligible_region and visitor.country:
        facts.append(Locale.parse(code).territories.get(visitor.country.upper(), visitor.country))
    separator = "、" if code in _UNSPACED else ", "  # a list of facts, not "12 years old and Spain"
    return words["for_visitor"].format(facts=separator.join(facts)) if facts else ""
