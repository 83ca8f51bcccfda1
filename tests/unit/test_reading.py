"""Reading a visitor turn (agents.offline.reading): topics by meaning, slots, ellipsis, reply language.

Tests about meaning use the real multilingual-e5-small embedder (``local_embedder``); the slot and
ellipsis rules are pure and run without one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from agents.answer.language import read_language
from agents.offline.reading import slots
from agents.offline.reading.ellipsis import Form, Said, inherit, is_elliptical
from agents.offline.reading.intent import IntentIndex, intent_index, load_examples
from agents.offline.reading.read import read_conversation, read_turn
from agents.offline.reading.request import TOPICS, KnowledgeBaseSlots, TravelSlots, TurnRequest, WeatherSlots
from agents.offline.reply import other_places
from agents.offline.router import calls_for
from agents.tools import day_phrases
from agents.tools.dates import parse_visit_date

LANGUAGES = ("fr", "en", "es", "de", "it", "pt", "nl", "ja", "zh")
TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info"}

WEATHER = {
    "fr": ("Est-ce qu'il va faire froid mercredi ?", "mercredi"),
    "en": ("Do I need sunscreen on Saturday?", "Saturday"),
    "es": ("¿Va a nevar el miércoles?", "miércoles"),
    "de": ("Wird es am Freitag regnerisch sein?", "Freitag"),
    "it": ("Domenica ci sarà un temporale?", "Domenica"),
    "pt": ("Vai estar nublado amanhã?", "amanhã"),
    "nl": ("Wordt het woensdag koud?", "woensdag"),
    "ja": ("水曜日は寒いですか？", "水曜日"),
    "zh": ("星期三会冷吗？", "星期三"),
}
TRAVEL = {
    "fr": ("Comment rejoindre le château depuis la gare de Lyon ?", "Gare de Lyon"),
    "en": ("What's the way to the palace from Montmartre?", "Montmartre"),
    "es": ("¿Cómo voy al palacio desde la Torre Eiffel?", "Torre Eiffel"),
    "de": ("Wie gelange ich vom Louvre zum Schloss?", "Louvre"),
    "it": ("Come si raggiunge la Reggia da Saint-Lazare?", "Saint-Lazare"),
    "pt": ("Como se vai ao palácio a partir de Orly?", "Orly"),
    "nl": ("Hoe reis ik vanaf Gare du Nord naar het paleis?", "Gare du Nord"),
    "ja": ("ルーブルから宮殿へはどう行きますか？", "Louvre"),
    "zh": ("从卢浮宫怎么去凡尔赛宫？", "Louvre"),
}
VISIT = {
    "fr": "Les jardins sont-ils payants le dimanche ?",
    "en": "Is there a lift to the first floor of the palace?",
    "es": "¿Se puede comer dentro del castillo?",
    "de": "Wie viel kostet ein Ticket für Kinder?",
    "it": "Si possono fare foto con il flash?",
    "pt": "O Grande Trianon está aberto hoje?",
    "nl": "Is er een restaurant in de tuinen?",
    "ja": "館内で写真を撮ってもいいですか？",
    "zh": "城堡里有洗手间吗？",
}
DAY_FOLLOW_UPS = {
    "fr": ("Et samedi ?", "samedi"), "en": ("And on Friday?", "Friday"), "es": ("¿Y el viernes?", "viernes"),
    "de": ("Und am Samstag?", "Samstag"), "it": ("E sabato?", "sabato"), "pt": ("E no sábado?", "sábado"),
    "nl": ("En zaterdag?", "zaterdag"), "ja": ("土曜日は？", "土曜日"), "zh": ("那星期六呢？", "星期六"),
}  # fmt: skip
MODE_FOLLOW_UPS = {
    "fr": "Et à vélo ?", "en": "And by bike?", "es": "¿Y en bicicleta?", "de": "Und mit dem Fahrrad?",
    "it": "E in bicicletta?", "pt": "E de bicicleta?", "nl": "En met de fiets?", "ja": "自転車だと？",
    "zh": "那骑自行车呢？",
}  # fmt: skip
FROM_THERE = {
    "fr": "Combien de temps en voiture depuis là-bas ?", "en": "How long by car from there?",
    "es": "¿Cuánto se tarda en coche desde allí?", "de": "Wie lange mit dem Auto von dort?",
    "it": "Quanto ci vuole in auto da lì?", "pt": "Quanto tempo de carro de lá?",
    "nl": "Hoe lang met de auto vandaar?", "ja": "そこから車でどのくらい？", "zh": "从那里开车要多久？",
}  # fmt: skip


@pytest.fixture(scope="module")
def index(local_embedder: Any) -> IntentIndex:
    return intent_index(local_embedder.embed_queries)


def _tools(request: TurnRequest) -> set[str]:
    return {name for name, _ in calls_for(request, TOOLS)}


# --- the intents file -------------------------------------------------------------------------


def test_every_topic_has_examples_in_the_nine_languages() -> None:
    import tomllib

    from agents.offline.reading.intent import INTENTS_FILE

    data = tomllib.loads(INTENTS_FILE.read_text(encoding="utf-8"))
    for topic in TOPICS:
        assert set(data[topic]["examples"]) == set(LANGUAGES)
        assert all(len(examples) >= 3 for examples in data[topic]["examples"].values())  # NEAREST
    assert len(load_examples()) < 400  # embedded once per embedder: kept compact


# --- topics by meaning ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_weather_question_is_read_as_weather_with_its_day(index: IntentIndex, language: str) -> None:
    text, day = WEATHER[language]

    request = read_turn(text, None, None, index)

    assert request.topics == ["weather"] and request.weather is not None
    assert request.weather.day == day and request.language == language


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Wird es am Donnerstag, den 11. März 2027 regnen?", "11. März 2027"),
        ("¿Hará sol el sábado 3 de abril de 2027?", "3 de abril de 2027"),
        ("Quel temps fera-t-il le dimanche 4 avril ?", "4 avril"),
    ],
)
def test_a_weekday_said_with_its_date_is_that_date_for_the_forecast(
    index: IntentIndex, text: str, day: str
) -> None:
    """Not the coming weekday: the forecast is asked for the day of the month (and year) written."""
    request = read_turn(text, None, None, index)

    assert request.weather is not None and request.weather.day == day


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_route_question_is_read_as_travel_from_its_origin(index: IntentIndex, language: str) -> None:
    text, origin = TRAVEL[language]

    request = read_turn(text, None, None, index)

    assert request.topics == ["travel"] and request.travel is not None and request.travel.origin
    assert slots.gazetteer().find(request.travel.origin) == slots.gazetteer().find(origin)


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_question_about_the_visit_calls_no_weather_or_travel_tool(
    index: IntentIndex, language: str
) -> None:
    request = read_turn(VISIT[language], None, None, index)

    assert _tools(request) == {"search_knowledge_base"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "Les visites guidées sont-elles maintenues s'il pleut ?",
        "Does my Navigo pass cover the RER C to Versailles?",
        "¿Hay actividades para niños los días de lluvia?",
    ],
)
def test_a_question_naming_the_weather_or_a_train_but_asking_about_the_visit_goes_to_the_knowledge_base(
    index: IntentIndex, text: str
) -> None:
    assert _tools(read_turn(text, None, None, index)) == {"search_knowledge_base"}


@pytest.mark.slow
def test_a_question_asking_both_tools_calls_both(index: IntentIndex) -> None:
    request = read_turn("Will it be sunny on Sunday, and how do I get there from Orly?", None, None, index)

    assert _tools(request) == {"get_weather", "get_travel_info"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "Par où passer pour venir de la gare de l'Est mardi prochain ?",
        "Wie fahren wir am Samstag, 9. August 2025 vom Gare du Nord zum Schloss?",
        "下周日从埃菲尔铁塔出发，坐什么车去凡尔赛宫？",
    ],
)
def test_a_route_asked_for_a_day_also_searches_the_knowledge_base(index: IntentIndex, text: str) -> None:
    """The travel tool's routes hold no day; works or a strike that day are the knowledge base's. The
    route comes first, and the search asks nothing of the visit calendar."""
    request = read_turn(text, None, None, index)

    called = [name for name, _ in calls_for(request, TOOLS | {"get_visit_calendar"})]
    assert called[0] == "get_travel_info" and "search_knowledge_base" in called
    assert "get_visit_calendar" not in called


# --- ellipsis ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_day_alone_after_a_forecast_keeps_the_weather_and_changes_the_day(
    index: IntentIndex, language: str
) -> None:
    follow_up, day = DAY_FOLLOW_UPS[language]

    request = read_conversation([WEATHER[language][0], follow_up], index)

    assert request.elliptical and request.topics == ["weather"] and request.weather is not None
    assert request.weather.day == day and request.language == language


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mode_alone_after_a_route_keeps_the_origin(index: IntentIndex, language: str) -> None:
    first = read_turn(TRAVEL[language][0], None, None, index)

    request = read_turn(MODE_FOLLOW_UPS[language], first, first.language, index)

    assert request.topics == ["travel"] and request.travel is not None and first.travel is not None
    assert request.travel.origin == first.travel.origin and request.travel.mode == "bike"
    assert "travel.origin" in request.inherited


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_visit_question_after_a_route_starts_fresh(index: IntentIndex, language: str) -> None:
    first = read_turn(TRAVEL[language][0], None, None, index)

    request = read_turn(VISIT[language], first, first.language, index)

    assert not request.elliptical and request.topics == ["knowledge_base"]
    assert _tools(request) == {"search_knowledge_base"}


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_weather_question_after_a_route_calls_the_weather_tool_only(
    index: IntentIndex, language: str
) -> None:
    first = read_turn(TRAVEL[language][0], None, None, index)

    request = read_turn(WEATHER[language][0], first, first.language, index)

    assert _tools(request) == {"get_weather"}


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_from_there_is_the_previous_origin(index: IntentIndex, language: str) -> None:
    first = read_turn(TRAVEL[language][0], None, None, index)

    request = read_turn(FROM_THERE[language], first, first.language, index)

    assert request.travel is not None and first.travel is not None
    assert request.travel.origin == first.travel.origin and request.travel.mode == "car"


@pytest.mark.slow
def test_from_there_after_a_question_naming_a_place_starts_from_that_place(index: IntentIndex) -> None:
    request = read_conversation(
        ["Le parc de Saint-Cloud est-il grand ?", "Et pour venir de là-bas à vélo ?"], index
    )

    assert request.travel is not None and request.travel.origin
    assert slots.gazetteer().find(request.travel.origin) == slots.gazetteer().find("Saint-Cloud")


@pytest.mark.slow
def test_a_knowledge_base_follow_up_searches_with_the_subject_carried_over(index: IntentIndex) -> None:
    request = read_conversation(["Quels sont les horaires d'ouverture du château ?", "Et le mardi ?"], index)

    assert request.topics == ["knowledge_base"] and "subject" in request.inherited
    standalone = "Et le mardi ? (Quels sont les horaires d'ouverture du château)"
    assert request.knowledge_base.search == standalone and request.knowledge_base.queries == [standalone]


@pytest.mark.parametrize(
    ("conversation", "standalone"),
    [
        (["Quand a été construit le Grand Trianon ?", "Et le Petit Trianon ?"], "Petit Trianon"),
        (["Wie viel kostet das Ticket für ein Kind?", "Und für einen Studenten?"], "Studenten"),
        (["水曜日は宮殿は開いていますか？", "トリアノンは？"], "水曜日はトリアノンは開いていますか？"),
        (["小特里亚农宫是什么时候建的？", "大特里亚农宫呢？"], "大特里亚农宫是什么时候建的？"),
    ],
)
def test_a_follow_up_naming_another_subject_of_the_same_kind_asks_the_question_of_it(
    conversation: list[str], standalone: str
) -> None:
    """The previous question with its place, offer or group of visitors replaced, so that the search
    and the reader look for the asked aspect of the new subject, not of both."""
    previous, follow_up = conversation
    request = inherit(
        _read(follow_up), _read(previous), Said(), Form(slot_only=False, fragment=True, own_topic_clear=False)
    )

    assert standalone in request.question and request.question != follow_up
    assert request.question.count("Trianon") <= 1 and "(" not in request.question


def test_a_follow_up_naming_a_subject_of_another_kind_keeps_the_subject_beside_it() -> None:
    previous, own = _read("Combien coûte le billet du château ?"), _read("Et pour un étudiant ?")

    request = inherit(own, previous, Said(), Form(slot_only=False, fragment=True, own_topic_clear=False))

    assert request.question == "Et pour un étudiant ? (Combien coûte le billet du château)"


@pytest.mark.parametrize(
    ("topics", "slots_"),
    [
        (["weather"], {"weather": WeatherSlots(day="samedi")}),
        (["travel"], {"travel": TravelSlots(origin="Lyon")}),
    ],
)
def test_a_follow_up_of_a_tool_turn_searches_its_own_words_not_the_tool_question(
    topics: list[Any], slots_: dict[str, Any]
) -> None:
    """A forecast or a route is no subject: a short question for the knowledge base after one is
    searched as it stands, not completed with the weather or travel question."""
    asked = "Quel temps fera-t-il samedi ?"
    previous = TurnRequest(
        message=asked, topics=topics, knowledge_base=KnowledgeBaseSlots(subject=asked, search=asked), **slots_
    )
    own = _read("À quelle heure ouvre le château ?")

    request = inherit(own, previous, Said(), Form(slot_only=False, fragment=True, own_topic_clear=False))

    assert request.knowledge_base.queries == [] and request.question == "À quelle heure ouvre le château ?"
    assert "subject" not in request.inherited


def test_a_fragment_read_as_a_tool_naming_no_slot_of_it_but_a_term_of_the_visit_is_a_follow_up() -> None:
    """e5 may put a two-word "and reduced?" closer to the weather than to prices: with no day or place
    named and a rate named, it is a follow-up of the previous question, not a forecast request."""
    previous = _request(["knowledge_base"])
    own = _request(["weather"], weather=WeatherSlots())
    form = Form(slot_only=False, fragment=True, own_topic_clear=True, names_visit_terms=True)

    assert is_elliptical(own, previous, Said(), form)
    assert inherit(own, previous, Said(), form).topics == ["knowledge_base"]
    assert not is_elliptical(own, previous, Said(day="samedi"), form)  # a day: the forecast is asked
    plain = Form(slot_only=False, fragment=True, own_topic_clear=True, names_visit_terms=False)
    assert not is_elliptical(own, previous, Said(), plain)  # "will it be windy?": its own topic


def _read(message: str, language: str | None = None) -> TurnRequest:
    """A turn's own request, without its meaning read (the knowledge base's topic)."""
    code = read_language(message, language).code
    return TurnRequest(
        message=message,
        topics=["knowledge_base"],
        knowledge_base=KnowledgeBaseSlots(subject=message, search=message),
        language=code,
    )


def _request(topics: list[Any], **slots_: Any) -> TurnRequest:
    return TurnRequest(
        message="m", topics=topics, knowledge_base=KnowledgeBaseSlots(subject="s", search="s"), **slots_
    )


def test_without_a_previous_turn_nothing_is_elliptical() -> None:
    own = _request(["knowledge_base"])

    assert not is_elliptical(own, None, Said(day="dimanche"), Form(True, True, False))


def test_a_turn_of_slots_only_inherits_the_topics_and_keeps_its_own_slot() -> None:
    previous = _request(["weather"], weather=WeatherSlots(day="demain"))
    own = _request(["knowledge_base"])
    said, form = Said(day="dimanche"), Form(slot_only=True, fragment=True, own_topic_clear=False)

    request = inherit(own, previous, said, form)

    assert is_elliptical(own, previous, said, form)
    assert request.topics == ["weather"] and request.weather == WeatherSlots(day="dimanche")
    assert "weather.day" not in request.inherited and "topics" in request.inherited


def test_a_fragment_with_a_clear_topic_of_its_own_starts_fresh() -> None:
    previous = _request(["travel"], travel=TravelSlots(origin="Orly"))
    own = _request(["knowledge_base"])

    assert not is_elliptical(
        own, previous, Said(), Form(slot_only=False, fragment=True, own_topic_clear=True)
    )


# --- slots ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Quel temps le 14 juillet ?", "14 juillet"),
        ("下周六会下雨吗？", "下周六"),
        ("Regnet es übermorgen?", "übermorgen"),
    ],
)
def test_the_day_is_taken_as_written(text: str, day: str) -> None:
    assert day_phrases.day_in(text) == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("On peut venir le premier mai ?", "1 mai"),
        ("Is it open on the first of May?", "1 of May"),
        ("Geht das am dritten Oktober?", "3 Oktober"),
        ("¿Y el veinticinco de diciembre?", "25 de diciembre"),
        ("Arriviamo il due giugno 2027", "2 giugno 2027"),
        ("E no dia primeiro de janeiro?", "1 de janeiro"),
        ("Zijn jullie open op tweede kerstdag of op zes januari?", "6 januari"),
    ],
)
def test_a_day_of_the_month_in_words_is_read_in_digits(text: str, day: str) -> None:
    """num2words's ordinals and cardinals of the seven European languages, written before or after
    the month, become the digits the date parser reads; "tweede kerstdag" names no month."""
    assert day_phrases.date_phrase_in(text) == day


@pytest.mark.parametrize(
    ("text", "language", "origin"),
    [
        ("How do I get to Parc Astérix from Paris?", "en", "Paris"),
        ("Comment aller au Louvre depuis la gare de Lyon ?", "fr", "Gare de Lyon"),
        ("パリから電車で行けますか？", "ja", "パリ"),
        ("Fährt ein Bus vom Bahnhof Versailles Chantiers zum Park?", "de", "Versailles Chantiers"),
    ],
)
def test_the_origin_is_the_place_after_a_from_word(text: str, language: str, origin: str) -> None:
    assert slots.origin_in(text, language) == origin


@pytest.mark.parametrize(
    "text",
    [
        "Y a-t-il un parking avenue de Paris ?",
        "Is the hotel on the Avenue de Paris far?",
        "Rue de Versailles ?",
    ],
)
def test_a_town_in_a_street_name_is_no_place(text: str) -> None:
    """ "avenue de Paris" is a street of Versailles: it names no journey from Paris."""
    assert slots.places_in(text) == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Y a-t-il un parking avenue de Paris ?", "fr"),
        ("Can I leave my car overnight on the Avenue de Paris?", "en"),
    ],
)
def test_a_parking_question_on_a_street_named_after_paris_is_no_route(
    text: str, language: str, index: IntentIndex
) -> None:
    """Neither the gazetteer's names nor its look-up of a misspelt one read the street as Paris."""
    assert _tools(read_turn(text, None, language, index)) == {"search_knowledge_base"}


