"""How long ``get_visit_calendar`` takes per call, warm (target: 20 ms).

Usage: python -m benchmarks.calendar_speed [--rounds N]
Calls the tool for each date question of data/eval/date_questions.jsonl (the day as the router passes
it, in the question's language) ``--rounds`` times after one warm-up round (which runs the source check
and loads dateparser's locales), and prints the median, 95th percentile and worst time per call.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time

from agents.offline.reading.asked import places_asked
from agents.tools.day_phrases import date_phrase_in
from agents.visit_calendar.tool import CalendarService
from benchmarks._common import EVAL_SETS, save_result
from rag.evaluate import read_jsonl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    questions = read_jsonl(EVAL_SETS / "date_questions.jsonl")
    service = CalendarService(today=lambda: dt.date(2026, 11, 24))
    calls = [
        (date_phrase_in(q["question"]) or "today", place, q["language"])
        for q in questions
        for place in places_asked(q["question"], q["language"])[:1]
    ]
    for call in calls:
        service.get(*call)
    timings = []
    for _ in range(rounds):
        for call in calls:
            started = time.perf_counter()
            service.get(*call)
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    figures = {
        "calls": len(timings),
        "median_ms": round(statistics.median(timings), 2),
        "p95_ms": round(timings[int(len(timings) * 0.95)], 2),
        "max_ms": round(timings[-1], 2),
    }
    print(f"get_visit_calendar over {figures['calls']} warm calls: median {figures['median_ms']} ms, "
          f"p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms")  # fmt: skip
    print(f"saved to {save_result('calendar_speed', figures)}")


if __name__ == "__main__":
    main()
