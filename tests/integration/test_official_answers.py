"""Official answers: added, listed and removed from the command line in their own collection of the
index; searched before the knowledge base and cited as official with their date; an expired (or
not yet valid) answer is never used."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rag.embeddings
from agents.cli import main
from agents.config import AgentSettings
from agents.events import FinalAnswer, ToolReturned
from agents.official.search import OfficialFirstSearcher
from agents.official.store import OfficialAnswer, OfficialAnswers, paris_today
from agents.service import AgentService
from rag.passage import Passage
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings

QUESTION = "Can we rent a rowing boat on the Grand Canal?"
TEXT = "Rowing boats are rented at the Grand Canal from March to October, twenty euros an hour."
SOURCE = "https://www.chateauversailles.fr/official/boats"


@pytest.fixture
def index(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(rag.embeddings, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setenv("RAG_INDEX_DIR", str(index_dir))
    monkeypatch.setenv("RAG_COLLECTION", make_settings(index_dir).collection)
    return index_dir


def add(*extra: str) -> int:
    return main(["official", "add", "--text", TEXT, "--source", SOURCE, "--question", QUESTION, *extra])


def listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["official", "list"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def search_hits(index: Path, tmp_path: Path) -> tuple[list[Passage], FinalAnswer]:
    """The first search's passages and the answer, asked of the offline agent."""
    retriever = HybridRetriever(make_settings(index), embedder=HashingEmbedder())
    settings = AgentSettings(_env_file=None, provider="offline", checkpoint_path=tmp_path / "t.sqlite")
    service = AgentService(settings=settings, retriever=retriever)
    events = list(service.stream(QUESTION, "visitor"))
    service.close()
    search = next(e for e in events if isinstance(e, ToolReturned) and e.tool == "search_knowledge_base")
    final = events[-1]
    assert isinstance(final, FinalAnswer)
    return search.hits, final


