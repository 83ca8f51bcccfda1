"""Tune the offline reader on one half of the development questions, check it on the other.

Usage: python -m benchmarks.offline_reader_tuning [--index DIR] [--set name=v1,v2 ...]

The agent runs once per question (offline model, offline tools) and its final evidence is kept;
the reader then re-reads that evidence under every combination of the values given (names:
``threshold``, ``quoted`` (sentences per part), ``close`` (share of the best score), or a weight
``dense``, ``needs``, ``type``, ``retrieval``) and each setting is scored
on both halves: facts in the answer (fact and multi questions), out-of-scope abstention, and
in-scope fact questions wrongly abstained. Keep a setting only when the "check" half does not get
worse. Evidence gathered with other settings is the same up to follow-up searches, which the
final agent benchmark (benchmarks/agent_quality.py) measures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from agents.brief import Brief
from agents.config import AgentSettings
from agents.offline import reader, reply
from agents.service import AgentService
from benchmarks._common import BENCH_INDEX, QUESTIONS, half_of, save_result
from rag.config import RagSettings
from rag.embeddings import PassageVectorCache
from rag.evaluate import found_aspects, read_jsonl


def gather(service: AgentService, questions: list[dict[str, Any]]) -> list[Brief]:
    """The synthesis brief of every question, as the graph left it."""
    briefs = []
    for question in questions:
        thread = f"tune-{question['id']}"
        service.ask(question["question"], thread)
        values = service.graph.get_state({"configurable": {"thread_id": thread}}).values
        briefs.append(
            Brief(
                node="synthesize",
                question=values.get("question", ""),
                language=values.get("language", ""),
                kb_language=(service.retriever.languages or ["fr"])[0],
                evidence=values.get("evidence", []),
                tool_results=values.get("tool_results", []),
            )
        )
    return briefs


def score(questions: list[dict[str, Any]], answers: list[tuple[str, bool]]) -> dict[str, dict[str, Any]]:
    """Facts, abstention and wrong abstentions per half."""
    out: dict[str, dict[str, Any]] = {}
    for half in ("tune", "check"):
        facts, abstained_out, wrong = [], [], 0
        for question, (answer, abstained) in zip(questions, answers, strict=True):
            if half_of(question["id"]) != half:
                continue
            if question["type"] == "out_of_scope":
                abstained_out.append(abstained)
            elif question["type"] in {"fact", "multi"}:
                facts.append(all(found_aspects(question["answers"], [answer])))
                wrong += abstained and question["type"] == "fact"
        out[half] = {
            "facts": round(sum(facts) / len(facts), 3),
            "abstention": round(sum(abstained_out) / max(len(abstained_out), 1), 3),
            "wrongly_abstained": wrong,
        }
    return out


def main() -> None:
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--set", action="append", default=[], help="name=v1,v2 (threshold or a weight)")
    args = parser.parse_args()
    grid = {name: [float(v) for v in values.split(",")] for name, values in (s.split("=") for s in args.set)}
    questions = read_jsonl(QUESTIONS)
    with tempfile.TemporaryDirectory() as folder:
        settings = AgentSettings(checkpoint_path=Path(folder) / "tune.sqlite")
        service = AgentService(settings=settings, rag_settings=RagSettings(index_dir=args.index))
        briefs = gather(service, questions)
    embedder = service.retriever.embedder
    vectors = PassageVectorCache(embedder.embed_documents)
    results = []
    constants = {"threshold": "ANSWER_THRESHOLD", "quoted": "QUOTED_PER_PART", "close": "CLOSE_TO_BEST"}
    defaults = {**{name: getattr(reader, constant) for name, constant in constants.items()}, **reader.WEIGHTS}
    for combination in itertools.product(*grid.values()):
        setting = dict(zip(grid, combination, strict=True))
        for name, constant in constants.items():
            value = setting.get(name, defaults[name])
            setattr(reader, constant, int(value) if name == "quoted" else value)
        reader.WEIGHTS.update({k: setting.get(k, defaults[k]) for k in reader.WEIGHTS})
        answers = []
        for brief in briefs:
            reading = reply.Reading.of(brief, embedder.embed_queries, vectors)
            text = reply.synthesis(reading)
            cited = "[" in text and any(f"[{e['number']}]" in text for e in brief.evidence)
            answers.append((text, bool(brief.evidence) and not cited and not brief.tool_results))
        figures = score(questions, answers)
        results.append({"setting": setting, **figures})
        print(json.dumps(setting), "tune", figures["tune"], "check", figures["check"], flush=True)
    save_result("offline_reader_tuning", {"defaults": defaults, "results": results})


if __name__ == "__main__":
    main()
