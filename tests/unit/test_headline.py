"""The offline answer's headline: the asked value for the asked subject, qualified in the visitor's words.

Hand-made passages; the reader runs without an embedder (tests/integration has it).
"""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from agents.answer.visitor_terms import concept_name, roles, unambiguous_in
from agents.brief import Brief, briefed_system
from agents.offline import OfflineChatModel
from agents.reading.question_parts import concepts_and_words
from rag.passage import Passage
from rag.query_expansion import load_glossary

TICKETS = [
    "Les billets des visites guidées sont à 10 €.",
    "Le billet Château est vendu 21 € en tarif plein et 13 € en tarif réduit.",
]


def _answer(question: str, texts: list[str], language: str) -> str:
    evidence = [
        Passage(
            number=n, chunk_id=f"c{n}", title="Infos", source=f"https://example.org/{n}", text=text, score=1.0
        )
        for n, text in enumerate(texts, start=1)
    ]
    brief = Brief(node="synthesize", question=question, language=language, evidence=evidence)
    return OfflineChatModel().invoke([briefed_system("prompt", brief), HumanMessage("context")]).text


def _headlines(answer: str) -> list[str]:
    return [line for line in answer.splitlines() if line.startswith("**")]


@pytest.mark.parametrize(
    ("question", "language", "headline"),
    [
        (
            "Combien coûte le billet ?",
            "fr",
            "**Prix**: 21\u00a0€ (plein tarif) · 13\u00a0€ (tarif réduit) [2]",
        ),
        ("How much is the ticket?", "en", "**Price**: €21 (full price) · €13 (reduced rate) [2]"),
        (
            "¿Cuánto cuesta la entrada?",
            "es",
            "**Precio**: 21\u00a0€ (precio completo) · 13\u00a0€ (tarifa reducida) [2]",
        ),
        ("Was kostet das Ticket?", "de", "**Preis**: 21\u00a0€ (normalpreis) · 13\u00a0€ (ermäßigt) [2]"),
        (
            "Quanto costa il biglietto?",
            "it",
            "**Prezzo**: 21\u00a0€ (prezzo intero) · 13\u00a0€ (tariffa ridotta) [2]",
        ),
        (
            "Quanto custa o bilhete?",
            "pt",
            "**Preço**: €\u00a021 (preço inteiro) · €\u00a013 (tarifa reduzida) [2]",
        ),
        (
            "Hoeveel kost een ticket?",
            "nl",
            "**Prijs**: €\u00a021 (normaal tarief) · €\u00a013 (gereduceerd tarief) [2]",
        ),
        ("チケットの料金はいくらですか？", "ja", "**料金**: €21 (一般料金) · €13 (割引料金) [2]"),
        ("门票多少钱？", "zh", "**价格**: €21 (全价) · €13 (优惠价) [2]"),
    ],
)
def test_the_ticket_price_heads_the_answer_with_its_rates_in_the_visitors_words(
    question: str, language: str, headline: str
) -> None:
    assert _headlines(_answer(question, TICKETS, language)) == [headline]


def test_a_guided_tours_price_does_not_head_the_tickets() -> None:
    answer = _answer("How much is the ticket?", TICKETS[:1], "en")

    assert _headlines(answer) == []


def test_the_trianons_hours_do_not_head_the_palaces() -> None:
    answer = _answer(
        "What are the opening hours of the palace?",
        ["Le Domaine de Trianon est ouvert de 12h à 18h30."],
        "en",
    )

    assert _headlines(answer) == []


def test_the_value_of_another_group_of_visitors_is_left_out_of_the_headline() -> None:
    answer = _answer(
        "Combien coûte le billet ?",
        ["Le billet Château coûte 21 € ; il est gratuit pour les moins de 18 ans."],
        "fr",
    )

    assert _headlines(answer) == ["**Prix**: 21\u00a0€ [1]"]


