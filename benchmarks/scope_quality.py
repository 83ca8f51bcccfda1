"""The agent on the scope set and the tool paraphrases: declining what the knowledge base does not
answer, answering what it does, and calling the weather and travel tools only when asked.

Usage: python -m benchmarks.scope_quality [--index DIR] [--limit N]
Plays data/eval/scope.jsonl and data/eval/tool_paraphrases.jsonl through the real service (the
offline model unless a key is set; weather and travel tools offline), each question in its own
thread, and reports per type and per language for both halves.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.evaluation.evaluate import rate
from agents.service import AgentService
from benchmarks._common import BENCH_INDEX, EVAL_SETS, half_of, offline_service, save_result
from benchmarks._turns import play, print_table, score_turn
from rag.evaluate import read_jsonl


def scope_turn(item: dict[str, Any]) -> dict[str, Any]:
    """A scope question as a turn: declined when out of scope, else holding its facts."""
    return {
        "text": item["question"],
        "reply_lang": item["lang"],
        "answers": item["answers"],
        "decline": item["type"] == "out_of_scope",
    }


def paraphrase_turn(item: dict[str, Any]) -> dict[str, Any]:
    """A paraphrase as a turn: the expected tools called, no forbidden one."""
    return {
        "text": item["question"],
        "reply_lang": item["lang"],
        "expect_tools": item["expected_tools"],
        "forbid_tools": item["forbid_tools"],
    }


def played_rows(
    service: AgentService, items: list[dict[str, Any]], as_turn: Callable[[dict[str, Any]], dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each item asked in its own thread and scored as a turn."""
    today, rows = dt.date.today(), []
    for item in items:
        row = {"id": item["id"], "lang": item["lang"], "type": item["type"], "question": item["question"]}
        row.update(score_turn(as_turn(item), play(service, item["question"], f"scope-{item['id']}"), today))
        if "get_weather" not in item["expected_tools"]:
            row["weather_unasked"] = "get_weather" in row.get("tools", [])
        rows.append(row)
    return rows


def headline(scope: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures issues 20 and 21 set targets for."""
    out = [row for row in scope if row["type"] == "out_of_scope"]
    facts = [row for row in scope if row["type"] == "fact"]
    return {
        "out_of_scope_declined": rate(out, "decline_ok"),
        "controls_declined": rate(facts, "declined"),
        "controls_holding_facts": rate(facts, "facts_ok"),
        "scope_language": rate(scope, "language_ok"),
        "tool_requests_right": rate([row for row in tools if row["type"] != "negative"], "tools_ok"),
        "negatives_right": rate([row for row in tools if row["type"] == "negative"], "tools_ok"),
        "paraphrases_right": rate(tools, "tools_ok"),
        "weather_when_not_asked": rate(tools, "weather_unasked"),
        "errors": sum("error" in row for row in [*scope, *tools]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--limit", type=int, default=None, help="ask only the first N items of each set")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(args.index, Path(folder))
        scope = played_rows(service, read_jsonl(EVAL_SETS / "scope.jsonl")[: args.limit], scope_turn)
        tools = played_rows(
            service, read_jsonl(EVAL_SETS / "tool_paraphrases.jsonl")[: args.limit], paraphrase_turn
        )
    halves = {
        half: headline(
            [r for r in scope if half_of(r["id"]) == half], [r for r in tools if half_of(r["id"]) == half]
        )
        for half in ("tune", "check")
    }
    print(f"model: {service.model_name}\n{'':24}" + "".join(f"{half:>8}" for half in halves))
    for key in halves["tune"]:
        print(f"{key:24}" + "".join(f"{figures[key]!s:>8}" for figures in halves.values()))
    scope_keys = ("decline_ok", "declined", "facts_ok", "language_ok")
    print_table("scope by type (decline_ok: out of scope declined; declined: any)", scope, "type", scope_keys)
    print_table("scope by language", scope, "lang", scope_keys)
    print_table("paraphrases by type", tools, "type", ("tools_ok", "weather_unasked"))
    print_table("paraphrases by language", tools, "lang", ("tools_ok", "weather_unasked"))
    print("\nmissed:")
    for row in [*scope, *tools]:
        wrong = (
            (row["type"] == "out_of_scope" and not row.get("decline_ok"))
            or (row["type"] == "fact" and (row.get("declined") or not row.get("facts_ok")))
            or ("tools_ok" in row and not row["tools_ok"])
        )
        if wrong:
            print(f"  {row['id']} {row['lang']} {row['type']}: declined={row.get('declined')} "
                  f"facts={row.get('facts_ok')} tools={row.get('tools')} {row.get('error', '')}")  # fmt: skip
    save_result(
        "scope_quality", {"model": service.model_name, "halves": halves, "scope": scope, "paraphrases": tools}
    )


if __name__ == "__main__":
    main()
