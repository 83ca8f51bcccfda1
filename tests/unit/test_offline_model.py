"""The offline model on the messages a node gives it: how it reads evidence, answers, abstains and routes.

These tests run without an embedder (sentences are ranked by their words, values and retrieval
score); tests/integration/test_offline_reader.py runs the same reader with multilingual-e5-small.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agents.answer.sentences import candidates
from agents.graph.gathered import Gathered, gathered_message, read_gathered
from agents.graph.schemas import Critique, GapAnalysis
from agents.offline import OfflineChatModel
from agents.offline.reader import EMBEDDED_MAX, read_parts
from agents.offline.reading.intent import default_embedder, intent_index
from agents.offline.reading.question_parts import question_parts, topic_words
from agents.offline.reading.read import read_conversation
from rag.embeddings import PassageVectorCache
from rag.passage import Passage

TOOLS = [
    {"type": "function", "function": {"name": name, "description": name, "parameters": {"type": "object"}}}
    for name in ("search_knowledge_base", "get_weather", "get_travel_info")
]


def _passage(number: int, text: str, title: str = "Billets", score: float = 1.0) -> Passage:
    return Passage(
        number=number,
        chunk_id=f"c{number}",
        title=title,
        source=f"https://example.org/{number}",
        text=text,
        score=score,
    )


def _context(question: str, evidence: list[Passage], language: str = "fr", **extra: Any) -> list[Any]:
    """The synthesis' messages: its prompt, then what the turn gathered."""
    gathered = Gathered(question=question, language=language, evidence=evidence, **extra)
    return [SystemMessage("prompt"), gathered_message(gathered)]


def _answer(question: str, evidence: list[Passage], language: str = "fr", **extra: Any) -> str:
    return OfflineChatModel().invoke(_context(question, evidence, language, **extra)).text


def _route(*messages: Any) -> AIMessage:
    reply = OfflineChatModel().bind_tools(TOOLS).invoke([SystemMessage("prompt"), *messages])
    assert isinstance(reply, AIMessage)
    return reply


def _calls(reply: AIMessage) -> list[tuple[str, dict[str, Any]]]:
    return [(call["name"], call["args"]) for call in reply.tool_calls]


# --- what the model is given ------------------------------------------------------------------


def test_what_the_turn_gathered_travels_as_the_text_it_renders_and_typed_beside_it() -> None:
    gathered = Gathered(question="Q ?", language="fr", queries=["q"], evidence=[_passage(1, "Texte.")],
                        missing=["prix"])  # fmt: skip

    message = gathered_message(gathered)

    assert read_gathered([SystemMessage("prompt"), message]) == gathered
    assert read_gathered([SystemMessage("prompt"), HumanMessage("Q ?")]) is None
    for said in ("<question>Q ?</question>", "<queries_run>q</queries_run>", "[1]", "Texte.", "prix"):
        assert said in message.text


def test_the_mistral_and_openai_clients_send_the_text_of_what_was_gathered_and_not_its_artifact() -> None:
    from langchain_mistralai.chat_models import _convert_message_to_mistral_chat_message
    from langchain_openai.chat_models.base import _convert_message_to_dict

    message = gathered_message(Gathered(question="Q ?", evidence=[_passage(1, "Texte.")]))

    assert _convert_message_to_dict(message) == {"role": "user", "content": message.text}
    assert _convert_message_to_mistral_chat_message(message) == {"role": "user", "content": message.text}


def test_the_role_is_read_from_the_tools_bound() -> None:
    question = "Combien coûte le billet ?"
    messages = _context(question, [_passage(1, "Le billet Château coûte 21 € en plein tarif.")])
    model = OfflineChatModel()

    routed = model.bind_tools(TOOLS).invoke([SystemMessage("prompt"), HumanMessage(question)])
    verdict = model.with_structured_output(Critique).invoke(messages)
    answer = model.invoke(messages)

    assert isinstance(routed, AIMessage) and routed.tool_calls[0]["name"] == "search_knowledge_base"
    assert isinstance(verdict, Critique) and verdict.sufficient
    assert isinstance(answer, AIMessage) and "21 €" in answer.text and not answer.tool_calls


