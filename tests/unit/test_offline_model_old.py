"""The offline model: multilingual tool routing, structured gap analysis, extractive answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import tool

from agents.offline_model import OfflineChatModel, split_aspects
from agents.schemas import Critique, GapAnalysis, tagged
from agents.tools.knowledge_base import EvidenceItem, render_evidence


@tool
def search_knowledge_base(query: str) -> str:
    """Search the visitor knowledge base."""
    return ""


@tool
def get_weather(date: str, place: str) -> str:
    """Weather forecast for a date and place."""
    return ""


@tool
def get_travel_info(origin: str, mode: str | None = None) -> str:
    """How to travel to Versailles from an origin."""
    return ""


HOURS = EvidenceItem(
    chunk_id="hours",
    title="Horaires d'ouverture du domaine de Versailles",
    headings="Haute saison (1er avril – 31 octobre)",
    source="https://example.org/horaires",
    text=(
        "- **Château :** de 9 h à 18 h 30. Dernière entrée à 17 h 45.\n"
        "- **Jardins :** de 7 h à 20 h 30, dernier accès à 19 h."
    ),
)
CLOSED_DAYS = EvidenceItem(
    chunk_id="closed",
    title="Horaires d'ouverture du domaine de Versailles",
    headings="Jour de fermeture",
    source="https://example.org/horaires",
    text="Le Château et le domaine de Trianon ferment tous les lundis. Les Jardins ouvrent tous les jours.",
)
TICKETS = EvidenceItem(
    chunk_id="tickets",
    title="Billets et tarifs",
    headings="Les principaux billets",
    source="https://example.org/billets",
    text="- **Billet Château** – le Château seul, avec créneau. **21 €**, tarif réduit **13 €**.",
)
BOATS = EvidenceItem(
    chunk_id="boats",
    title="Se déplacer dans le domaine",
    headings="Les barques sur le Grand Canal",
    source="https://example.org/barques",
    text="On peut louer des barques sur le Grand Canal au printemps et en été.",
)


def agent() -> Runnable[Any, AIMessage]:
    return OfflineChatModel().bind_tools([search_knowledge_base, get_weather, get_travel_info])


def calls(message: str) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls for ``message``, without the ``language`` argument (tested on its own)."""
    reply = agent().invoke([HumanMessage(message)])
    return [
        (call["name"], {k: v for k, v in call["args"].items() if k != "language"})
        for call in reply.tool_calls
    ]


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Quel temps fera-t-il samedi à Versailles ?", "fr"),
        ("How do I get there from Charles de Gaulle airport?", "en"),
        ("¿Cómo llego desde la estación de Montparnasse?", "es"),
    ],
)
def test_weather_and_travel_calls_ask_for_a_summary_in_the_visitors_language(
    message: str, language: str
) -> None:
    reply = agent().invoke([HumanMessage(message)])

    assert [call["args"]["language"] for call in reply.tool_calls] == [language]


def prompt(question: str, language: str, evidence: list[EvidenceItem], extra: str = "") -> list[BaseMessage]:
    body = render_evidence(list(enumerate(evidence, 1)))
    return [HumanMessage(f"{tagged('question', question)}\n{tagged('language', language)}\n{body}{extra}")]


def answer(question: str, language: str, evidence: list[EvidenceItem], extra: str = "") -> str:
    return OfflineChatModel().invoke(prompt(question, language, evidence, extra)).text


# --- routing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "date"),
    [
        ("Quel temps fera-t-il samedi à Versailles ?", "samedi"),
        ("Will it rain tomorrow?", "tomorrow"),
        ("¿Va a llover mañana en Versalles?", "mañana"),
        ("Wie wird das Wetter am Samstag?", "Samstag"),
        ("明日の天気はどうですか", "明日"),
        ("Quel temps fera-t-il le 14 juillet ?", "14 juillet"),
        ("Is it going to rain?", "today"),
    ],
)
def test_weather_questions_call_the_weather_tool_with_their_date(message: str, date: str) -> None:
    assert calls(message) == [("get_weather", {"date": date, "place": "Versailles"})]


