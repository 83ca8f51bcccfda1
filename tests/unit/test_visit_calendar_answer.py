"""The offline answer to a day question: the calendar's line, without knowledge-base quotes beside it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import SystemMessage

from agents.graph.gathered import Gathered, gathered_message
from agents.offline import OfflineChatModel
from rag.passage import Passage

QUESTION = "Peut-on visiter le château le lundi 30 novembre ?"
LINE = "lundi 30 novembre 2026 — le Château : fermé (fermé tous les lundis).\nSource : opening-hours.en.md"
HOURS = Passage(number=1, chunk_id="c1", title="Horaires", source="opening-hours.fr.md",
                text="Château : de 9 h à 17 h 30.", score=1.0)  # fmt: skip


def answer(question: str, day: dict[str, Any]) -> str:
    day = {"line": LINE.splitlines()[0], "place": "palace", **day}
    result = {"tool": "get_visit_calendar", "status": "ok", "summary": LINE, "result": {"days": [day]}}
    # the knowledge base was searched besides the calendar
    gathered = Gathered(
        question=question, language="fr", queries=[question], evidence=[HOURS], tool_results=[result]
    )
    return OfflineChatModel().invoke([SystemMessage("prompt"), gathered_message(gathered)]).text


def test_a_day_the_calendar_settles_is_answered_by_its_line_alone() -> None:
    text = answer(QUESTION, {"open": "closed", "free": None})
    assert "fermé (fermé tous les lundis)" in text
    assert "9 h à 17 h 30" not in text  # no opening hours quoted beside "closed"
    assert "site officiel" not in text  # nor a part said unanswered


def test_a_day_the_calendar_cannot_settle_is_left_to_the_knowledge_base() -> None:
    text = answer(QUESTION, {"open": "unknown", "free": None})
    assert "9 h à 17 h 30" in text or f"ne répond pas à : {QUESTION.removesuffix(' ?')}" in text


def test_a_part_the_calendar_does_not_answer_is_still_read_from_the_knowledge_base() -> None:
    text = answer(f"{QUESTION} Peut-on venir avec une poussette ?", {"open": "closed"})
    assert "fermé (fermé tous les lundis)" in text and "poussette" in text


def test_a_question_of_one_part_the_facts_answer_is_not_said_unanswered() -> None:
    """No opening word the glossary knows ("voir"), so the part is still read from the knowledge
    base; the facts asked for it answer it, and no line says the knowledge base does not."""
    text = answer(
        "Pourra-t-on voir la galerie des Glaces lundi 30 novembre ?", {"open": "closed", "free": None}
    )
    assert "fermé (fermé tous les lundis)" in text
    assert "site officiel" not in text and "ne répond pas" not in text


def _first_lines(question: str, aspects: list[str]) -> list[str]:
    """The first two lines of the offline answer to ``question`` when the visit facts give the
    palace's high-season hours and its weekly closing on no day, asked ``aspects``."""
    facts = [
        {"text": "Le Château, haute saison : 09:00–18:30.", "answers": "hours", "cites": []},
        {"text": "Le Château : fermeture le lundi.", "answers": "closed", "cites": []},
    ]
    result = {
        "tool": "get_visit_calendar",
        "status": "ok",
        "summary": "\n".join(f["text"] for f in facts),
        "result": {"facts": facts, "aspects": aspects},
    }
    gathered = Gathered(question=question, language="fr", queries=[], tool_results=[result])
    text = OfflineChatModel().invoke([SystemMessage("prompt"), gathered_message(gathered)]).text
    return [line.strip() for line in text.splitlines()[:2]]


def test_only_the_facts_answering_what_was_asked_are_in_bold() -> None:
    """Hours asked on no day: the hours head the answer in bold; the weekly closing shown beside
    them is stated plainly, cited too. Asked whether it closes, the closing is the headline."""
    assert _first_lines("Horaires du château ?", ["hours"]) == [
        "**Le Château, haute saison : 09:00–18:30.**",
        "Le Château : fermeture le lundi.",
    ]
    assert _first_lines("Horaires du château ?", ["closed"]) == [
        "**Le Château : fermeture le lundi.**",
        "Le Château, haute saison : 09:00–18:30.",
    ]


def test_the_line_naming_the_weekday_asked_heads_the_answer() -> None:
    """Hours asked "on Mondays": the weekly closing naming Monday answers it, in bold and first; the
    season's hours, which do not hold that day, follow plainly. Asked on another weekday, the hours
    head the answer."""

    def lines(question: str) -> list[str]:
        return _first_lines(question, ["hours"])

    assert lines("Le château ouvre à quelle heure les lundis ?") == [
        "**Le Château : fermeture le lundi.**",
        "Le Château, haute saison : 09:00–18:30.",
    ]
    assert (
        lines("Le château ouvre à quelle heure les jeudis ?")[0]
        == "**Le Château, haute saison : 09:00–18:30.**"
    )
