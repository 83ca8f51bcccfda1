"""Questions grouped by meaning across languages with the real multilingual embedder: paraphrases in
several languages fall in one group, different needs do not; each question is embedded once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.config import AgentSettings
from agents.insights.report import build_insights, group_turns
from agents.insights.store import LoggedQuestion, QuestionLog

pytestmark = pytest.mark.slow

# Needs of the second (held-out) half of the reference set are not used here: these are new wordings.
NEEDS = {
    "dogs": [
        ("en", "Are dogs allowed in the park?"),
        ("es", "¿Puedo entrar al parque con mi perro?"),
        ("ja", "犬を連れて庭園に入れますか？"),
        ("de", "Darf ich mit meinem Hund in die Gärten?"),
    ],
    "boat": [
        ("fr", "Où louer une barque sur le Grand Canal ?"),
        ("it", "Dove si noleggia una barca sul Grand Canal?"),
        ("en", "Where can we hire a rowing boat on the Grand Canal?"),
    ],
    "ticket price": [
        ("en", "What does a ticket to the palace cost?"),
        ("zh", "参观凡尔赛宫的门票价格是多少？"),
        ("pt", "Quanto custa entrar no palácio?"),
    ],
    "fountains": [
        ("fr", "À quelles dates sont les Grandes Eaux musicales ?"),
        ("en", "On which days do the fountains play with music?"),
        ("es", "¿Qué días funcionan las fuentes con música?"),
    ],
}


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.texts = inner, inner.name, 0

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        return np.asarray(self.inner.embed_queries(texts))


def logged(tmp_path: Path) -> QuestionLog:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_path=tmp_path / "c.sqlite"))
    log.record_many(
        [
            LoggedQuestion(question=text, language=lang, kind="not_found", thread_id=need)
            for need, questions in NEEDS.items()
            for lang, text in questions
        ]
    )
    return log


def test_paraphrases_in_several_languages_group_and_different_needs_do_not(
    tmp_path: Path, local_embedder: Any
) -> None:
    log = logged(tmp_path)

    groups = group_turns(log, local_embedder, log.questions())

    need_of = {text: need for need, questions in NEEDS.items() for _, text in questions}
    needs_in = [{need_of[q] for qs in group.examples.values() for q in qs} for group in groups]
    assert all(len(needs) == 1 for needs in needs_in), [g.examples for g in groups]  # never two needs
    assert sorted(need for needs in needs_in for need in needs) == sorted(NEEDS)  # each need: one group
    dogs = next(group for group, needs in zip(groups, needs_in, strict=True) if needs == {"dogs"})
    assert set(dogs.languages) == {"en", "es", "ja", "de"} and dogs.size == 4


def test_each_question_is_embedded_once(tmp_path: Path, local_embedder: Any) -> None:
    log = logged(tmp_path)
    embedder = CountingEmbedder(local_embedder)

    first = build_insights(log, embedder, days=7)  # type: ignore[arg-type]
    embedded = embedder.texts
    log.record(LoggedQuestion(question="Are dogs allowed in the park?", language="en", kind="answered"))
    second = build_insights(log, embedder, days=7)  # type: ignore[arg-type]

    assert embedded >= sum(len(questions) for questions in NEEDS.values())
    assert embedder.texts == embedded  # a repeated question and every cached one: nothing new embedded
    assert second.questions == first.questions + 1