@pytest.mark.parametrize(
    ("message", "origin"),
    [
        ("How do I get from Charles de Gaulle airport to Versailles?", "Charles de Gaulle airport"),
        ("Comment venir depuis la gare Montparnasse ?", "gare Montparnasse"),
        ("Comment aller d'Orly à Versailles ?", "Orly"),
        ("Wie komme ich vom Flughafen Orly nach Versailles?", "Flughafen Orly"),
        ("Wie komme ich von der Gare Montparnasse nach Versailles?", "Gare Montparnasse"),
        ("How do I get there from Orly?", "Orly"),
    ],
)
def test_travel_questions_call_the_travel_tool_with_their_origin(message: str, origin: str) -> None:
    assert calls(message) == [("get_travel_info", {"origin": origin, "mode": None})]


@pytest.mark.parametrize(
    ("message", "origin", "mode"),
    [
        ("Comment aller d'Orly à Versailles en taxi ?", "Orly", "taxi"),
        ("Wie komme ich vom Flughafen Charles de Gaulle mit dem Zug nach Versailles?",
         "Flughafen Charles de Gaulle", "train"),
        ("How far is Versailles from Paris by car?", "Paris", "car"),
        ("Como chegar a Versalhes desde Paris de trem?", "Paris", "train"),
    ],
)  # fmt: skip
def test_the_transport_mode_is_passed_apart_from_the_origin(message: str, origin: str, mode: str) -> None:
    assert calls(message) == [("get_travel_info", {"origin": origin, "mode": mode})]


@pytest.mark.parametrize(
    "message",
    [
        "Quels sont les horaires du château ?",
        "What time does the palace open?",
        "Quanto costa il biglietto per il castello?",
        "凡尔赛宫几点开门？",
    ],
)
def test_fact_questions_search_the_knowledge_base(message: str) -> None:
    assert calls(message) == [("search_knowledge_base", {"query": message.rstrip("?？ ")})]


def test_a_question_in_two_parts_gets_one_search_per_part() -> None:
    assert calls("Quels sont les horaires du château et combien coûte le billet ?") == [
        ("search_knowledge_base", {"query": "Quels sont les horaires du château"}),
        ("search_knowledge_base", {"query": "combien coûte le billet"}),
    ]


def test_an_accented_word_is_not_taken_for_a_connector() -> None:
    # Portuguese "é" (is) folds to "e" (and): the question must stay in one piece.
    assert calls("Qual é o horário de funcionamento do palácio?") == [
        ("search_knowledge_base", {"query": "Qual é o horário de funcionamento do palácio"})
    ]


def test_a_mixed_question_gets_a_search_and_a_weather_call() -> None:
    assert calls("What time do the gardens open and will it rain tomorrow?") == [
        ("search_knowledge_base", {"query": "What time do the gardens open"}),
        ("get_weather", {"date": "tomorrow", "place": "Versailles"}),
    ]


def test_a_weather_part_that_also_asks_about_the_visit_gets_a_search_too() -> None:
    names = [name for name, _ in calls("S'il pleut samedi, la visite guidée des jardins est-elle annulée ?")]

    assert names == ["get_weather", "search_knowledge_base"]


@pytest.mark.parametrize(
    "message",
    [
        "How do I get from the Eiffel Tower to Versailles by train, and how long will it take?",
        "Wie lange fährt man mit dem Fahrrad vom Louvre bis zum Schloss?",
        "Quelle température fera-t-il à Versailles samedi matin ?",
    ],
)
def test_the_parts_of_a_pure_travel_or_weather_question_need_no_search(message: str) -> None:
    assert "search_knowledge_base" not in [name for name, _ in calls(message)]


def test_a_leading_greeting_is_left_out_of_the_query() -> None:
    assert calls("Bonjour, quels sont les horaires du château ?") == [
        ("search_knowledge_base", {"query": "quels sont les horaires du château"})
    ]


def test_only_bound_tools_are_called() -> None:
    model = OfflineChatModel().bind_tools([search_knowledge_base])
    reply = model.invoke([HumanMessage("Will it rain tomorrow?")])
    assert [call["name"] for call in reply.tool_calls] == ["search_knowledge_base"]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Hello!", "Hello! How can I help"),
        ("Bonjour !", "Bonjour ! Comment puis-je"),
        ("merci beaucoup", "Avec plaisir"),
        ("hola", "¡Hola!"),
        ("Danke!", "Gern geschehen"),
        ("grazie mille", "Prego"),
        ("obrigado", "De nada"),
        ("dank je wel", "Graag gedaan"),
        ("こんにちは", "こんにちは！"),
        ("你好", "您好！"),
    ],
)
def test_greetings_and_thanks_get_a_reply_in_their_language_without_tools(
    message: str, expected: str
) -> None:
    reply = agent().invoke([HumanMessage(message)])
    assert reply.tool_calls == []
    assert reply.text.startswith(expected)