def test_a_place_inside_another_places_name_is_not_named_twice() -> None:
    assert [m.spelling for m in slots.places_in("Un bus part-il de Pont de Sèvres ?")] == ["Pont de Sèvres"]


def test_a_route_to_another_known_place_is_not_asked_of_the_travel_tool(index: IntentIndex) -> None:
    request = read_turn("How do I get to Parc Astérix from Paris?", None, None, index)

    assert request.travel is not None and request.travel.far
    assert _tools(request) == {"search_knowledge_base"}


@pytest.mark.parametrize(
    ("text", "language", "tools"),
    [
        ("How long does it take from Versailles to Giverny by car?", "en", {"search_knowledge_base"}),
        ("Quanto ci vuole in treno da Versailles al Parc Astérix?", "it", {"search_knowledge_base"}),
        ("从凡尔赛到卢浮宫打车要多少钱？", "zh", {"search_knowledge_base"}),
        # Back to Paris is the same line as the way there: the travel tool's answer still serves.
        ("Wie komme ich vom Schloss Versailles zurück nach Paris?", "de", {"get_travel_info"}),
        # "de Versailles" also means "of Versailles": no journey is read as leaving it.
        ("Comment aller au parc de Versailles depuis Paris ?", "fr", {"get_travel_info"}),
    ],
)
def test_a_journey_leaving_versailles_for_another_known_place_is_not_asked_of_the_travel_tool(
    text: str, language: str, tools: set[str], index: IntentIndex
) -> None:
    """Every route the travel tool gives ends at the Palace; before, the other place was read as the
    origin and the visitor got the way from it to Versailles."""
    assert _tools(read_turn(text, None, language, index)) == tools


