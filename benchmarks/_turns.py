"""One turn played through the service and scored: tools, slot arguments, reply language, declining, facts.

Shared by the conversation and scope benchmarks. A turn is a dict in the format of
data/eval/README.md (text, reply_lang, expect_tools, forbid_tools, expect_args, answers, decline).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from agents.evaluation.evaluate import answer_language, declined, rate, tools_match
from agents.events import ErrorOccurred, FinalAnswer, ToolCalled
from agents.service import AgentService
from agents.tools.dates import parse_visit_date
from agents.tools.travel.gazetteer import Gazetteer, load_gazetteer, normalise
from agents.tools.travel.tool import parse_mode
from agents.tools.weather.places import built_in_place
from benchmarks._common import ROOT, half_of
from rag.evaluate import found_aspects

# Which tool, and which of its arguments, holds each slot of ``expect_args``.
SLOTS = {
    "origin": ("get_travel_info", "origin"),
    "mode": ("get_travel_info", "mode"),
    "date_word": ("get_weather", "date"),
    "place": ("get_weather", "place"),
}
CRITERIA = ("tools_ok", "args_ok", "language_ok", "decline_ok", "facts_ok")


@dataclass
class Played:
    """A turn's final event and the tool calls streamed before it."""

    result: FinalAnswer | ErrorOccurred
    calls: list[ToolCalled] = field(default_factory=list)


def play(service: AgentService, text: str, thread_id: str) -> Played:
    """Stream one turn, keeping the tool calls (with their arguments) and the final event."""
    played = Played(ErrorOccurred(message="No answer was produced."))
    for event in service.stream(text, thread_id):
        if isinstance(event, ToolCalled):
            played.calls.append(event)
        elif isinstance(event, FinalAnswer | ErrorOccurred):
            played.result = event
    return played


@lru_cache(maxsize=1)
def _gazetteer() -> Gazetteer:
    return load_gazetteer(ROOT / "data" / "travel" / "gazetteer.json")


def slot_matches(slot: str, expected: str, actual: Any, today: dt.date) -> bool:
    """Whether a call's argument says what the turn expects, read the way the tools read it."""
    if not isinstance(actual, str) or not actual.strip():
        return False
    if slot == "origin":
        place, wanted = _gazetteer().find(actual), _gazetteer().find(expected)
        return place is not None and wanted is not None and place.id == wanted.id
    if slot == "mode":
        return parse_mode(actual) == expected
    if slot == "date_word":  # the same day; the same words where the tool's parser reads no day
        wanted = parse_visit_date(expected, today).day
        if wanted is None:
            return normalise(expected) in normalise(actual)
        return parse_visit_date(actual, today).day == wanted
    expected_place, actual_place = built_in_place(expected), built_in_place(actual)
    if expected_place and actual_place:
        return expected_place.name == actual_place.name
    return normalise(expected) == normalise(actual)


def args_match(expected: dict[str, str], calls: Iterable[ToolCalled], today: dt.date) -> bool:
    """Whether, for each tool the expected slots belong to, one call of it holds all of them."""
    calls = list(calls)
    for tool in {SLOTS[slot][0] for slot in expected}:
        slots = {slot: value for slot, value in expected.items() if SLOTS[slot][0] == tool}
        if not any(
            call.tool == tool
            and all(
                slot_matches(slot, value, call.args.get(SLOTS[slot][1]), today)
                for slot, value in slots.items()
            )
            for call in calls
        ):
            return False
    return True


def score_turn(turn: dict[str, Any], played: Played, today: dt.date) -> dict[str, Any]:
    """The criteria that apply to ``turn``, each true or false; an error fails all of them."""
    expect, forbid = turn.get("expect_tools", []), turn.get("forbid_tools", [])
    applies = {
        "tools_ok": bool(expect or forbid),
        "args_ok": bool(turn.get("expect_args")),
        "language_ok": True,
        "decline_ok": bool(turn.get("decline")),
        "facts_ok": bool(turn.get("answers")),
    }
    result = played.result
    if isinstance(result, ErrorOccurred):
        return {"error": result.message, **{key: False for key, used in applies.items() if used}}
    language = answer_language(result.answer)
    figures = {
        "tools_ok": tools_match(result.tools, expect, forbid),
        "args_ok": args_match(turn.get("expect_args", {}), played.calls, today),
        "language_ok": language == turn["reply_lang"],
        "decline_ok": declined(result),
        "facts_ok": all(found_aspects(turn.get("answers", []), [result.answer])),
    }
    row = {key: value for key, value in figures.items() if applies[key]}
    row["turn_ok"] = all(row.values())
    row.update(
        tools=result.tools,
        calls=[
            call.model_dump(exclude={"type"}) for call in played.calls if call.tool != "search_knowledge_base"
        ],
        answer_language=language,
        declined=declined(result),
        seconds=result.seconds,
        answer=result.answer,
    )
    return row


def print_table(title: str, rows: list[dict[str, Any]], group: str, keys: tuple[str, ...]) -> None:
    """Per value of ``group``: the number of rows and the rate of each key, tune | check."""
    print(f"\n{title} (n, {', '.join(keys)}): tune | check")
    for value in sorted({str(row[group]) for row in rows}):
        cells = []
        for half in ("tune", "check"):
            subset = [row for row in rows if str(row[group]) == value and half_of(row["id"]) == half]
            figures = " ".join(f"{rate(subset, key)!s:>5}" for key in keys)
            cells.append(f"n={len(subset):<3} {figures}" if subset else "-")
        print(f"  {value:22}" + " | ".join(f"{cell:44}" for cell in cells))
