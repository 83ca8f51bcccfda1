"""Tune the offline reader on one half of the development questions, check it on the other.

Usage: python -m benchmarks.offline_reader_tuning [--index DIR] [--questions FILE ...]
       [--set name=v1,v2 ...] [--fit]

The agent runs once per question (offline model, offline tools) and its final evidence is kept;
the reader then re-reads that evidence under every combination of the values given (names:
``threshold`` (a sentence's score to be quoted), ``answerable`` (the answerability a part needs),
``quoted`` (sentences per part), ``close`` (share of the best score), ``translated`` (sentences
whose words translate the question's), ``embedded`` (sentences embedded per part), or a weight
``dense``, ``needs``, ``type``, ``retrieval``) and each setting is scored on both halves: facts in
the answer (fact and multi questions), out-of-scope questions declined, in-scope fact questions
declined and headline precision, with the answers' mean length (more text finds more). Keep a
setting only when the "check" half does not get worse.

``--fit`` fits the answerability model (agents/offline/answerability.py) instead: a logistic model
of its signals, on the tune half's parts (parts of in-scope questions against parts of
out-of-scope ones, classes weighted equally), then prints, per threshold, out-of-scope and in-scope
fact questions declined on both halves (the reader's own decision, made with the fitted model). The
threshold kept is the highest that declines at most one in ten in-scope fact questions of the
tune half. Questions: the shared development set and data/eval/scope.jsonl by default. Evidence
gathered with other settings is the same up to follow-up searches, which the final agent benchmark
(benchmarks/agent_quality.py) measures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agents.answer.language import reply_language
from agents.evaluation.evaluate import headline_lines, headline_right
from agents.graph.gathered import Gathered
from agents.offline import answerability, reader, reply
from agents.offline.answerability import WEIGHTS, signals
from agents.service import AgentService
from benchmarks._common import BENCH_INDEX, EVAL_SETS, QUESTIONS, half_of, offline_service, save_result
from rag.embeddings import PassageVectorCache
from rag.evaluate import found_aspects, read_jsonl

INTEGERS = {"quoted", "translated", "embedded"}


def gather(service: AgentService, questions: list[dict[str, Any]]) -> list[Gathered]:
    """What the synthesis of every question was given, as the graph left it."""
    contexts = []
    for question in questions:
        thread = f"tune-{question['id']}"
        service.ask(question["question"], thread)
        contexts.append(Gathered.of(service.graph.get_state({"configurable": {"thread_id": thread}}).values))
    return contexts


def cached_contexts(
    path: Path | None, questions: list[dict[str, Any]], service: AgentService
) -> list[Gathered]:
    """The contexts kept in ``path`` when they are for these questions, else gathered (and kept)."""
    ids = [q["id"] for q in questions]
    if path and path.exists():
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept["ids"] == ids:
            return [Gathered.model_validate(c) for c in kept["gathered"]]
    contexts = gather(service, questions)
    if path:
        payload = {"ids": ids, "gathered": [c.model_dump(mode="json") for c in contexts]}
        path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return contexts


def score(questions: list[dict[str, Any]], answers: Sequence[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Facts, out-of-scope and in-scope fact questions declined, headline precision, per half."""
    out: dict[str, dict[str, Any]] = {}
    for half in ("tune", "check"):
        rows = [(q, a) for q, a in zip(questions, answers, strict=True) if half_of(q["id"]) == half]
        facts = [
            all(found_aspects(q["answers"], [t])) for q, (t, _) in rows if q["type"] in {"fact", "multi"}
        ]
        heads = [
            headline_right(lines, q.get("answers") or [], q["lang"])
            for q, (text, _) in rows
            if (lines := headline_lines(text))
        ]
        out[half] = {
            "facts": _share(facts),
            "declined_out_of_scope": _share(
                [k == "not_found" for q, (_, k) in rows if q["type"] == "out_of_scope"]
            ),
            "declined_facts": _share([k == "not_found" for q, (_, k) in rows if q["type"] == "fact"]),
            "headline_precision": _share(heads),
            "headlines": len(heads),
            "chars": round(sum(len(t) for _, (t, _) in rows) / max(len(rows), 1)),  # more text finds more
        }
    return out