# --- reading the evidence ---------------------------------------------------------------------


def test_a_markdown_table_is_read_as_column_value_pairs_without_its_header_or_rule() -> None:
    table = "| Billet | Plein tarif | Tarif réduit |\n|---|---|---|\n| Passeport | 32 € | 24 € |"

    pool = candidates([_passage(1, table)], "fr")

    assert [(c.label, c.text) for c in pool] == [("Passeport", "Plein tarif: 32 €; Tarif réduit: 24 €")]


def test_headings_label_their_sentences_and_markup_links_images_and_references_are_dropped() -> None:
    text = (
        "## Horaires du Parc\n"
        "Le Parc ouvre à 7 h ![plan](https://example.org/p.png) et [ferme](https://x.org) à 20 h [34].\n"
        "Lire la suite\n"
        "- **Passeport** – tout le domaine en une journée. 32 € en haute saison."
    )

    pool = candidates([_passage(1, text)], "fr")

    assert [(c.label, c.text) for c in pool] == [
        ("Horaires du Parc", "Le Parc ouvre à 7 h et ferme à 20 h."),
        ("", "Passeport – tout le domaine en une journée."),
        ("Passeport", "32 € en haute saison."),
    ]


def test_a_sentence_repeated_in_two_passages_is_quoted_once_and_a_question_keeps_its_answer() -> None:
    faq = "Peut-on pique-niquer dans le Parc ? Oui, sur les pelouses autorisées du Parc."
    pool = candidates([_passage(1, faq), _passage(2, "Oui, sur les pelouses autorisées du Parc.")], "fr")

    assert [c.text for c in pool] == [faq]


def test_a_split_abbreviation_is_joined_back() -> None:
    pool = candidates([_passage(1, "En 1924, John D. Rockefeller Jr. envoie une lettre au Président.")], "fr")

    assert [c.text for c in pool] == ["En 1924, John D. Rockefeller Jr. envoie une lettre au Président."]


@pytest.mark.parametrize(
    ("question", "language", "parts"),
    [
        ("Quand ouvre le Château ? Et combien coûte le billet ?", "fr", 2),
        ("Where is the café, and how much is a coffee?", "en", 2),
        ("La galerie des Sculptures et des Moulages est-elle ouverte ?", "fr", 1),
        ("Wie viel kostet das Ticket?", "de", 1),
    ],
)
def test_a_question_is_cut_into_parts_on_question_marks_and_and_words_not_inside_names(
    question: str, language: str, parts: int
) -> None:
    assert len(question_parts(question, language)) == parts


def test_a_part_without_a_topic_of_its_own_stays_with_the_part_it_belongs_to() -> None:
    assert question_parts("Who built the Royal Opera, and when?", "en") == [
        "Who built the Royal Opera, and when"
    ]
    assert question_parts("Où est le café ? Et combien ?", "fr") == [
        "Où est le café",
        "Et combien (Où est le café)",
    ]


@pytest.mark.parametrize(
    ("part", "language", "location_word"),
    [
        ("Seit wann ist die Reitakademie dort ansässig", "de", "ansassig"),
        ("In which wing is the museum housed", "en", "housed"),
        ("Dove è situato il museo delle carrozze", "it", "situato"),
        ("Waar is de ruiterschool gevestigd", "nl", "gevestigd"),
    ],
)
def test_a_word_saying_where_something_is_asks_and_is_no_topic(
    part: str, language: str, location_word: str
) -> None:
    """A passage answering "since when is it based there" need not repeat "based"."""
    assert location_word not in topic_words(part, language, [])


