"""The offline model's answerability: answer, or say plainly that the knowledge base does not.

Hand-made passages; the reader runs without an embedder (its closeness then counts as typical).
"""

from __future__ import annotations

import tomllib

import pytest
from langchain_core.messages import AIMessage, AIMessageChunk, SystemMessage

from agents.graph.gathered import Gathered, gathered_message
from agents.offline import OfflineChatModel
from agents.offline.answerability import Signals
from agents.offline.reader import ANSWERABLE_FROM
from rag.lexicon.phrases import PHRASES_FILE
from rag.passage import Passage

NEARBY = [
    "Des toilettes sont disponibles à l'entrée A du château.",
    "Les orangers sont rentrés dans l'Orangerie chaque automne.",
]
HOURS = "Le château est ouvert de 9h à 18h30 du mardi au dimanche."


def _reply(question: str, texts: list[str], language: str = "fr") -> AIMessage:
    evidence = [
        Passage(
            number=n, chunk_id=f"c{n}", title="Infos", source=f"https://example.org/{n}", text=text, score=1.0
        )
        for n, text in enumerate(texts, start=1)
    ]
    gathered = Gathered(question=question, language=language, evidence=evidence)
    reply = OfflineChatModel().invoke([SystemMessage("prompt"), gathered_message(gathered)])
    assert isinstance(reply, AIMessage)
    return reply


def _replies(language: str) -> dict[str, str]:
    with PHRASES_FILE.open("rb") as file:
        return dict(tomllib.load(file)["replies"][language])


def test_more_signals_met_make_a_part_more_likely_answerable() -> None:
    weak = Signals(closeness=0.3, topics=0.0, words=0.0, score=0.5)
    strong = Signals(closeness=0.8, topics=1.0, words=1.0, score=1.3)

    assert weak.probability() < ANSWERABLE_FROM < strong.probability()


def test_a_question_the_evidence_does_not_cover_is_declined() -> None:
    reply = _reply("Y a-t-il une pharmacie près du château ?", NEARBY)

    assert reply.response_metadata["answer_kind"] == "not_found"


def test_a_declined_answer_offers_the_closest_passages_as_related_not_as_the_answer() -> None:
    reply = _reply("Y a-t-il une pharmacie près du château ?", NEARBY)

    words = _replies("fr")
    assert reply.text.startswith(words["abstain"].split("{")[0])
    assert words["related"].split("{")[0] in reply.text and "**" not in reply.text
    assert reply.response_metadata["related"] == [1, 2]


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Y a-t-il une pharmacie près du château ?", "fr"),
        ("Is there a pharmacy near the palace?", "en"),
        ("¿Hay una farmacia cerca del palacio?", "es"),
        ("Gibt es eine Apotheke in der Nähe des Schlosses?", "de"),
        ("C'è una farmacia vicino alla reggia?", "it"),
        ("Há uma farmácia perto do palácio?", "pt"),
        ("Is er een apotheek in de buurt van het paleis?", "nl"),
        ("宮殿の近くに薬局はありますか？", "ja"),
        ("宫殿附近有药店吗？", "zh"),
    ],
)
def test_the_knowledge_base_not_saying_is_said_plainly_in_the_visitors_language(
    question: str, language: str
) -> None:
    reply = _reply(question, [], language)  # the search found nothing

    assert reply.response_metadata["answer_kind"] == "not_found"
    assert reply.text.startswith(_replies(language)["abstain"].split("{")[0])


def test_an_answered_question_says_answered_and_offers_nothing_as_related() -> None:
    reply = _reply("Quels sont les horaires d'ouverture du château ?", [HOURS])

    assert reply.response_metadata == {"answer_kind": "answered", "related": []}


def test_a_question_with_one_part_answered_is_partial() -> None:
    reply = _reply(
        "Quels sont les horaires d'ouverture du château ? Y a-t-il une pharmacie près du château ?", [HOURS]
    )

    assert reply.response_metadata["answer_kind"] == "partial"


def test_the_answer_kind_rides_on_the_streamed_reply_too() -> None:
    gathered = Gathered(
        question="Y a-t-il une pharmacie près du château ?",
        language="fr",
        evidence=[Passage(number=1, chunk_id="c1", title="Infos", source="s", text=NEARBY[0], score=1.0)],
    )
    chunks = list(OfflineChatModel().stream([SystemMessage("prompt"), gathered_message(gathered)]))

    whole = sum(chunks[1:], chunks[0])
    assert isinstance(whole, AIMessageChunk) and whole.response_metadata["answer_kind"] == "not_found"


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("宮殿の近くに薬局はありますか？", "ja"),
        ("城堡附近有超市吗？", "zh"),
        ("Gibt es einen Waschsalon in der Nähe des Schlosses?", "de"),
        ("Onde posso trocar dinheiro perto do palácio?", "pt"),
    ],
)
def test_a_service_the_evidence_never_names_is_declined_in_every_script(question: str, language: str) -> None:
    """The glossary names the service, so its need is not met: a Chinese or Japanese part, whose
    other words are not read, is no longer taken as fully met."""
    assert _reply(question, NEARBY, language).response_metadata["answer_kind"] == "not_found"


@pytest.mark.parametrize(("question", "language"), [("トイレはどこですか？", "ja"), ("厕所在哪里？", "zh")])
def test_a_service_the_evidence_names_is_answered_in_chinese_and_japanese(
    question: str, language: str
) -> None:
    assert _reply(question, NEARBY, language).response_metadata["answer_kind"] == "answered"