@pytest.mark.parametrize(
    ("text", "language", "tool"),
    [
        ("Is the Marly estate far from Versailles?", "en", "search_knowledge_base"),
        ("¿El dominio de Marly está lejos de Versalles?", "es", "search_knowledge_base"),
        ("Is het domein van Marly ver van Versailles?", "nl", "search_knowledge_base"),
        ("O domínio de Marly fica longe de Versalhes?", "pt", "search_knowledge_base"),
        ("Combien de temps en voiture depuis le domaine de Marly ?", "fr", "get_travel_info"),
        ("How do I get from the Marly estate to the palace?", "en", "get_travel_info"),
        ("Comment aller du domaine de Marly au château ?", "fr", "get_travel_info"),
    ],
)
def test_how_far_a_place_of_the_estate_lies_is_asked_of_the_knowledge_base_a_journey_from_it_is_a_route(
    text: str, language: str, tool: str, index: IntentIndex
) -> None:
    """Its page says where it lies; the travel tool only times a journey from it."""
    assert _tools(read_turn(text, None, language, index)) == {tool}


def test_the_estates_opera_is_not_read_as_the_paris_district_a_longer_name_is() -> None:
    assert other_places("Quand l'Opéra royal a-t-il été restauré ?", "fr") == []
    assert [p.id for p in other_places("L'Opéra Garnier ouvre-t-il le dimanche ?", "fr")] == ["opera"]