def test_a_price_under_a_heading_for_some_visitors_does_not_head_the_asked_ticket() -> None:
    """Under "Reduced rates", "the Palace ticket at 13 €" is a reduced price: the full price of the
    other passage heads the answer; asked for the reduced rate, the reduced page may head it."""
    evidence = [
        Passage(
            number=1, chunk_id="c1", title="Free entry", headings="Reduced rates", source="https://example.org/1",
            text="The Palace ticket at 13 € and the Trianon ticket at 8 € are for large-family card holders.",
            score=1.0,
        ),
        Passage(
            number=2, chunk_id="c2", title="Prices", headings="Palace ticket", source="https://example.org/2",
            text="The Palace ticket costs 21 €, or 13 € at the reduced rate.", score=0.5,
        ),
    ]  # fmt: skip

    def headlines(question: str) -> list[str]:
        brief = Brief(node="synthesize", question=question, language="en", evidence=evidence)
        reply = OfflineChatModel().invoke([briefed_system("prompt", brief), HumanMessage("context")])
        return _headlines(reply.text)

    from agents.answer.headline import _for_some_visitors
    from agents.answer.sentences import candidates
    from agents.answer.visitor_terms import named_in

    reduced, full = (next(c for c in candidates([p], "en") if "€" in c.text) for p in evidence)
    asked = {id(c) for c in named_in("How much is a ticket for the Palace?", ["en"])}
    asked_reduced = {id(c) for c in named_in("How much is the reduced rate?", ["en"])}
    assert _for_some_visitors(reduced, asked) and not _for_some_visitors(full, asked)
    assert not _for_some_visitors(reduced, asked_reduced)
    assert all("€21" in line for line in headlines("How much is a ticket for the Palace?"))
    assert not any(line.endswith("[1]") for line in headlines("How much is a ticket for the Palace?"))


def test_a_number_with_a_thin_space_between_its_digit_groups_is_never_cut() -> None:
    answer = _answer(
        "Quelle est la longueur du Grand Canal ?",
        ["Le Grand Canal, long de 1\u202f670 mètres, accueille les fêtes."],
        "en",
    )

    assert _headlines(answer) == ["**Distance**: 1,670 m [1]"]


def test_opening_hours_are_written_the_visitors_way_with_their_months() -> None:
    hours = "Le château est ouvert de 9h à 18h30 d'avril à octobre et de 9h à 17h30 de novembre à mars."

    answer = _answer("What are the palace's opening hours?", [hours], "en")

    dash = "\u2009–\u2009"  # Babel's interval: thin spaces around an en dash
    assert _headlines(answer) == [
        f"**Hours**: 09:00{dash}18:30 (Apr{dash}Oct) · 09:00{dash}17:30 (Nov{dash}Mar) [1]"
    ]


def test_a_later_closing_time_in_brackets_ends_the_opening_range_it_follows() -> None:
    answer = _answer(
        "Quels sont les horaires du château ?",
        ["Le château est ouvert de 9h à 17h30 (18h30 en haute saison)."],
        "fr",
    )

    assert _headlines(answer) == [
        "**Horaires**: 09:00\u2009–\u200917:30 · 09:00\u2009–\u200918:30 (haute saison) [1]"
    ]


def test_the_closing_day_after_the_hours_is_shown_as_a_closing_day() -> None:
    answer = _answer(
        "What are the palace's opening hours?", ["Le Château est ouvert de 9h à 18h30, fermé le lundi."], "en"
    )

    assert _headlines(answer) == ["**Hours**: 09:00\u2009–\u200918:30 · closed on Monday [1]"]


def test_a_date_heads_the_answer_only_from_the_clause_naming_the_asked_event() -> None:
    texts = ["La salle du Congrès est construite en 1875 et inaugurée le 8 mars 1876."]

    answer = _answer("Quand la salle du Congrès a-t-elle été inaugurée ?", texts, "fr")

    assert _headlines(answer) == ["**Date**: 8 mars 1876 [1]"]


@pytest.mark.parametrize(
    ("text", "headline"),
    [
        (
            "Le pavillon est repeint le 3 mai 1962 pour le ministre, né en 1901, député depuis 1936.",
            [],
        ),
        (
            "Le pavillon est repeint du 3 mai 1962 au 30 septembre 1962.",
            ["**Date**: 3 mai 1962 · 30 septembre 1962 [1]"],
        ),
    ],
)
def test_dates_of_several_clauses_give_no_headline_a_range_in_one_clause_does(
    text: str, headline: list[str]
) -> None:
    """With no event named to tell them apart, a guest's birth year could head the date asked."""
    answer = _answer("Quand le pavillon a-t-il été repeint ?", [text], "fr")

    assert _headlines(answer) == headline


def test_a_question_asking_who_gets_no_date_headline() -> None:
    answer = _answer(
        "Qui a construit l'orgue de la chapelle ?",
        ["L'orgue de la chapelle fut construit en 1711 par Clicquot."],
        "fr",
    )

    assert _headlines(answer) == []