def test_a_short_thanks_keeps_the_conversation_language() -> None:
    reply = agent().invoke(
        [HumanMessage("Wie komme ich nach Versailles?"), AIMessage("…"), HumanMessage("merci")]
    )
    assert reply.text.startswith("Gern geschehen")


def test_no_new_tool_call_once_tool_results_follow_the_question() -> None:
    messages: list[BaseMessage] = [
        HumanMessage("Quels sont les horaires du château ?"),
        AIMessage(
            "", tool_calls=[{"name": "search_knowledge_base", "args": {"query": "horaires"}, "id": "1"}]
        ),
        ToolMessage('{"status": "ok"}', tool_call_id="1"),
    ]
    reply = agent().invoke(messages)
    assert reply.tool_calls == []
    assert reply.text == ""


# --- structured output -----------------------------------------------------------------------


def test_gap_analysis_finds_the_answered_and_the_missing_aspect() -> None:
    gap = (
        OfflineChatModel()
        .with_structured_output(GapAnalysis)
        .invoke(prompt("What time does the palace open and can I bring my dog?", "en", [HOURS, BOATS]))
    )
    assert isinstance(gap, GapAnalysis)
    assert gap.answered == ["What time does the palace open"]
    assert gap.missing == ["can I bring my dog"]
    assert len(gap.follow_up_queries) == 1
    assert "chien" in gap.follow_up_queries[0]


def test_gap_analysis_without_evidence_misses_everything() -> None:
    gap = OfflineChatModel().with_structured_output(GapAnalysis).invoke(prompt("Is there wifi?", "en", []))
    assert isinstance(gap, GapAnalysis)
    assert gap.answered == []
    assert gap.missing == ["Is there wifi"]
    assert gap.follow_up_queries == ["wifi"]


def test_critique_is_sufficient_when_every_aspect_is_answered() -> None:
    verdict = (
        OfflineChatModel()
        .with_structured_output(Critique)
        .invoke(
            prompt("Quels sont les horaires du château et combien coûte le billet ?", "fr", [HOURS, TICKETS])
        )
    )
    assert isinstance(verdict, Critique)
    assert verdict.sufficient is True


def test_critique_names_the_missing_aspect() -> None:
    verdict = (
        OfflineChatModel()
        .with_structured_output(Critique)
        .invoke(prompt("What time does the palace open and is there wifi?", "en", [HOURS]))
    )
    assert isinstance(verdict, Critique)
    assert verdict.sufficient is False
    assert "is there wifi" in verdict.reason


# --- synthesis -------------------------------------------------------------------------------


def test_the_answer_quotes_the_matching_sentence_with_its_citation() -> None:
    text = answer("What time does the palace open?", "en", [BOATS, HOURS])
    assert "de 9 h à 18 h 30.” [2]" in text
    assert "[1]" not in text


def test_a_list_item_sentence_is_matched_through_the_item_name() -> None:
    text = answer("Combien coûte le billet pour le château ?", "fr", [HOURS, TICKETS])
    assert "**21 €**, tarif réduit **13 €**.” [2]" in text


def test_each_part_of_the_question_gets_its_own_quote() -> None:
    text = answer(
        "Le château est-il ouvert le lundi et peut-on louer une barque ?", "fr", [CLOSED_DAYS, BOATS]
    )
    assert "ferment tous les lundis." in text
    assert "louer des barques sur le Grand Canal au printemps et en été.” [2]" in text


def test_the_answer_abstains_when_the_evidence_is_unrelated() -> None:
    text = answer("Is there wifi in the palace?", "en", [BOATS])
    assert "chateauversailles.fr" in text
    assert "[1]" not in text


def test_a_missing_part_is_named_next_to_the_answered_one() -> None:
    text = answer("What time does the palace open and is there wifi?", "en", [HOURS])
    assert "[1]" in text
    assert "does not answer: is there wifi" in text