@pytest.mark.parametrize(
    ("question", "language", "second"),
    [
        (
            "Quand la chapelle a-t-elle été achevée et la grande orangerie ?",
            "fr",
            "la grande orangerie (achevée)",
        ),
        (
            "Quand Louis XIV a-t-il inauguré la chapelle et la grande orangerie ?",
            "fr",
            "la grande orangerie (inauguré)",
        ),
        ("When was the Grand Trianon built and the Petit Trianon?", "en", "the Petit Trianon (built)"),
        ("Wann wurde die Kapelle eingeweiht und das Petit Trianon?", "de", "das Petit Trianon (eingeweiht)"),
        ("Quando fu costruito il Grand Trianon e quando il Petit Trianon?", "it", "quando il Petit Trianon"),
    ],
)
def test_a_part_asking_nothing_of_its_own_takes_the_previous_parts_predicate(
    question: str, language: str, second: str
) -> None:
    """ "Louis XIV" is a name, not a predicate; a part with a question word of its own keeps its words."""
    assert question_parts(question, language)[1] == second


@pytest.mark.parametrize(
    ("question", "language", "parts"),
    [
        (
            "Combien de places compte la chapelle royale par rapport à la galerie des Glaces ?",
            "fr",
            ["Combien de places compte la chapelle royale", "la galerie des Glaces (places compte)"],
        ),
        (
            "How wide is the Grand Canal compared with the Swiss Pond?",
            "en",
            ["How wide is the Grand Canal", "the Swiss Pond (wide)"],
        ),
        (
            "Wie alt ist die Orangerie im Vergleich zur Kapelle?",
            "de",
            ["Wie alt ist die Orangerie", "Kapelle (alt)"],
        ),
    ],
)
def test_a_part_compared_with_the_one_before_asks_the_same_of_its_own_subject(
    question: str, language: str, parts: list[str]
) -> None:
    """Cut even between two names, and the asked words (not the first subject) carried over."""
    assert question_parts(question, language) == parts


def test_a_question_of_many_parts_is_capped() -> None:
    question = " ; ".join(f"le prix du billet numéro {n}" for n in range(40))

    assert len(question_parts(question, "fr")) == 6


# --- answering --------------------------------------------------------------------------------


def test_free_text_gives_no_bold_headline_only_its_best_sentences_with_their_context() -> None:
    """No value is claimed from prose: the sentences are quoted, each with its heading or label."""
    evidence = [
        _passage(1, "Le Parc est ouvert tous les jours."),
        _passage(
            2, "Le billet Passeport coûte 32 € en haute saison et 24 € en basse saison.", title="Tarifs"
        ),
    ]

    answer = _answer("パスポートの料金はいくらですか？", evidence, language="ja")

    assert "**" not in answer
    assert (
        "“*Tarifs* — Le billet Passeport coûte 32 € en haute saison et 24 € en basse saison.” [2]" in answer
    )
    assert "フランス語" in answer.split("\n\n")[0]


def _calendar_result(line: str, cites: list[str]) -> dict[str, Any]:
    facts = [{"place": "palace", "text": line, "cites": cites}]
    return {"tool": "get_visit_calendar", "status": "ok", "summary": line, "result": {"facts": facts}}


def _fact_passage(number: int, text: str) -> Passage:
    return Passage(
        number=number, chunk_id=f"fact{number}", text=text, title="Horaires", collection="visit_facts"
    )


def test_a_visit_fact_heads_the_answer_in_bold_citing_the_excerpt_it_was_checked_against() -> None:
    evidence = [_fact_passage(1, "Château : de 9 h à 18 h 30."), _passage(2, "Le billet coûte 21 €.")]
    results = [_calendar_result("Le Château, haute saison : 09:00–18:30.", ["fact1"])]

    answer = _answer("À quelle heure ouvre le château ?", evidence, tool_results=results)

    assert answer.splitlines()[0] == "**Le Château, haute saison : 09:00–18:30.** [1]"
    assert "21 €" not in answer  # the fact answers the question: no free text beside it