@pytest.mark.parametrize(("month", "shown"), [("juillet", True), ("décembre", False)])
def test_hours_for_other_months_than_the_asked_one_give_no_headline(month: str, shown: bool) -> None:
    hours = "La galerie des Sculptures est ouverte de 12h30 à 18h30 du 1er avril au 31 octobre."

    answer = _answer(f"Quels sont les horaires de la galerie des Sculptures en {month} ?", [hours], "fr")

    assert bool(_headlines(answer)) is shown


def test_every_concept_role_names_a_glossary_concept() -> None:
    glossary = load_glossary()
    assert glossary is not None
    names = {concept_name(c) for c in glossary.concepts}
    kinds = ("question", "places", "offers", "visitors", "place_stand_ins", "neutral", "qualifiers")
    listed = [name for kind in kinds for name in roles()[kind]]
    listed += [name for names_of_kind in roles()["asked_by"].values() for name in names_of_kind]
    assert set(listed) <= names


@pytest.mark.parametrize(
    ("question", "language", "shown"),
    [
        ("Quels sont les horaires d'ouverture du château ?", "fr", False),
        ("What are the palace's opening hours?", "en", False),
        ("Wie sind die Öffnungszeiten des Schlosses?", "de", False),
        ("À quelle heure ouvre le château ?", "fr", True),
        ("What time does the palace open?", "en", True),
    ],
)
def test_opening_hours_are_headed_by_a_range_a_single_time_only_answers_one_moment(
    question: str, language: str, shown: bool
) -> None:
    """ "9:00" is half of the opening hours: it heads an answer only to when the palace opens."""
    answer = _answer(question, ["Le château ouvre ses portes à 9h pour les visiteurs individuels."], language)

    assert bool(_headlines(answer)) is shown


@pytest.mark.parametrize(
    ("question", "language"), [("チケットの料金はいくらですか？", "ja"), ("门票多少钱？", "zh")]
)
def test_a_chinese_or_japanese_part_gets_no_headline_when_its_quotes_disagree_on_the_value(
    question: str, language: str
) -> None:
    """The words of such a part outside the glossary are not read, so nothing tells which of two
    prices of the same ticket is asked: no headline, while one price alone heads the answer."""
    evidence = ["Le billet Château coûte 21 €.", "Le billet Château coûte 24 € le samedi."]

    assert _headlines(_answer(question, evidence, language)) == []
    assert len(_headlines(_answer(question, evidence[:1], language))) == 1


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Pour une sortie de classe, faut-il réserver ?", "fr"),
        ("Les élèves peuvent-ils pique-niquer dans le parc ?", "fr"),
    ],
)
def test_a_class_outing_is_read_as_a_school_trip_not_as_a_listed_monument(text: str, language: str) -> None:
    """ "classe" and "classé" fold alike: the World Heritage concept no longer has the bare "classé"."""
    named = {concept_name(c) for c in unambiguous_in(text, [language, "en"])}

    assert "school trip" in named
    assert "unesco" not in named


@pytest.mark.parametrize(
    ("question", "language"),
    [("故宫博物院几点开门？", "zh"), ("宮殿の電気代はいくらですか？", "ja")],
)
def test_a_chinese_or_japanese_part_whose_subject_may_be_unread_gets_no_headline(
    question: str, language: str
) -> None:
    """Its words outside the glossary ("故宫博物院", "電気代") may be what it asks about, and it names
    no place, offer or group of visitors of the glossary: the quotes show, no value heads them."""
    evidence = ["La galerie est ouverte de 12h30 à 18h30.", "Chaque année, il coûte 10 €."]

    assert _headlines(_answer(question, evidence, language)) == []


def test_the_singular_great_stable_names_the_stables_in_german() -> None:
    named = {concept_name(c) for c in unambiguous_in("Wann wurde die Große Stallung gebaut?", ["de", "en"])}

    assert "stables" in named


@pytest.mark.parametrize(
    ("text", "language", "word"),
    [
        ("Seit wann gibt es das Museum?", "de", "seit"),
        ("Desde cuándo existe el museo?", "es", "desde"),
        ("Sinds wanneer bestaat het museum?", "nl", "sinds"),
    ],
)
def test_since_when_asks_when_and_is_no_topic_word(text: str, language: str, word: str) -> None:
    """ "seit" is no word a sentence answering the question must hold."""
    assert "when" in {concept_name(c) for c in unambiguous_in(text, [language])}
    assert word not in concepts_and_words(text, language)[1]