def test_quotes_in_another_language_are_flagged() -> None:
    assert "(quoted in French)" in answer("What time does the palace open?", "en", [HOURS])
    assert "extrait" not in answer("Quels sont les horaires du château ?", "fr", [HOURS])


@pytest.mark.parametrize(
    ("language", "intro", "abstention"),
    [
        ("fr", "Voici ce qu'indique", "ne répond pas à cette question"),
        ("en", "Here is what the knowledge base says", "does not answer this question"),
        ("es", "Esto es lo que dice", "no responde a esta pregunta"),
        ("de", "Das sagt die Wissensdatenbank", "beantwortet diese Frage nicht"),
        ("it", "Ecco cosa dice", "non risponde a questa domanda"),
        ("pt", "Eis o que diz", "não responde a esta pergunta"),
        ("nl", "Dit zegt de kennisbank", "beantwoordt deze vraag niet"),
        ("ja", "ナレッジベースには次のように", "この質問への答えがありません"),
        ("zh", "知识库中的相关内容如下", "知识库无法回答这个问题"),
    ],
)
def test_replies_are_written_in_the_requested_language(language: str, intro: str, abstention: str) -> None:
    assert answer("What time does the palace open?", language, [HOURS]).startswith(intro)
    assert abstention in answer("Is there wifi in the palace?", language, [BOATS])


def test_tool_summaries_are_part_of_the_answer() -> None:
    results = json.dumps({"status": "ok", "summary": "Saturday: light rain, 14 °C."})
    extra = "\n" + tagged("tool_results", results)
    text = answer("What time does the palace open and will it rain on Saturday?", "en", [HOURS], extra)
    assert "Saturday: light rain, 14 °C." in text
    assert "[1]" in text
    assert "does not answer" not in text  # the weather part is answered by the tool, not the evidence


# --- the model itself ------------------------------------------------------------------------


def test_the_model_names_itself() -> None:
    model = OfflineChatModel()
    assert model.model_name == "offline-extractive"
    assert model._llm_type == "offline-extractive"


def test_batch_and_stream_give_the_same_reply_as_invoke() -> None:
    model = OfflineChatModel()
    messages = prompt("What time does the palace open?", "en", [HOURS])
    expected = model.invoke(messages).text
    assert [reply.text for reply in model.batch([messages, messages])] == [expected, expected]
    assert "".join(chunk.text for chunk in model.stream(messages)) == expected


def test_the_model_is_deterministic() -> None:
    first = agent().invoke([HumanMessage("What time do the gardens open and will it rain tomorrow?")])
    second = agent().invoke([HumanMessage("What time do the gardens open and will it rain tomorrow?")])
    assert first.tool_calls == second.tool_calls


def test_quoted_evidence_is_in_quotation_marks_so_the_reply_is_in_the_visitors_language() -> None:
    from agents.evaluate import own_words
    from rag.language import detect_language

    text = answer("Is the palace open on Mondays, and can I rent a rowing boat?", "en", [CLOSED_DAYS, BOATS])

    assert "“Le Château et le domaine de Trianon ferment tous les lundis. Les Jardins ouvrent" in text
    assert detect_language(own_words(text)) == "en"


def test_the_sentence_after_the_best_match_is_quoted_with_it() -> None:
    temple = EvidenceItem(
        chunk_id="temple",
        title="Le jardin anglais",
        source="https://example.org/jardin-anglais",
        text="Le Temple de l'Amour est bâti sur une île. La construction est achevée en juillet 1778.",
    )

    text = answer("Quand le Temple de l'Amour a-t-il été bâti ?", "fr", [temple])

    assert "achevée en juillet 1778.” [1]" in text


RESTAURANT = EvidenceItem(
    chunk_id="restaurant",
    title="Restaurants du domaine",
    headings="Se restaurer",
    source="https://example.org/restaurants",
    text="Le restaurant Ore propose une cuisine française au château, près de la place d'Armes. "
    "Le restaurant La Flottille du château est au bord du Grand Canal. Le restaurant Angelina du "
    "château est au Petit Trianon. Un kiosque vend des glaces près du bassin.",
)