def test_an_official_answer_wins_over_the_visit_facts_and_the_knowledge_base() -> None:
    official = Passage(
        number=2, chunk_id="official-1", text="Le Château est fermé le 15 décembre.", collection="official"
    )
    evidence = [
        _fact_passage(1, "Château : de 9 h à 17 h 30."),
        official,
        _passage(3, "Ouvert de 9 h à 17 h 30."),
    ]
    results = [_calendar_result("15 décembre — le Château : ouvert de 09:00 à 17:30.", ["fact1"])]

    answer = _answer("Le château est-il ouvert le 15 décembre ?", evidence, tool_results=results)

    assert answer == "**Le Château est fermé le 15 décembre.** [2]"


def test_a_follow_up_is_read_with_the_visitor_earlier_messages_it_is_handed() -> None:
    """The graph hands the visitor's own words; the model completes a follow-up from those before it."""
    evidence = [_passage(1, "Le billet Château coûte 21 € en plein tarif.")]
    said = ["Où garer un camping-car ?", "Et une moto ?"]
    standalone = read_conversation(said, intent_index(default_embedder().embed_queries)).question
    model = OfflineChatModel().with_structured_output(GapAnalysis)

    gaps = model.invoke(_context(said[-1], evidence, earlier=said[:-1]))

    assert isinstance(gaps, GapAnalysis) and standalone != said[-1]
    assert gaps == model.invoke(_context(standalone, evidence))
    assert "camping-car" in " ".join(gaps.missing)


def test_unrelated_evidence_gives_an_abstention_pointing_to_the_official_website() -> None:
    evidence = [_passage(1, "Les orangers sont rentrés dans l'Orangerie chaque automne depuis Louis XIV.")]

    answer = _answer("Combien coûte le parking des autocars ?", evidence)

    assert answer.startswith("La base de connaissances ne répond pas")
    assert "https://www.chateauversailles.fr" in answer and "**" not in answer


def test_a_question_about_another_place_is_answered_only_by_a_sentence_naming_it() -> None:
    evidence = [_passage(1, "Le Château est ouvert de 9 h à 18 h 30, du mardi au dimanche.")]

    answer = _answer("What are the opening hours of the Louvre?", evidence, language="en")

    assert answer.startswith("The knowledge base does not answer")


@pytest.mark.parametrize(
    ("question", "language", "declined"),
    [
        ("When does the Bourdelle Museum open?", "en", "The knowledge base does not answer"),
        ("¿A qué hora abre el museo Sorolla?", "es", "La base de conocimientos no responde"),
        ("Wann öffnet das Schloss Sanssouci?", "de", "Die Wissensdatenbank beantwortet"),
    ],
)
def test_a_question_about_a_museum_or_palace_no_list_knows_is_answered_only_by_a_sentence_naming_it(
    question: str, language: str, declined: str
) -> None:
    evidence = [_passage(1, "Le musée et le château sont ouverts de 9 h à 18 h 30, du mardi au dimanche.")]

    assert _answer(question, evidence, language=language).startswith(declined)


def test_tool_summaries_are_quoted_before_the_evidence() -> None:
    results = [{"tool": "get_weather", "status": "ok", "summary": "Dimanche : 12 °C, averses."}]

    answer = _answer("Quel temps fera-t-il dimanche ?", [], tool_results=results)

    assert answer.splitlines()[1] == "- “Dimanche : 12 °C, averses.”"


def test_gap_analysis_and_critique_name_the_part_the_evidence_does_not_answer() -> None:
    evidence = [_passage(1, "Le billet Château coûte 21 € en plein tarif.")]
    messages = _context("Combien coûte le billet ? Où garer un camping-car ?", evidence)
    model = OfflineChatModel()

    gaps = model.with_structured_output(GapAnalysis).invoke(messages)
    critique = model.with_structured_output(Critique).invoke(messages)

    assert isinstance(gaps, GapAnalysis) and isinstance(critique, Critique)
    assert gaps.missing == ["Où garer un camping-car"] and gaps.follow_up_queries
    assert not critique.sufficient and "camping-car" in critique.reason


