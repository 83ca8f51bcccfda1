"""The agent on the development conversations: topic switches, ellipses, declining, reply language.

Usage: python -m benchmarks.conversation_quality [--index DIR] [--limit N] [--conversations FILE]
Plays data/eval/conversations.jsonl through the real service (the offline model unless a key is
set; weather and travel tools offline), each conversation in its own thread, and scores every turn
(benchmarks/_turns.py): headline figures, then per kind of turn and per conversation language, for
both halves (a conversation's turns share its half).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
from pathlib import Path
from typing import Any

from agents.evaluation.evaluate import rate
from benchmarks._common import BENCH_INDEX, EVAL_SETS, half_of, offline_service, save_result
from benchmarks._turns import CRITERIA, play, print_table, score_turn
from rag.evaluate import read_jsonl

ELLIPSES = ("ellipsis_kb", "ellipsis_weather", "ellipsis_travel", "from_there")


def headline(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures issue 20 sets targets for, plus the turn-level ones behind them."""

    def of(kinds: tuple[str, ...], key: str) -> float | None:
        return rate([row for row in rows if row["kind"] in kinds], key)

    answered = [row["seconds"] for row in rows if "seconds" in row]
    return {
        "turns": len(rows),
        "errors": sum("error" in row for row in rows),
        "topic_switch_tools": of(("topic_switch",), "tools_ok"),
        "ellipsis_all_right": of(ELLIPSES, "turn_ok"),
        "ellipsis_tools": of(ELLIPSES, "tools_ok"),
        "ellipsis_args": of(ELLIPSES, "args_ok"),
        "out_of_scope_declined": of(("out_of_scope",), "decline_ok"),
        "language_all_turns": rate(rows, "language_ok"),
        "unsupported_in_english": of(("unsupported_language",), "language_ok"),
        "short_keeps_language": of(("short_keep_language",), "language_ok"),
        "switch_followed": of(("language_switch",), "language_ok"),
        "facts_in_answer": rate(rows, "facts_ok"),
        "turns_all_right": rate(rows, "turn_ok"),
        "seconds_p50": round(statistics.median(answered), 3) if answered else None,
    }


CONVERSATIONS = EVAL_SETS / "conversations.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--limit", type=int, default=None, help="play only the first N conversations")
    parser.add_argument("--conversations", type=Path, default=CONVERSATIONS, help="a conversation set")
    args = parser.parse_args()
    conversations = read_jsonl(args.conversations)[: args.limit]
    today, rows = dt.date.today(), []
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(args.index, Path(folder))
        for conversation in conversations:
            for number, turn in enumerate(conversation["turns"], start=1):
                played = play(service, turn["text"], f"conversation-{conversation['id']}")
                row = {"id": conversation["id"], "turn": number, "lang": conversation["lang"]}
                row.update(kind=turn["kind"], reply_lang=turn["reply_lang"], text=turn["text"])
                rows.append({**row, **score_turn(turn, played, today)})
    halves = {
        half: headline([row for row in rows if half_of(row["id"]) == half]) for half in ("tune", "check")
    }
    print(f"model: {service.model_name}\n{'':24}" + "".join(f"{half:>8}" for half in halves))
    for key in halves["tune"]:
        print(f"{key:24}" + "".join(f"{figures[key]!s:>8}" for figures in halves.values()))
    print_table("by kind", rows, "kind", (*CRITERIA, "turn_ok"))
    print_table("by language of the conversation", rows, "lang", (*CRITERIA, "turn_ok"))
    print("\nturns not all right:")
    for row in rows:
        if not row.get("turn_ok"):
            missed = [key for key in CRITERIA if row.get(key) is False]
            calls = f"reply in {row.get('answer_language')} | " + "; ".join(
                f"{call['tool']}({call['args']})" for call in row.get("calls", [])
            )
            head = f"{row['id']}.{row['turn']} {row['lang']} {row['kind']}"
            print(f"  {head}: {', '.join(missed) or row.get('error')} | tools={row.get('tools')} {calls}")
    name = "conversation_quality" + (
        "" if args.conversations == CONVERSATIONS else f"_{args.conversations.stem}"
    )
    save_result(name, {"model": service.model_name, "halves": halves, "turns": rows})


if __name__ == "__main__":
    main()
