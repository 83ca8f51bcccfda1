"""What the source check looks for in an eligibility rule: its rate, ages, region and customer types,
as the English and French sources write them (the types in the glossary's words)."""

from __future__ import annotations

import re

from agents.visit_calendar.rules import CUSTOMER_CONCEPTS, Eligibility, PeopleAudience
from agents.visit_calendar.source_value import Value
from rag.lexicon.concepts import concept_name
from rag.lexicon.glossary import load_glossary

SOURCE_LANGUAGES = ("en", "fr")
RATES = {"free": ("free", "gratuit"), "reduced": ("reduced", "réduit")}
# A region as a source names it: only the EU is an offer's region so far.
REGION_NAMES = {"EU": ("european union", "union européenne")}
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_LEAD_IN = re.compile(r":\.?\s*$")  # "… est gratuit pour :" (a crawled page's loader adds the ".")


def eligibility_values(rule: Eligibility) -> list[Value]:
    """The values an eligibility rule states: its rate, its ages, its region, its customer types."""
    found = [Value(rule.rate, RATES[rule.rate])]
    if rule.audience is not None:
        found.append(age_value(rule.audience))
    if rule.eligible_region:
        names = REGION_NAMES.get(rule.eligible_region, (rule.eligible_region,))
        found.append(Value(rule.eligible_region, names))
    for kind in rule.eligible_customer_type:
        found.append(Value(kind, customer_terms(CUSTOMER_CONCEPTS[kind]), folded=True))
    return found


def age_value(audience: PeopleAudience) -> Value:
    """An age range as sources write it: "under 18", "moins de 18 ans", "0 to 5", "6–17", "6-17 ans"."""
    low, high = audience.suggested_min_age, audience.suggested_max_age
    if high is None:
        over = (f"{low} and over", f"over {low}", f"plus de {low} ans", f"{low} ans et plus")
        return Value(f"{low} or over", over)
    if not low:
        under = high + 1
        spellings = [f"under {under}", f"under-{under}", f"moins de {under} ans"]
        if low == 0:
            spellings += [f"0 to {high}", f"0 à {high}", f"0-{high}", f"0–{high}"]
        return Value(f"under {under}", tuple(spellings))
    return Value(f"{low}–{high}", (f"{low} to {high}", f"{low} à {high}", f"{low}-{high}", f"{low}–{high}"))


def customer_terms(name: str) -> tuple[str, ...]:
    """The English and French terms of the glossary's concept ``name`` (accent-folded)."""
    glossary = load_glossary()
    for concept in glossary.concepts if glossary else []:
        if concept_name(concept) == name:
            return tuple(term for code in SOURCE_LANGUAGES for term in concept.terms.get(code, ()))
    return (name,)


def with_lead_ins(text: str) -> str:
    """``text`` with each list item's line preceded by the sentence introducing its list ("… is free
    for:"): an item says who, its lead-in says what they get. A list may also be written on the line
    after its lead-in, its items joined by ";" (a crawled page's list, chunked apart from its lead-in)."""
    lines, lead, led = [], "", False
    for line in text.splitlines():
        if _LIST_ITEM.match(line) or (led and line.strip()):
            lines.append(f"{lead} {line}" if lead else line)
            led = False
            continue
        if line.strip():
            lead = line.strip() if _LEAD_IN.search(line) else ""
            led = bool(lead)
        lines.append(line)
    return "\n".join(lines)