def test_stream_and_invoke_give_the_same_reply() -> None:
    evidence = [_passage(1, "Le billet Château coûte 21 € en plein tarif.")]
    messages = _context("Combien coûte le billet ?", evidence)
    model = OfflineChatModel()

    streamed = "".join(str(chunk.content) for chunk in model.stream(messages))

    assert streamed == model.invoke(messages).text


def test_a_pause_between_streamed_words_spaces_the_chunks_and_changes_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evidence = [_passage(1, "Le billet Château coûte 21 € en plein tarif.")]
    messages = _context("Combien coûte le billet ?", evidence)
    pauses: list[float] = []
    monkeypatch.setattr("agents.offline.model.time.sleep", pauses.append)

    chunks = [str(chunk.content) for chunk in OfflineChatModel(word_seconds=0.005).stream(messages)]

    answer = OfflineChatModel().invoke(messages).text
    assert "".join(chunks) == answer
    assert pauses == [0.005] * (len(answer.split(" ")) - 1)  # between words, none after the last


# --- routing ----------------------------------------------------------------------------------


def test_weather_travel_and_visit_parts_get_their_tools() -> None:
    reply = _route(HumanMessage("Will it rain tomorrow, and how do I get there from Orly by taxi?"))

    assert _calls(reply) == [
        ("get_weather", {"date": "tomorrow", "place": "Versailles", "language": "en"}),
        ("get_travel_info", {"origin": "Orly", "mode": "car", "language": "en"}),  # the tool's modes
    ]


def test_a_practical_question_about_getting_there_also_searches_the_knowledge_base() -> None:
    reply = _route(HumanMessage("How do I get there from Paris by train, and is my ticket valid on the RER?"))

    names = [name for name, _ in _calls(reply)]
    assert "get_travel_info" in names and "search_knowledge_base" in names


def test_a_short_follow_up_keeps_the_origin_of_the_previous_route() -> None:
    first = HumanMessage("How do I get there from Gare Montparnasse by train?")
    earlier_call = {"name": "get_travel_info", "args": {"origin": "Gare Montparnasse", "mode": "train",
                    "language": "en"}, "id": "t1", "type": "tool_call"}  # fmt: skip
    history = [first, AIMessage("", tool_calls=[earlier_call]), ToolMessage("{}", tool_call_id="t1")]

    reply = _route(
        *history, AIMessage("By train: 30 min."), HumanMessage("And how long does it take by car?")
    )

    assert _calls(reply) == [
        ("get_travel_info", {"origin": "Gare Montparnasse", "mode": "car", "language": "en"})
    ]


def test_a_short_follow_up_of_a_forecast_changes_only_the_day() -> None:
    args = {"date": "tomorrow", "place": "Versailles", "language": "fr"}
    earlier_call = {"name": "get_weather", "args": args, "id": "w1", "type": "tool_call"}
    history = [HumanMessage("Va-t-il pleuvoir demain ?"), AIMessage("", tool_calls=[earlier_call])]

    reply = _route(*history, AIMessage("Averses."), HumanMessage("Et dimanche ?"))

    assert _calls(reply) == [("get_weather", {"date": "dimanche", "place": "Versailles", "language": "fr"})]


def test_a_follow_up_naming_a_topic_of_its_own_is_not_a_route() -> None:
    earlier_call = {"name": "get_travel_info", "args": {"origin": "Orly", "mode": None, "language": "en"},
                    "id": "t1", "type": "tool_call"}  # fmt: skip
    history = [HumanMessage("How do I get there from Orly?"), AIMessage("", tool_calls=[earlier_call])]

    reply = _route(*history, AIMessage("RER C."), HumanMessage("And the ticket prices?"))

    assert [name for name, _ in _calls(reply)] == ["search_knowledge_base"]