def test_a_japanese_word_the_glossary_cannot_translate_must_be_found_in_the_evidence() -> None:
    """ "日本食" (Japanese food) is unknown to the glossary: French evidence about a restaurant does
    not answer it, while the same question without it is answered."""
    evidence = [RESTAURANT, HOURS, BOATS]
    specific = answer("ヴェルサイユ宮殿の近くに日本食レストランはありますか", "ja", evidence)
    general = answer("ヴェルサイユ宮殿の近くにレストランはありますか", "ja", evidence)

    assert "[1]" not in specific and "chateauversailles.fr" in specific
    assert "[1]" in general


@pytest.mark.parametrize(
    ("question", "language", "parts"),
    [
        ("La galerie des Sculptures et des Moulages est-elle ouverte ?", "fr", 1),
        ("Is the Grand Trianon and the Petit Trianon open?", "en", 1),
        ("Quels sont les horaires et les tarifs ?", "fr", 2),
        ("Öffnungszeiten und Preise?", "de", 2),
    ],
)
def test_and_inside_a_proper_name_does_not_split_the_question(
    question: str, language: str, parts: int
) -> None:
    assert len(split_aspects(question, language)) == parts


@pytest.mark.parametrize(
    ("question", "language", "second"),
    [
        (
            "Au Grand Trianon, où peut-on s'installer chez Ore, et faut-il un billet pour y aller ?",
            "fr",
            "faut-il un billet pour y aller (Grand Trianon Ore)",
        ),
        ("Where is the Orangery and is it open in winter?", "en", "is it open in winter (Orangery)"),
        ("Le musée Lambinet a été inauguré quand, et par qui ?", "fr", "par qui (Lambinet"),
    ],
)
def test_a_part_that_refers_back_gets_the_first_parts_subject(
    question: str, language: str, second: str
) -> None:
    assert split_aspects(question, language)[1].startswith(second)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Is there a cloakroom, and are there lockers?", "en"),  # "there" is existential here
        ("Quels sont les horaires et les tarifs ?", "fr"),  # no back-reference
        ("What time do the gardens open and will it rain tomorrow?", "en"),  # weather "it"
    ],
)
def test_parts_that_stand_on_their_own_are_left_as_they_are(question: str, language: str) -> None:
    assert not any("(" in aspect for aspect in split_aspects(question, language))


def test_the_part_about_going_there_is_answered_from_the_passage_about_that_place() -> None:
    """ "y aller" is Ore: the ticket sentence of the Ore passage answers it, not a ticket sentence
    about the gardens."""
    gardens = EvidenceItem(
        chunk_id="gardens",
        title="Jardins",
        headings="Accès",
        source="https://example.org/jardins",
        text="Pour accéder aux Jardins les jours de spectacle, il faut un billet Jardins.",
    )
    restaurant = EvidenceItem(
        chunk_id="ore",
        title="Ore au Grand Trianon",
        headings="Accès",
        source="https://example.org/ore",
        text="Ore vous accueille dans le pavillon Dufour. Accessible sans billet, à l'entrée du "
        "Grand Trianon, côté Parc.",
    )
    text = answer(
        "Au Grand Trianon, où peut-on s'installer chez Ore, et faut-il un billet pour y aller ?",
        "fr",
        [gardens, restaurant],
    )

    assert "Accessible sans billet" in text


def test_a_quoted_sentence_shows_the_section_heading_that_names_its_subject() -> None:
    kiosk = EvidenceItem(
        chunk_id="kiosk",
        title="Se restaurer dans le parc",
        headings="",
        source="https://example.org/kiosques",
        text="## La ferme de la Métairie\n"
        "Ce kiosque du parc, au Grand Canal, propose des sorbets biologiques et des crêpes.",
    )

    text = answer("Où trouver des sorbets biologiques dans le parc ?", "fr", [kiosk, BOATS])

    assert "*La ferme de la Métairie* — “Ce kiosque" in text


def test_a_month_is_answered_by_the_season_it_falls_in_and_open_by_closed() -> None:
    gallery = EvidenceItem(
        chunk_id="gallery",
        title="Galerie des Sculptures et des Moulages",
        headings="Horaires",
        source="https://example.org/galerie",
        text="La galerie des Sculptures et des Moulages est fermée en basse saison. Elle accueille des "
        "moulages d'antiques. Le bâtiment fut construit pour les chevaux du roi.",
    )

    text = answer("La galerie des Sculptures et des Moulages est-elle ouverte en décembre ?", "fr", [gallery])

    assert "fermée en basse saison" in text and "[1]" in text
