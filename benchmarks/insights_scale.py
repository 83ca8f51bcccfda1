"""Insights over a generated log of 100,000 questions: ``python -m benchmarks.insights_scale``.

Writes the log into a temporary SQLite file (the default store), then times ``build_insights`` twice
with the default embedder (multilingual-e5-small): the first run embeds each distinct question once
and caches it; the second finds every embedding cached (the figure the 5 s target is about). Closest
pages are left out (a search per gap is the index's own latency). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from agents.config import AgentSettings
from agents.insights.grouping import reference_needs
from agents.insights.report import build_insights
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog
from rag.config import RagSettings
from rag.embeddings import build_embedder

# Wordings beyond the reference ones: what visitors add around the same need.
TAILS = [
    "",
    " please",
    " today",
    " tomorrow",
    " this weekend",
    " in December",
    " with children",
    " in summer",
]
LANGUAGE_OF = {"en": "en", "fr": "fr", "es": "es", "de": "de", "it": "it", "pt": "pt", "nl": "nl"}


def generated_log(rows: int, seed: int = 23) -> list[LoggedQuestion]:
    """``rows`` turns over the last 90 days: each need's wordings with tails, kinds and feedback mixed."""
    rng = random.Random(seed)
    wordings = [
        (question + tail, need["need"])
        for need in reference_needs()
        for question in need["questions"]
        for tail in TAILS
    ]
    now = time.time()
    kinds = ["answered"] * 7 + ["partial"] * 2 + ["not_found"]
    turns = []
    for number in range(rows):
        question, need = rng.choice(wordings)
        kind = rng.choice(kinds)
        turns.append(
            LoggedQuestion(
                id=f"bench-{number}",
                question=question,
                language=rng.choice(list(LANGUAGE_OF)),
                kind=kind,
                thread_id=f"web-{number // 3}",
                missing=[f"{need}: details"] if kind != "answered" else [],
                sources=[
                    {"title": need, "url": f"https://www.chateauversailles.fr/{need.replace(' ', '-')}"}
                ],
                model="offline-extractive",
                latency_ms=rng.uniform(300, 3000),
                asked_at=now - rng.uniform(0, 89) * DAY_SECONDS,
                feedback=rng.choice([None] * 8 + ["helpful", "not_helpful"]),  # type: ignore[arg-type]
            )
        )
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = QuestionLog.for_settings(
            AgentSettings(_env_file=None, checkpoint_path=Path(folder) / "c.sqlite")
        )
        started = time.perf_counter()
        turns = generated_log(args.rows)
        log.record_many(turns)
        written = time.perf_counter() - started
        embedder = build_embedder(RagSettings(_env_file=None))
        embedder.embed_queries(["warm-up"])  # the model's load is not the insights' cost
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            report = build_insights(log, embedder, days=90)
            timings.append(time.perf_counter() - started)
        print(
            json.dumps(
                {
                    "rows": report.questions,
                    "distinct_questions": len({turn.question for turn in turns}),
                    "groups": len(report.groups),
                    "gaps": len(report.gaps),
                    "write_log_s": round(written, 2),
                    "first_run_s_embedding_new_questions": round(timings[0], 2),
                    "cached_run_s": round(timings[1], 2),
                    "embedder": embedder.name,
                }
            )
        )


if __name__ == "__main__":
    main()