@pytest.mark.parametrize(
    "message", ["What's the weather in Giverny tomorrow?", "How do I get to Parc Astérix from Paris?"]
)
def test_weather_and_travel_for_another_place_are_not_asked_of_the_tools(message: str) -> None:
    assert [name for name, _ in _calls(_route(HumanMessage(message)))] == ["search_knowledge_base"]


def test_small_talk_is_answered_without_tools_in_its_language() -> None:
    reply = _route(HumanMessage("Merci beaucoup !"))

    assert not reply.tool_calls and reply.text.startswith("Avec plaisir")


def test_no_new_tool_call_once_the_tools_have_answered() -> None:
    call = {"name": "search_knowledge_base", "args": {"query": "prix"}, "id": "k1", "type": "tool_call"}
    reply = _route(
        HumanMessage("Prix ?"), AIMessage("", tool_calls=[call]), ToolMessage("{}", tool_call_id="k1")
    )

    assert not reply.tool_calls and reply.text == ""


def test_every_part_gets_its_best_sentences_embedded_however_many_sentences_the_others_have() -> None:
    """The embedder's budget is shared out part by part: a third part whose words are rarer than the
    first two parts' is still measured, not left at closeness 0."""
    evidence = [
        _passage(n, f"Le billet Château coûte {n} € et le Passeport coûte {n + 10} € en saison numéro {n}.")
        for n in range(1, EMBEDDED_MAX + 4)
    ]
    evidence.append(_passage(40, "Ces bassins ont été restaurés en 2019."))
    pool = candidates(evidence, "fr")
    parts = ["Combien coûte le billet Château", "Combien coûte le Passeport", "Quand sont-ils rénovés"]

    def same(texts: Any) -> np.ndarray:  # every text at cosine 1: what was embedded shows as close
        return np.ones((len(texts), 2)) / np.sqrt(2)

    readings = read_parts(parts, "fr", pool, same, PassageVectorCache(same))

    best = readings[2].ranked[0][1]
    assert best.text == "Ces bassins ont été restaurés en 2019."
    assert readings[2].closeness[best.position] == 1.0


@pytest.mark.parametrize(
    ("part", "language"),
    [
        ("Le pavillon de musique sera-t-il ouvert en janvier", "fr"),
        ("Is the Music Pavilion open in February", "en"),
        ("¿Está abierto el pabellón de música en diciembre", "es"),
    ],
)
def test_a_sentence_on_the_asked_months_season_outranks_one_on_other_months(part: str, language: str) -> None:
    """Winter months fall in the low season (the visit calendar's): "closed in the low season"
    answers them, "open from April to October" leaves them out."""
    pool = candidates(
        [
            _passage(1, "Le pavillon de musique se visite d'avril à octobre de 10h à 17h."),
            _passage(2, "Le pavillon de musique reste fermé pendant la basse saison."),
        ],
        "fr",
    )

    best = read_parts([part], language, pool)[0].ranked[0][1]

    assert "basse saison" in best.text


def test_a_stated_line_must_account_for_the_whole_message_not_the_parts_searched() -> None:
    """The answer reads the knowledge base's parts of a turn; the coverage check reads all of it: the
    message as written, or a follow-up completed with what it leaves unsaid."""
    model = OfflineChatModel()
    message = "On arrive en train samedi : le château ouvre à quelle heure ?"
    alone = model._gathered([HumanMessage(message)])
    assert alone.whole_question == message

    earlier = "Quel est le prix du billet du château ?"
    follow_up = model._gathered([HumanMessage(earlier), AIMessage("21 €"), HumanMessage("Et dimanche ?")])
    assert follow_up.whole_question == follow_up.question != "Et dimanche ?"