def test_add_list_and_remove_with_its_chunk(index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert add("--language", "en", "--valid-from", "2026-03-01") == 0
    [answer] = listed(capsys)
    assert answer["text"] == TEXT and answer["valid_from"] == "2026-03-01" and answer["language"] == "en"
    store = OfficialAnswers.open(make_settings(index))
    assert store.collection.count() == 1

    assert main(["official", "remove", str(answer["id"])]) == 0

    assert listed(capsys) == [] and store.collection.count() == 0
    assert main(["official", "remove", str(answer["id"])]) == 2
    assert "official list" in capsys.readouterr().err


def test_an_official_answer_is_searched_first_and_cited_as_official_with_its_date(
    index: Path, tmp_path: Path
) -> None:
    start = date.today() - timedelta(days=10)
    assert add("--valid-from", start.isoformat()) == 0

    hits, final = search_hits(index, tmp_path)

    assert hits[0].collection == "official" and hits[0].source == SOURCE
    assert hits[0].title == f"Official answer, {start.isoformat()}"
    cited = [passage for citation in final.reply.citations for passage in citation.passages]
    assert any(passage.collection == "official" for passage in cited), final.answer


def _store_expired(index: Path) -> None:
    """An answer stored while valid, whose last day has since passed."""
    answer = OfficialAnswer(
        text=TEXT, source=SOURCE, question=QUESTION, valid_until=paris_today() - timedelta(days=1)
    )
    OfficialAnswers.open(make_settings(index)).add(answer, HashingEmbedder().embed_queries([QUESTION])[0])


@pytest.mark.parametrize("from_tomorrow", [False, True])  # expired yesterday; holds from tomorrow
def test_an_answer_not_valid_today_is_never_used(index: Path, tmp_path: Path, from_tomorrow: bool) -> None:
    # "tomorrow" is read when the test runs, not when it is collected: a run across Paris's midnight
    # would otherwise store an answer valid from the day it has become.
    if from_tomorrow:
        assert add("--valid-from", (paris_today() + timedelta(days=1)).isoformat()) == 0
    else:
        _store_expired(index)

    hits, final = search_hits(index, tmp_path)

    assert all(hit.collection != "official" for hit in hits)
    assert SOURCE not in final.answer and all(c.page != SOURCE for c in final.reply.citations)


def test_an_end_before_the_start_is_one_sentence(index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert add("--valid-from", "2026-05-01", "--valid-until", "2026-04-01") == 2
    assert "--valid-until is before --valid-from" in capsys.readouterr().err


@pytest.mark.slow
def test_official_answers_match_the_same_need_in_any_language_and_nothing_else(
    index: Path, local_embedder: Any
) -> None:
    """With the real multilingual embedder: the need's paraphrases in other languages match, other needs
    about the palace do not."""
    settings = make_settings(index)
    OfficialAnswers.open(settings).add(
        OfficialAnswer(text=TEXT, source=SOURCE, question=QUESTION),
        local_embedder.embed_queries([QUESTION])[0],
    )
    knowledge_base = SimpleNamespace(
        settings=settings, embedder=local_embedder, languages=["en"], search=lambda q, k: []
    )
    searcher = OfficialFirstSearcher(knowledge_base)  # type: ignore[arg-type]

    for same in (
        "Peut-on louer une barque sur le Grand Canal ?",
        "¿Se pueden alquilar barcas en el Gran Canal?",
    ):
        assert [hit.source for hit in searcher.search(same)] == [SOURCE], same
    for other in (
        "What time does the palace open?",
        "Combien coûte le billet ?",
        "Are dogs allowed in the park?",
    ):
        assert searcher.search(other) == [], other


def _searcher(index: Path, embedder: Any, today: date = date(2026, 11, 28)) -> OfficialFirstSearcher:
    settings = make_settings(index)
    knowledge_base = SimpleNamespace(
        settings=settings, embedder=embedder, languages=["en"], search=lambda q, k: []
    )
    return OfficialFirstSearcher(knowledge_base, today=lambda: today)  # type: ignore[arg-type]


@pytest.mark.slow
def test_an_answer_naming_topics_is_never_served_for_a_question_naming_none_of_them(
    index: Path, local_embedder: Any
) -> None:
    """A short answer without a question ("Yes, it is free.") is close to many questions by its
    embedding alone; it is served only to a question sharing one of its topics."""
    answer = OfficialAnswer(text="Yes, entry is free.", source=SOURCE, language="en")
    OfficialAnswers.open(make_settings(index)).add(answer, local_embedder.embed_queries([answer.text])[0])
    searcher = _searcher(index, local_embedder)

    for unrelated in (
        "Can I bring my dog?",
        "Y a-t-il des toilettes près de l'Orangerie ?",
        "Wo ist der Ausgang?",
    ):
        assert searcher.search(unrelated) == [], unrelated


def test_an_answer_is_served_when_valid_on_the_day_the_question_names(index: Path) -> None:
    """Asked on 28 November about 15 December, the closure valid on 15 December is the answer; asked
    about another day, or with no day, it is not."""
    question = "Is the palace open on 15 December?"
    answer = OfficialAnswer(
        text="The palace is closed on 15 December.", source=SOURCE, question=question,
        valid_from=date(2026, 12, 15), valid_until=date(2026, 12, 15),
    )  # fmt: skip
    OfficialAnswers.open(make_settings(index)).add(answer, HashingEmbedder().embed_queries([question])[0])
    searcher = _searcher(index, HashingEmbedder())

    assert [hit.source for hit in searcher.search(question)] == [SOURCE]
    assert searcher.search("Is the palace open on 16 December?") == []
    assert searcher.search("Is the palace open?") == []


def test_the_same_text_and_source_for_another_period_keeps_both(
    index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert add("--valid-from", "2027-03-01", "--valid-until", "2027-10-31") == 0
    assert add("--valid-from", "2028-03-01", "--valid-until", "2028-10-31") == 0
    assert add("--valid-from", "2028-03-01", "--valid-until", "2028-10-31") == 0

    assert "Replaced official answer" in capsys.readouterr().out  # the third is the second again
    periods = [(row["valid_from"], row["valid_until"]) for row in listed(capsys)]
    assert sorted(periods) == [("2027-03-01", "2027-10-31"), ("2028-03-01", "2028-10-31")]


@pytest.mark.parametrize(
    "source",
    [
        "https://",  # no host
        "https:///boats",
        "ftp://www.chateauversailles.fr/boats",
        "www.chateauversailles.fr/boats",
        "https://www.chateauversailles.fr/boats and more",
        "https://www.chateauversailles.fr/[boats](https://evil.example)",
        "https://www.chateauversailles.fr/<b>",
    ],
)
def test_a_source_that_is_not_a_plain_http_link_with_a_host_is_one_sentence(
    index: Path, capsys: pytest.CaptureFixture[str], source: str
) -> None:
    assert main(["official", "add", "--text", TEXT, "--source", source]) == 2

    err = capsys.readouterr().err
    assert "http(s) link" in err or "no spaces" in err
    assert "Traceback" not in err and err.startswith("error:")
    assert listed(capsys) == []


def test_an_answer_already_past_its_validity_is_refused(
    index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    yesterday = (paris_today() - timedelta(days=1)).isoformat()

    assert add("--valid-until", yesterday) == 2

    assert f"Its validity ended on {yesterday}" in capsys.readouterr().err
    assert listed(capsys) == []


def test_an_answer_longer_than_the_consoles_limit_is_refused(
    index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agents.official.store import MAX_ANSWER_CHARS

    long_text = "Rowing boats are rented at the Grand Canal. " * (MAX_ANSWER_CHARS // 40)

    assert main(["official", "add", "--text", long_text, "--source", SOURCE]) == 2

    assert f"at most {MAX_ANSWER_CHARS}" in capsys.readouterr().err
    assert listed(capsys) == []


def test_validity_is_the_day_in_paris_not_the_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 23:30 UTC on 31 December it is already 1 January in Paris."""
    from datetime import UTC, datetime

    from agents.official.store import paris_day

    moment = datetime(2026, 12, 31, 23, 30, tzinfo=UTC).timestamp()
    monkeypatch.setenv("TZ", "UTC")

    assert paris_day(moment) == date(2027, 1, 1)
    answer = OfficialAnswer(text=TEXT, source=SOURCE, valid_from=date(2027, 1, 1))
    assert answer.valid_on(paris_day(moment))
    assert OfficialFirstSearcher.__init__.__defaults__[-1] is paris_today  # type: ignore[index]
