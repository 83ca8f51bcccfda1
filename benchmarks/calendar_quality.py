"""How date questions are answered by the visit calendar: routing, the day, the values, the source.

Usage: python -m benchmarks.calendar_quality [--show-misses]
Reads every question of data/eval/date_questions.jsonl with the offline model's reader
(``agents.offline.reading``, multilingual-e5-small),
routes it as the offline model does, runs ``get_visit_calendar`` with the question's "today", and
checks the day, open or closed (and why), the hours, last admission and free entry against the
expected values, and that the summary cites a source. Prints both fixed halves (tune / check) and the
tool's median and worst time per call (target: 20 ms).

Then the questions of data/eval/date_questions_outside.jsonl, on days of things the calendar does not
hold (a pharmacy, another museum): the share left to the knowledge base, with no calendar call.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from typing import Any

from agents.offline.reading.intent import default_embedder, intent_index
from agents.offline.reading.read import read_turn
from agents.offline.router import calls_for
from agents.visit_calendar.tool import CalendarResult, CalendarService
from benchmarks._common import EVAL_SETS, save_result, split_halves
from rag.evaluate import read_jsonl

TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info", "get_visit_calendar"}
FIELDS = ("date", "place", "status", "closed_why", "opens", "closes", "last_admission", "free")
KEYS = {"status": "open"}  # the result's name of an expected field, where it differs


def score(question: dict[str, Any], result: CalendarResult | None) -> dict[str, Any]:
    """Whether the calendar was called and each expected value is the one it gave."""
    expected = question["expected"]
    if result is None or not result.days:
        return {"routed": False, "right": False, "cited": False, "wrong": ["no calendar call"]}
    day = result.days[0].model_dump()
    wrong = [f"{f}: {day.get(KEYS.get(f, f))!r} != {expected[f]!r}" for f in FIELDS if f in expected
             and day.get(KEYS.get(f, f)) != expected[f]]  # fmt: skip
    return {"routed": True, "right": not wrong, "cited": bool(result.sources), "wrong": wrong}


def run(show_misses: bool) -> dict[str, Any]:
    questions = read_jsonl(EVAL_SETS / "date_questions.jsonl")
    index = intent_index(default_embedder().embed_queries)
    rows, timings = [], []
    for question in questions:
        today = dt.date.fromisoformat(question["today"])
        service = CalendarService(today=lambda today=today: today)
        request = read_turn(question["question"], None, None, index)
        calls = [args for name, args in calls_for(request, TOOLS) if name == "get_visit_calendar"]
        result = None
        if calls:
            result = service.get(**calls[0])  # the first call of a day and language loads the parser
            started = time.perf_counter()
            service.get(**calls[0])
            timings.append((time.perf_counter() - started) * 1000)
        rows.append({"id": question["id"], "language": question["language"], **score(question, result)})
        if show_misses and not rows[-1]["right"]:
            print(f"MISS {question['id']} {question['question']!r}: {rows[-1]['wrong']} calls={calls}")
    payload: dict[str, Any] = {}
    for half, members in split_halves(rows).items():
        n = len(members)
        payload[half] = {key: round(sum(r[key] for r in members) / n, 3) if n else None
                         for key in ("routed", "right", "cited")} | {"questions": n}  # fmt: skip
    payload["tool_ms"] = {"median": round(statistics.median(timings), 2), "max": round(max(timings), 2)}
    payload["outside"] = outside(index, show_misses)
    return payload


def outside(index: Any, show_misses: bool) -> dict[str, Any]:
    """Per half, the share of questions on another subject's day that call no calendar."""
    rows = []
    for question in read_jsonl(EVAL_SETS / "date_questions_outside.jsonl"):
        request = read_turn(question["question"], None, None, index)
        calls = [args for name, args in calls_for(request, TOOLS) if name == "get_visit_calendar"]
        rows.append({"id": question["id"], "language": question["language"], "left": not calls})
        if show_misses and calls:
            print(f"MISS {question['id']} {question['question']!r}: calendar called {calls}")
    return {
        half: {"left_to_knowledge_base": round(sum(r["left"] for r in members) / len(members), 3),
               "questions": len(members)}
        for half, members in split_halves(rows).items()
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    payload = run(parser.parse_args().show_misses)
    for half in ("tune", "check", "all"):
        figures = payload[half]
        print(f"{half:5} n={figures['questions']:2}  routed {figures['routed']:.3f}  "
              f"right {figures['right']:.3f}  cited {figures['cited']:.3f}")  # fmt: skip
    for half in ("tune", "check", "all"):
        figures = payload["outside"][half]
        print(f"{half:5} n={figures['questions']:2}  other subjects left to the knowledge base "
              f"{figures['left_to_knowledge_base']:.3f}")  # fmt: skip
    print(f"get_visit_calendar: median {payload['tool_ms']['median']} ms, max {payload['tool_ms']['max']} ms")
    print(f"saved to {save_result('calendar_quality', payload)}")


if __name__ == "__main__":
    main()
