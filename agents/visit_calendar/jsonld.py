"""Visit facts drafted from the schema.org JSON-LD a site publishes (kept by the crawler).

A place (any node with a ``name``) gives a place; its ``openingHoursSpecification`` gives hours on
its ``dayOfWeek`` between ``validFrom`` and ``validThrough`` ("00:00"–"00:00" means closed), its
``specialOpeningHoursSpecification`` gives other hours or a closure on those days, its ``offers`` /
``makesOffer`` (``price``, or ``priceSpecification``'s first ``price``) give a ticket's price. Each
rule cites the page it was read on. The draft is a visit-facts file: an operator reviews it, saves it
as data/visit_calendar.<name>.toml, and the source check verifies each value against the page text.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from typing import Any

from agents.visit_calendar.rules import WEEKDAYS, Calendar
from rag.lexicon.folding import fold_accents

_SCHEMA_DAY = re.compile(r"(?:https?://schema\.org/)?(\w+)$", re.IGNORECASE)


def draft_calendar(pages: Mapping[str, list[dict[str, Any]]]) -> Calendar:
    """The visit facts the JSON-LD of ``pages`` (objects by page URL) states, validated."""
    data: dict[str, Any] = {
        "places": {},
        "hours": [],
        "closed_dates": [],
        "closed_weekdays": [],
        "prices": [],
    }
    for url, items in pages.items():
        for node in items:
            name = node.get("name")
            if not isinstance(name, str) or not name.strip() or not _has_facts(node):
                continue
            key = _slug(name)
            data["places"][key] = {"names": {"en": name.strip()}, "aliases": [name.strip().casefold()]}
            _opening(node, key, url, data)
            _offers(node, key, url, data)
    return Calendar.model_validate(data)


def _has_facts(node: dict[str, Any]) -> bool:
    keys = ("openingHoursSpecification", "specialOpeningHoursSpecification", "offers", "makesOffer")
    return any(node.get(key) for key in keys)


def _opening(node: dict[str, Any], key: str, url: str, data: dict[str, Any]) -> None:
    specials = _listed(node.get("specialOpeningHoursSpecification"))
    regular = _listed(node.get("openingHoursSpecification"))
    for n, spec in enumerate([*specials, *regular]):  # specials first: the engine takes the first that holds
        days = [d for d in (_weekday(value) for value in _listed(spec.get("dayOfWeek"))) if d]
        opens, closes = _time(spec.get("opens")), _time(spec.get("closes"))
        valid = {k: v for k, v in (("valid_from", _date(spec.get("validFrom"))),
                                   ("valid_until", _date(spec.get("validThrough")))) if v}  # fmt: skip
        rule_id = f"{key}-{'special' if n < len(specials) else 'hours'}-{n}"
        if opens is None or closes is None or opens == closes == "00:00":
            if days:
                data["closed_weekdays"].append(
                    {"id": rule_id, "places": [key], "weekdays": days, "source": url, **valid}
                )
            elif "valid_from" in valid:
                first, last = valid["valid_from"], valid.get("valid_until", valid["valid_from"])
                dates = [
                    (first + dt.timedelta(days=d)).strftime("%m-%d") for d in range((last - first).days + 1)
                ]
                data["closed_dates"].append(
                    {"id": rule_id, "places": [key], "dates": dates, "source": url, **valid}
                )
            continue
        data["hours"].append(
            {
                "id": rule_id,
                "place": key,
                "opens": opens,
                "closes": closes,
                "source": url,
                **valid,
                **({"weekdays": days} if days else {}),
            }
        )


def _offers(node: dict[str, Any], key: str, url: str, data: dict[str, Any]) -> None:
    for n, offer in enumerate([*_listed(node.get("offers")), *_listed(node.get("makesOffer"))]):
        if not isinstance(offer, dict) or (offer.get("priceCurrency") or "EUR") != "EUR":
            continue
        price = _number(offer.get("price"))
        if price is None:
            specs = [s for s in _listed(offer.get("priceSpecification")) if isinstance(s, dict)]
            price = next((p for s in specs if (p := _number(s.get("price"))) is not None), None)
        if price is not None:
            ticket = _slug(str(offer.get("name") or key))
            data["prices"].append({"id": f"{key}-price-{n}", "ticket": ticket, "places": [key], "full": price,
                                   "source": url})  # fmt: skip


def to_toml(calendar: Calendar) -> str:
    """The calendar as a visit-facts file (TOML), tables in the order docs/tools.md lists them."""
    lines = ['timezone = "Europe/Paris"', ""]
    for key, place in calendar.places.items():
        lines += [
            f"[places.{json.dumps(key)}]",
            f"names = {_inline(place.names)}",
            f"aliases = {_list(place.aliases)}",
            "",
        ]
    for table, rules in (("hours", calendar.hours), ("closed_weekdays", calendar.closed_weekdays),
                         ("closed_dates", calendar.closed_dates), ("prices", calendar.prices)):  # fmt: skip
        for rule in rules:
            lines.append(f"[[{table}]]")
            for field, value in rule.model_dump(exclude_defaults=True, mode="json").items():
                lines.append(f"{field} = {_value(value)}")
            lines.append("")
    return "\n".join(lines)


def _value(value: Any) -> str:
    if isinstance(value, list):
        return _list(value)
    if isinstance(value, dict):
        return _inline(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def _list(values: list[Any]) -> str:
    return "[" + ", ".join(_value(v) for v in values) + "]"


def _inline(values: Mapping[str, Any]) -> str:
    return "{ " + ", ".join(f"{json.dumps(k)} = {_value(v)}" for k, v in values.items()) + " }"


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value] if value else []


def _weekday(value: Any) -> str | None:
    match = _SCHEMA_DAY.search(str(value))
    name = match.group(1).capitalize() if match else ""
    return name if name in WEEKDAYS else None


def _time(value: Any) -> str | None:
    try:
        return dt.time.fromisoformat(str(value)[:5]).strftime("%H:%M") if value else None
    except ValueError:
        return None


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def _number(value: Any) -> float | None:
    try:
        return float(str(value).replace(",", ".")) if value not in (None, "") else None
    except ValueError:
        return None


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold_accents(name.casefold())).strip("-") or "place"
