"""Value check speed: an 800-character answer checked against 8 passages of 1,000 characters.

Passages are cut from the shared corpus at run time; each answer quotes value-bearing sentences of
its passages with their [n], under a "**Label**: value [n]" line, one value altered so that a
sentence is removed, as an LLM answer would read. "cold": the passages are new to the check (their
values are read); "warm": the same passages were checked before (cached), as for a rewrite. Wall
time and, in brackets, this process's CPU time (what the check costs on a machine it has to itself).

Usage: python -m benchmarks.value_check_speed [--answers 300]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time

from sentencex import segment

from agents.answer.value_check import check_values
from agents.answer.value_extract import extract_values, text_readings
from benchmarks._common import CORPUS, save_result
from benchmarks.search_latency import percentile

PASSAGE_CHARS = 1000
ANSWER_CHARS = 800
PASSAGES_PER_ANSWER = 8


def corpus_passages() -> list[str]:
    """The shared corpus cut into passages of about 1,000 characters, at spaces."""
    texts = [json.loads(line)["text"] for line in (CORPUS / "pages.jsonl").read_text("utf-8").splitlines()]
    texts += [path.read_text("utf-8") for path in sorted((CORPUS / "guides").rglob("*.md"))]
    passages = []
    for text in texts:
        piece: list[str] = []
        for word in text.split(" "):
            piece.append(word)
            if sum(map(len, piece)) + len(piece) >= PASSAGE_CHARS:
                passages.append(" ".join(piece))
                piece = []
    return [p for p in passages if len(p) >= PASSAGE_CHARS * 0.8 and re.search(r"\d", p)]


def answer_for(passages: dict[int, str], rng: random.Random) -> str:
    """An answer of about 800 characters quoting the passages' value sentences, one value altered."""
    quotes = [
        (number, sentence.strip())
        for number, passage in passages.items()
        for sentence in segment("fr", passage)
        if 20 < len(sentence.strip()) < 240 and extract_values(sentence)
    ]
    rng.shuffle(quotes)
    lines = []
    if quotes and (values := extract_values(quotes[0][1])):
        lines.append(f"**{values[0].kind.title()}**: {values[0].text} [{quotes[0][0]}]")
    for number, sentence in quotes:
        if sum(map(len, lines)) >= ANSWER_CHARS:
            break
        lines.append(f"- “{sentence}” [{number}]")
    if len(lines) > 1:  # one invented value
        quote = lines[-1].rsplit(" [", 1)[0]
        altered = re.sub(r"\d+", lambda digits: str(int(digits.group()) + 7), quote, count=1)
        lines[-1] = f"{altered} [{rng.choice(list(passages))}]"
    return "Voici ce que disent les sources :\n\n" + "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--answers", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(21)
    pool = corpus_passages()
    cases = []
    for _ in range(args.answers):
        chosen = rng.sample(pool, PASSAGES_PER_ANSWER)
        passages = {number: text for number, text in enumerate(chosen, start=1)}
        cases.append((answer_for(passages, rng), passages))
    check_values(*cases[0], language="fr")  # compiled patterns and Babel's month names
    timings: dict[str, list[float]] = {name: [] for name in ("cold", "warm", "cold_cpu", "warm_cpu")}
    removed = 0
    for answer, passages in cases:
        text_readings.cache_clear()
        for case in ("cold", "warm"):
            wall, cpu = time.perf_counter(), time.process_time()
            result = check_values(answer, passages, language="fr")
            timings[case].append((time.perf_counter() - wall) * 1000)
            timings[f"{case}_cpu"].append((time.process_time() - cpu) * 1000)
        removed += len(result.removed)
    figures: dict[str, float] = {
        "answers": len(cases),
        "answer_chars_mean": round(statistics.mean(len(answer) for answer, _ in cases)),
        "passages_per_answer": PASSAGES_PER_ANSWER,
        "removed_sentences": removed,
    }
    for name, values in timings.items():
        figures[f"{name}_p50_ms"] = round(percentile(values, 0.50), 2)
        figures[f"{name}_p95_ms"] = round(percentile(values, 0.95), 2)
    print(
        f"{len(cases)} answers (~{figures['answer_chars_mean']} chars, {PASSAGES_PER_ANSWER} passages of "
        f"~{PASSAGE_CHARS} chars, {removed} sentences removed), wall (CPU) ms:"
    )
    for case in ("cold", "warm"):
        print(
            f"  {case}: p50 {figures[f'{case}_p50_ms']} ({figures[f'{case}_cpu_p50_ms']}), "
            f"p95 {figures[f'{case}_p95_ms']} ({figures[f'{case}_cpu_p95_ms']})"
        )
    save_result("value_check_speed", figures)


if __name__ == "__main__":
    main()