@pytest.mark.parametrize(
    "text", ["Quel est le tarif d'entrée du musée d'Orsay ?", "Combien coûte l'entrée du musée d'Orsay ?"]
)
def test_a_price_asked_of_a_place_after_a_word_meaning_of_or_from_is_no_route(
    text: str, index: IntentIndex
) -> None:
    """ "du musée d'Orsay" reads as "from the museum" too; a route never answers a price."""
    assert _tools(read_turn(text, None, "fr", index)) == {"search_knowledge_base"}


def test_an_origin_after_a_word_meaning_of_is_read_only_where_it_may_be_one() -> None:
    assert slots.marked_origin_in("Le prix du Louvre", "fr", genitive=False) is None
    assert slots.marked_origin_in("Le prix du Louvre", "fr") == "Louvre"
    assert slots.marked_origin_in("Combien de temps depuis le Louvre", "fr", genitive=False) == "Louvre"


def test_another_place_named_after_of_restricts_the_quotes_unless_the_turn_asks_a_route() -> None:
    """ "les horaires du Louvre" are the Louvre's, not the palace's; "du Louvre" in a route is its start."""
    assert [p.id for p in other_places("Quels sont les horaires du musée du Louvre ?", "fr")] == ["louvre"]
    assert other_places("Combien de temps faut-il du musée du Louvre au château ?", "fr", journey=True) == []


