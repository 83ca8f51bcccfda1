"""What one hostile input costs now, for the red-team cases that named a figure (issue 11).

- a 50 MB JSON Lines record: chunks planned and the time to plan them (it was 87,265 chunks,
  about two hours of embedding), and what the run would embed;
- a 4,000-character question of 205 parts to the offline agent over the bundled corpus: searches
  run, answer size and time (it was 205 searches and a 44 KB answer).

Run: ``python -m benchmarks.abuse_costs``.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import save_result
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.indexer import index_corpus, plan_chunks
from rag.store import E5_PASSAGES_PER_SECOND


def huge_record(folder: Path) -> dict[str, Any]:
    """Plan the chunks of one 50 MB record with the default caps."""
    paragraph = "La galerie des Glaces compte dix-sept arcades qui font face aux jardins. " * 12
    count = 50 * 1024 * 1024 // (len(paragraph) + 20)
    text = "\n\n".join(f"Salle {n}. {paragraph}" for n in range(count))  # no two paragraphs alike
    corpus = folder / "huge"
    corpus.mkdir()
    (corpus / "pages.jsonl").write_text(json.dumps({"url": "https://example.org/huge", "text": text}) + "\n")
    settings = RagSettings(_env_file=None, index_dir=folder / "index")
    started = time.perf_counter()
    plan = plan_chunks([corpus], settings)
    return {
        "record_mb": round(len(text) / 1024 / 1024, 1),
        "chunks_planned": len(plan.chunks),
        "plan_seconds": round(time.perf_counter() - started, 1),
        "embedding_minutes_at_e5_pace": round(len(plan.chunks) / E5_PASSAGES_PER_SECOND / 60, 1),
        "reported": [str(cut) for cut in plan.cut],
    }


def many_parts(folder: Path) -> dict[str, Any]:
    """The offline agent answering a 205-part question over the bundled corpus."""
    from agents.config import AgentSettings
    from agents.events import FinalAnswer
    from agents.service import AgentService

    settings = RagSettings(_env_file=None, index_dir=folder / "bundled")
    index_corpus([DEFAULT_CORPUS], settings)
    topics = ["prix", "horaires", "train", "jardins", "parking"]
    question = " ; ".join(f"{topics[n % len(topics)]} {n}" for n in range(205))  # 205 parts
    service = AgentService(
        settings=AgentSettings(_env_file=None, provider="offline", checkpoint_path=folder / "threads.sqlite"),
        rag_settings=settings,
    )
    started = time.perf_counter()
    final = service.ask(question, thread_id="abuse")
    seconds = time.perf_counter() - started
    assert isinstance(final, FinalAnswer), final
    searches = final.tools.count("search_knowledge_base")
    return {
        "question_chars": len(question),
        "question_parts": question.count(";") + 1,
        "searches": searches,
        "answer_kb": round(len(final.answer.encode()) / 1024, 1),
        "seconds": round(seconds, 1),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        record = huge_record(Path(folder))
        question = many_parts(Path(folder))
    print("One 50 MB record (was: 87,265 chunks planned, about two hours of embedding):")
    print(
        f"  {record['record_mb']} MB -> {record['chunks_planned']} chunks planned "
        f"in {record['plan_seconds']} s "
        f"(about {record['embedding_minutes_at_e5_pace']} min with e5); reported: {record['reported'][0]}"
    )
    print("A 4,000-character question of 205 parts, offline agent (was: 205 searches, a 44 KB answer):")
    print(
        f"  {question['question_chars']} characters, {question['question_parts']} parts -> "
        f"{question['searches']} searches, a {question['answer_kb']} KB answer in {question['seconds']} s"
    )
    save_result("abuse_costs", {"huge_record": record, "many_parts": question})


if __name__ == "__main__":
    main()
