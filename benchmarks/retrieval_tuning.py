"""Grid search of query-time retrieval settings, reported on both fixed halves of the dev set.

Usage: python -m benchmarks.retrieval_tuning --set dense_weight=0.5,1,2 --set candidates=30,60
Settings are chosen on the "tune" half; a change is kept only if the "check" half does not get
worse. Every variant searches the same index (built by benchmarks.retrieval_quality).
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

from benchmarks._common import BENCH_INDEX, evaluate_halves, hit_cell, save_result
from rag.config import RagSettings
from rag.retriever import HybridRetriever


def parse_grid(pairs: list[str]) -> list[dict[str, Any]]:
    """``["a=1,2", "b=true"]`` -> every combination as a dict of settings (values read as JSON)."""
    axes = {
        key: [json.loads(v) for v in values.split(",")]
        for key, _, values in (p.partition("=") for p in pairs)
    }
    return [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]


def print_header() -> None:
    print("all-aspects hit all/fr/en/other; chars = mean context per question (all questions)")
    print(
        f"{'variant':<44} {'raw tune':<19} {'raw check':<19} {'pooled tune':<19} {'pooled check':<19} chars"
    )


def print_row(name: str, row: dict[str, Any]) -> None:
    cells = [hit_cell(row[mode][half]) for mode in ("raw", "pooled") for half in ("tune", "check")]
    chars = "/".join(f"{row[mode]['all']['all']['mean_chars']:.0f}" for mode in ("raw", "pooled"))
    print(f"{name:<44} {cells[0]:<19} {cells[1]:<19} {cells[2]:<19} {cells[3]:<19} {chars}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--set", action="append", default=[], help="setting=value1,value2,...")
    args = parser.parse_args()
    base = HybridRetriever(RagSettings(index_dir=args.index))
    print_header()
    payload = []
    for overrides in parse_grid(args.set) or [{}]:
        retriever = HybridRetriever(RagSettings(index_dir=args.index, **overrides), embedder=base.embedder)
        row = evaluate_halves(retriever.search, args.k)
        payload.append({"settings": overrides, **row})
        print_row(" ".join(f"{k}={v}" for k, v in overrides.items()) or "defaults", row)
    save_result("retrieval_tuning", {"variants": payload})


if __name__ == "__main__":
    main()