@pytest.mark.parametrize(
    ("text", "language", "names"),
    [
        ("Le musée Bourdelle est-il ouvert le lundi ?", "fr", ["Bourdelle"]),
        ("How much is the Bourdelle Museum?", "en", ["Bourdelle"]),
        ("Quanto custa o Palácio da Pena?", "pt", ["Pena"]),
        ("Museum Which opens first?", "en", []),  # a text's first word is no name
        ("Quand a été construit le château de Versailles ?", "fr", []),
        ("Combien coûte le musée des Carrosses ?", "fr", []),  # the glossary's
        ("Le musée du Louvre est-il ouvert ?", "fr", []),  # the gazetteer's
    ],
)
def test_museums_and_palaces_no_list_knows_are_read_by_their_name(
    text: str, language: str, names: list[str]
) -> None:
    assert slots.named_sites(text, language) == names


# --- language ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("베르사유 궁전 입장료는 얼마예요?", "ko"),
        ("كم تكلفة تذكرة القصر؟", "ar"),
        ("Во сколько открывается дворец?", "ru"),
        ("Czy pałac jest otwarty w poniedziałki?", "pl"),
    ],
)
def test_a_language_the_assistant_does_not_speak_is_answered_in_english(text: str, language: str) -> None:
    assert read_language(text, "fr") == read_language(text) == type(read_language(text))("en", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_turn_keeps_the_conversation_language(language: str) -> None:
    assert read_language("Trianon ?", language).code == language
    assert read_language(DAY_FOLLOW_UPS[language][0], language).code == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_clearly_in_another_language_switches(language: str) -> None:
    other = "de" if language != "de" else "fr"

    assert read_language(VISIT[language], other).code == language


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "Combien de spectateurs peut accueillir l'Opéra royal ?",
        "Who painted the ceiling of the Royal Opera?",
        "¿Cuántos árboles hay en el parque de Versalles?",
        "Wie viele Statuen stehen im Park von Versailles?",
        "Chi ha scolpito la fontana delle Quattro Stagioni?",
        "Quem decorou a Ópera Real do palácio?",
    ],
)
def test_a_question_naming_no_route_and_no_day_stays_with_the_knowledge_base(
    index: IntentIndex, text: str
) -> None:
    """A place of the estate sharing a name with a journey's start (the Opéra), "de Versailles",
    or "the four seasons" do not make a route or a forecast of a question about the visit."""
    assert _tools(read_turn(text, None, None, index)) == {"search_knowledge_base"}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Comment aller de Marseille à Paris en train ?", "fr"),
        ("What's the best way from Brussels to Paris?", "en"),
        ("¿Cómo se va de Barcelona a París?", "es"),
        ("Wie fahre ich von Berlin nach Paris?", "de"),
        ("Come si va da Milano a Parigi?", "it"),
        ("Como ir do Porto para Paris?", "pt"),
        ("Hoe reis ik van Rotterdam naar Parijs?", "nl"),
        ("大阪からパリまでどうやって行きますか？", "ja"),
        ("从上海到巴黎怎么去？", "zh"),
    ],
)
def test_a_journey_from_elsewhere_to_another_place_than_the_estate_is_not_asked_of_the_travel_tool(
    text: str, language: str, index: IntentIndex
) -> None:
    """Every route the travel tool gives ends at the Palace. Before, the destination was read as the
    origin (the only known place named) and the visitor got the way from Paris to Versailles."""
    assert _tools(read_turn(text, None, language, index)) == {"search_knowledge_base"}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("What's the best way from Paris to the palace?", "en"),
        ("Je loge à Paris, comment aller au château en train ?", "fr"),
        ("Wie komme ich von Paris zum Schloss?", "de"),
        ("パリから宮殿までどうやって行きますか？", "ja"),
        ("从巴黎到凡尔赛宫怎么去？", "zh"),
    ],
)
def test_a_journey_to_the_estate_or_from_where_the_visitor_is_still_goes_to_the_travel_tool(
    text: str, language: str, index: IntentIndex
) -> None:
    """ "à Paris" alone says where the visitor is, not where the journey goes."""
    assert _tools(read_turn(text, None, language, index)) == {"get_travel_info"}


def test_a_word_that_only_begins_like_an_origin_marker_starts_no_journey() -> None:
    """ "descends" begins like "de": it says nothing of where a journey starts."""
    assert slots.destination_elsewhere("Je descends à Paris ce soir.", "fr") is None
    assert slots.destination_elsewhere("Je viens de Lyon et je vais à Paris.", "fr") == "Paris"


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Peut-on visiter Trianon le lundi de Pentecôte ?", "fr"),
        ("Are the gardens open on Whit Monday?", "en"),
    ],
)
def test_a_holiday_named_with_its_weekday_is_the_holiday_not_the_coming_weekday(
    message: str, language: str
) -> None:
    """The weekday a holiday's name holds ("lundi", "Monday") is not read before the holiday."""
    phrase = day_phrases.date_phrase_in(message)
    assert phrase is not None
    today = dt.date(2026, 12, 7)
    assert parse_visit_date(phrase, today, (language,)).day == dt.date(2027, 5, 17)
