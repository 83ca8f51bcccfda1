"""How turns are read and routed, without playing them: fast enough to tune the reading on.

Usage: python -m benchmarks.reading_quality [--sets DIR] [--show-misses]
Reads every turn of data/eval/conversations.jsonl (each conversation in order) and every question of
data/eval/tool_paraphrases.jsonl with ``agents.offline.reading`` and the multilingual-e5-small embedder,
as well as every first question of the shared development set and data/eval/scope.jsonl (a fact,
multi-part or out-of-scope question must call no tool, a weather or travel question its tool),
routes it as the offline model does (``agents.offline.router.calls_for``), and scores the tools
chosen, the slots passed and the reply language for both halves. The answers themselves are scored
by benchmarks/conversation_quality.py, which plays the turns through the service (minutes, not
seconds).
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections import defaultdict
from pathlib import Path
from typing import Any

from agents.offline.reading.intent import IntentIndex, default_embedder, intent_index
from agents.offline.reading.read import read_turn
from agents.offline.reading.request import TurnRequest
from agents.offline.router import calls_for, small_talk
from benchmarks._common import QUESTIONS, ROOT, half_of
from benchmarks._turns import slot_matches
from rag.evaluate import read_jsonl

TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info"}
SLOTS = {"origin": ("get_travel_info", "origin"), "mode": ("get_travel_info", "mode"),
         "date_word": ("get_weather", "date"), "place": ("get_weather", "place")}  # fmt: skip
ELLIPSES = ("ellipsis_kb", "ellipsis_weather", "ellipsis_travel", "from_there")
# a mixed question's tools vary
QUESTION_TOOLS = {"fact": [], "multi": [], "out_of_scope": [], "tool_weather": ["get_weather"],
                  "tool_travel": ["get_travel_info"]}  # fmt: skip


def score(turn: dict[str, Any], request: TurnRequest, today: dt.date) -> dict[str, Any]:
    """Tools, slots and language of one read turn, for the criteria that apply to it."""
    calls = [] if small_talk(request.message) else calls_for(request, TOOLS)
    names = {name for name, _ in calls}
    expect, forbid = turn.get("expect_tools", []), turn.get("forbid_tools", [])
    row: dict[str, Any] = {"language_ok": request.language == turn.get("reply_lang", request.language)}
    if expect or forbid:
        row["tools_ok"] = set(expect) <= names and not set(forbid) & names
    if expected := turn.get("expect_args"):
        row["args_ok"] = all(
            any(name == SLOTS[slot][0] and slot_matches(slot, value, args.get(SLOTS[slot][1]), today)
                for name, args in calls)
            for slot, value in expected.items()
        )  # fmt: skip
    row["turn_ok"] = all(row.values())
    row["calls"] = [(n, a) for n, a in calls if n != "search_knowledge_base"] + [
        ("search", [a["query"] for n, a in calls if n == "search_knowledge_base"])
    ]
    return row


def rate(rows: list[dict[str, Any]], key: str) -> str:
    kept = [row[key] for row in rows if key in row]
    return f"{sum(kept) / len(kept):.3f} ({len(kept)})" if kept else "-"


def read_sets(sets: Path, index: IntentIndex, today: dt.date) -> list[dict[str, Any]]:
    """Every conversation turn and paraphrase, read, routed and scored."""
    rows: list[dict[str, Any]] = []
    for conversation in read_jsonl(sets / "conversations.jsonl"):
        previous: TurnRequest | None = None
        for turn in conversation["turns"]:
            request = read_turn(turn["text"], previous, previous.language if previous else None, index)
            rows.append({"id": conversation["id"], "set": "conversation", "kind": turn["kind"],
                         "text": turn["text"], **score(turn, request, today)})  # fmt: skip
            previous = request
    for question in read_jsonl(sets / "tool_paraphrases.jsonl"):
        turn = {"expect_tools": question["expected_tools"], "forbid_tools": question["forbid_tools"]}
        request = read_turn(question["question"], None, None, index)
        rows.append({"id": question["id"], "set": "paraphrase", "kind": f"paraphrase:{question['type']}",
                     "text": question["question"], **score(turn, request, today)})  # fmt: skip
    for question in [*read_jsonl(QUESTIONS), *read_jsonl(sets / "scope.jsonl")]:
        if (expected := QUESTION_TOOLS.get(question["type"])) is None:
            continue
        forbid = [t for t in ("get_weather", "get_travel_info") if t not in expected]
        request = read_turn(question["question"], None, None, index)
        expectation = {"expect_tools": expected, "forbid_tools": forbid}
        rows.append({"id": question["id"], "set": "question", "kind": f"question:{question['type']}",
                     "text": question["question"], **score(expectation, request, today)})  # fmt: skip
    return rows


def headline(rows: list[dict[str, Any]]) -> dict[str, tuple[list[dict[str, Any]], str]]:
    """The figures issue 20 sets targets for: the rows each is the rate of, and of which key."""
    return {
        "topic_switch tools": ([r for r in rows if r["kind"] == "topic_switch"], "tools_ok"),
        "ellipses all right": ([r for r in rows if r["kind"] in ELLIPSES], "turn_ok"),
        "paraphrases tools": ([r for r in rows if r["set"] == "paraphrase"], "tools_ok"),
        "first questions tools": ([r for r in rows if r["set"] == "question"], "tools_ok"),
        "reply language": ([r for r in rows if r["set"] == "conversation"], "language_ok"),
        "unsupported in English": ([r for r in rows if r["kind"] == "unsupported_language"], "language_ok"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=Path, default=ROOT / "data" / "eval")
    parser.add_argument("--show-misses", choices=("tune", "check", "all"), default=None)
    args = parser.parse_args()
    rows = read_sets(args.sets, intent_index(default_embedder().embed_queries), dt.date.today())
    groups = headline(rows)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    print(f"{'':28}{'tune':>14}{'check':>14}")
    for name, (subset, key) in [*groups.items(), *((k, (v, "turn_ok")) for k, v in sorted(by_kind.items()))]:
        cells = [rate([r for r in subset if half_of(r["id"]) == half], key) for half in ("tune", "check")]
        print(f"{name:28}" + "".join(f"{cell:>14}" for cell in cells))
    if args.show_misses:
        for row in rows:
            if not row["turn_ok"] and args.show_misses in ("all", half_of(row["id"])):
                print(f"{row['id']} {row['kind']:18} {row['text']!r} -> {row['calls']}")


if __name__ == "__main__":
    main()