def _share(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def fit(questions: list[dict[str, Any]], readings: list[reply.Reading]) -> dict[str, Any]:
    """The answerability model fitted on the tune half, and its thresholds on both halves."""
    rows = []  # (half, question, signals or None) per part
    for question, reading in zip(questions, readings, strict=True):
        language = reply_language(reading.gathered.question, reading.gathered.language)
        for part in reading.parts:
            rows.append((half_of(question["id"]), question, signals(part, reading.pool, language)))
    names = list(WEIGHTS)
    tune = [(list(asdict(f).values()), q["type"] != "out_of_scope") for h, q, f in rows if h == "tune" and f]
    x, y = np.array([v for v, _ in tune]), np.array([float(a) for _, a in tune])
    mean, spread = x.mean(0), x.std(0) + 1e-9
    w = np.zeros(len(names) + 1)
    balance = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    design = np.hstack([(x - mean) / spread, np.ones((len(x), 1))])
    for _ in range(20_000):  # gradient descent on the weighted log-loss, a little L2
        predicted = 1 / (1 + np.exp(-design @ w))
        w -= 0.5 * (design.T @ (balance * (predicted - y)) / len(y) + 0.01 * np.r_[w[:-1], 0])
    weights = dict(zip(names, (w[:-1] / spread).round(3).tolist(), strict=True))
    bias = round(float(w[-1] - np.sum(w[:-1] * mean / spread)), 3)
    answerability.WEIGHTS.update(weights)  # the reader's decision, re-made with the fitted model
    answerability.BIAS = bias
    for reading in readings:
        language = reply_language(reading.gathered.question, reading.gathered.language)
        for part in reading.parts:
            part.answerable = answerability.answerability(part, reading.pool, language)
    table, previous = {}, reader.ANSWERABLE_FROM
    for threshold in [round(float(t), 3) for t in np.arange(0.2, 0.8, 0.025)]:
        reader.ANSWERABLE_FROM = threshold
        kinds = {q["id"]: reply.answer_kind(r) for q, r in zip(questions, readings, strict=True)}
        table[threshold] = {
            half: {
                kind: _share(
                    [
                        kinds[q["id"]] == "not_found"
                        for q in questions
                        if half_of(q["id"]) == half and q["type"] == kind
                    ]
                )
                for kind in ("out_of_scope", "fact")
            }
            for half in ("tune", "check")
        }
    reader.ANSWERABLE_FROM = previous
    kept = max((t for t, f in table.items() if (f["tune"]["fact"] or 0) <= 0.1), default=None)
    return {"weights": weights, "bias": bias, "declined": table, "threshold": kept}


def main() -> None:
    os.environ.setdefault("TOOLS_OFFLINE", "true")
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=BENCH_INDEX)
    parser.add_argument("--questions", type=Path, action="append", help="default: dev set and scope set")
    parser.add_argument("--set", action="append", default=[], help="name=v1,v2 (threshold or a weight)")
    parser.add_argument("--fit", action="store_true", help="fit the answerability model")
    parser.add_argument("--gathered", type=Path, help="a file keeping what each synthesis was given")
    args = parser.parse_args()
    grid = {name: [float(v) for v in values.split(",")] for name, values in (s.split("=") for s in args.set)}
    questions = [
        q for path in args.questions or [QUESTIONS, EVAL_SETS / "scope.jsonl"] for q in read_jsonl(path)
    ]
    with tempfile.TemporaryDirectory() as folder:
        service = offline_service(args.index, Path(folder))
        contexts = cached_contexts(args.gathered, questions, service)
    embedder, kb_language = service.retriever.embedder, (service.retriever.languages or ["fr"])[0]
    vectors = PassageVectorCache(embedder.embed_documents)

    def read(gathered: Gathered) -> reply.Reading:
        """``gathered`` read as the offline model's synthesis reads it."""
        searched = bool(gathered.queries)
        return reply.Reading.of(gathered, kb_language, embedder.embed_queries, vectors, searched)

    if args.fit:
        fitted = fit(questions, [read(gathered) for gathered in contexts])
        print("weights", fitted["weights"], "bias", fitted["bias"])
        for threshold, figures in fitted["declined"].items():
            print(f"threshold {threshold}: declined out of scope / in-scope facts", figures)
        print("kept", fitted["threshold"])
        save_result("answerability_fit", fitted)
        return
    results = []
    constants = {
        "threshold": "ANSWER_THRESHOLD", "answerable": "ANSWERABLE_FROM", "quoted": "QUOTED_PER_PART",
        "close": "CLOSE_TO_BEST", "translated": "TRANSLATED_FROM_BEST", "embedded": "EMBEDDED_PER_PART",
    }  # fmt: skip
    defaults = {**{name: getattr(reader, constant) for name, constant in constants.items()}, **reader.WEIGHTS}
    for combination in itertools.product(*grid.values()):
        setting = dict(zip(grid, combination, strict=True))
        for name, constant in constants.items():
            value = setting.get(name, defaults[name])
            setattr(reader, constant, int(value) if name in INTEGERS else value)
        reader.WEIGHTS.update({k: setting.get(k, defaults[k]) for k in reader.WEIGHTS})
        answers = []
        for gathered in contexts:
            reading = read(gathered)
            answers.append((reply.synthesis(reading), reply.answer_kind(reading)))
        figures = score(questions, answers)
        results.append({"setting": setting, **figures})
        print(json.dumps(setting), "tune", figures["tune"], "check", figures["check"], flush=True)
    save_result("offline_reader_tuning", {"defaults": defaults, "results": results})


if __name__ == "__main__":
    main()
