"""Freshness on citations (AppTest): under a web source, when the crawler last checked the page, in
the visitor's language; a page never crawled shows no date."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag.crawl.state import CrawlState, PageRecord, state_path
from rag.indexer import index_corpus
from tests.app.conftest import start_app
from tests.conftest import HashingEmbedder, make_settings

HOURS = "https://www.chateauversailles.fr/planifier/horaires"
PAGES = [
    {
        "url": HOURS,
        "title": "Horaires",
        "text": "Le château ouvre à neuf heures et ferme à dix-huit heures trente. Il est fermé le lundi.",
    },
    {
        "url": "https://www.chateauversailles.fr/planifier/billets",
        "title": "Billets",
        "text": "Le billet Passeport coûte trente-deux euros. Le château ouvre à neuf heures.",
    },
]
CHECKED = datetime(2026, 11, 20, 8, 30, tzinfo=UTC).timestamp()


@pytest.fixture
def crawled(app_env: Path, tmp_path: Path) -> Path:
    """Two web pages indexed; the crawl state knows when the first was last fetched, not the second."""
    corpus = tmp_path / "site"
    corpus.mkdir()
    (corpus / "site.jsonl").write_text("\n".join(json.dumps(page) for page in PAGES), encoding="utf-8")
    settings = make_settings(app_env)
    index_corpus([corpus], settings, embedder=HashingEmbedder())
    with CrawlState(state_path(app_env, "embedded", settings.collection)) as state:
        state.save(PageRecord(url=HOURS, live=True, fetched_at=CHECKED))
    return app_env


def _source_captions(at: AppTest) -> dict[str, list[str]]:
    assistant = [message for message in at.chat_message if message.name == "assistant"][-1]
    return {e.label.replace("\\", ""): [c.value for c in e.caption] for e in assistant.expander}


def test_a_web_source_says_when_it_was_last_checked_in_the_visitors_language(crawled: Path) -> None:
    at = start_app()
    at.chat_input[0].set_value("À quelle heure ouvre le château ?").run()
    assert not at.exception, at.exception

    captions = _source_captions(at)
    [hours] = [shown for label, shown in captions.items() if "Horaires" in label]
    assert any(caption.endswith("Vérifiée le 20 novembre 2026") for caption in hours), hours
    others = [shown for label, shown in captions.items() if "Billets" in label]
    assert all(not any("Vérifiée" in caption for caption in shown) for shown in others)  # never crawled


def test_an_official_answer_is_cited_as_official_with_its_date_in_the_visitors_language(
    crawled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rag.embeddings
    from agents.cli import main

    monkeypatch.setattr(rag.embeddings, "build_embedder", lambda settings: HashingEmbedder())
    question = "Peut-on louer une barque sur le Grand Canal ?"
    assert (
        main(
            [
                "official",
                "add",
                "--question",
                question,
                "--language",
                "fr",
                "--valid-from",
                "2026-03-01",
                "--text",
                "Les barques se louent au Grand Canal de mars à octobre.",
                "--source",
                "https://www.chateauversailles.fr/officiel/barques",
            ]
        )
        == 0
    )
    at = start_app()
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception

    labels = list(_source_captions(at))
    assert any("Réponse officielle, 1 mars 2026" in label for label in labels), labels
