"""The coverage check: a visit-facts line heads the answer in bold only when it accounts for all that
a part of the question asks (its place, what is asked, the day, the visitor), never when the question
names a subject the line is not about. Phrasings written for this test, in several languages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.offline.coverage import StatedFacts, asked_sentences, covered, unexplained

HOURS = StatedFacts(places=frozenset({"palace"}), aspects=frozenset({"hours"}))
GARDEN_HOURS = StatedFacts(places=frozenset({"gardens"}), aspects=frozenset({"hours"}))
PRICE = StatedFacts(places=frozenset({"palace"}), aspects=frozenset({"price"}))
FREE = StatedFacts(places=frozenset({"gardens"}), aspects=frozenset({"free"}))
TRIANON_HOURS = StatedFacts(places=frozenset({"trianon"}), aspects=frozenset({"hours"}))
PARK_CLOSED = StatedFacts(places=frozenset({"park"}), aspects=frozenset({"closed"}))
GARDENS_CLOSED = StatedFacts(places=frozenset({"gardens"}), aspects=frozenset({"closed"}))


@pytest.mark.parametrize(
    ("question", "language", "facts"),
    [
        ("Le château ouvre à quelle heure samedi prochain ?", "fr", HOURS),
        ("We're coming with my grandparents: when does the palace close this Friday?", "en", HOURS),
        ("¿A qué hora cierran los jardines en invierno?", "es", GARDEN_HOURS),
        ("Wie viel kostet der Eintritt ins Schloss?", "de", PRICE),
        ("Quanto costa il biglietto ridotto per la Reggia?", "it", PRICE),
        ("Os jardins são gratuitos em dezembro?", "pt", FREE),
        ("Hoe laat sluit het paleis op zondag? We willen daarna uit eten.", "nl", HOURS),
        ("宮殿は何時に開きますか？", "ja", HOURS),
    ],
)
def test_a_line_answering_all_that_is_asked_covers_the_question(
    question: str, language: str, facts: StatedFacts
) -> None:
    assert covered(question, language, facts)


@pytest.mark.parametrize(
    ("question", "language", "facts", "subject"),
    [
        ("Jusqu'à quelle heure le café du château sert-il ?", "fr", HOURS, "cafe"),
        ("What time does the palace gift shop close?", "en", HOURS, "shop"),
        ("¿Cuánto cuesta el aparcamiento del palacio?", "es", PRICE, "parking"),
        ("Wann beginnt die Führung im Schloss am Samstag?", "de", HOURS, "guided tour"),
        ("Quanto costa l'audioguida della Reggia?", "it", PRICE, "audio guide"),
        ("Os estudantes pagam o bilhete do palácio?", "pt", PRICE, "student"),
        ("Tot hoe laat is de kassa van het paleis open?", "nl", HOURS, "on site"),
    ],
)
def test_a_subject_the_line_is_not_about_leaves_it_uncovered(
    question: str, language: str, facts: StatedFacts, subject: str
) -> None:
    assert subject in unexplained(question, language, facts)
    assert not covered(question, language, facts)


def test_a_visitors_age_matters_to_a_price_not_to_the_hours() -> None:
    question = "Ma fille a 9 ans : combien coûte son billet pour le château ?"
    assert "age" in unexplained(question, "fr", PRICE)
    assert not covered(question, "fr", PRICE)
    assert covered("Mes enfants ont 9 et 11 ans : à quelle heure ouvre le château ?", "fr", HOURS)


def test_a_line_for_that_visitor_covers_the_age() -> None:
    question = "My daughter is 9: how much is her palace ticket?"
    for_her = StatedFacts(places=frozenset({"palace"}), aspects=frozenset({"price"}), for_the_visitor=True)
    assert covered(question, "en", for_her)
    assert not covered(question, "en", PRICE)


def test_another_place_of_the_facts_is_not_covered_by_this_place_s_line() -> None:
    question = "Quando chiudono i giardini domenica?"
    assert covered(question, "it", GARDEN_HOURS)
    assert not covered(question, "it", HOURS)


def test_a_part_asking_nothing_of_the_facts_is_left_to_the_knowledge_base() -> None:
    question = "When do the gardens close on Sunday? We would like to eat at a restaurant near the canal."
    assert covered(question, "en", GARDEN_HOURS)


def test_every_part_asking_the_facts_must_be_covered() -> None:
    question = "When does the palace open on Saturday, and until what time is its café open?"
    assert not covered(question, "en", HOURS)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("En quelle année le Petit Trianon a-t-il ouvert au public ?", "fr"),
        ("Wie lang ist die Spiegelgalerie im Schloss?", "de"),
    ],
)
def test_a_kind_of_value_no_fact_gives_is_not_covered(question: str, language: str) -> None:
    facts = StatedFacts(places=frozenset({"palace", "trianon"}), aspects=frozenset({"hours"}))
    assert not covered(question, language, facts)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("How much is the Big Bus ticket combined with the palace?", "en"),
        ("Quanto costa il biglietto Versailles Express per la Reggia?", "it"),
    ],
)
def test_a_name_the_glossary_does_not_know_is_another_subject(question: str, language: str) -> None:
    assert not covered(question, language, PRICE)


def test_capitals_mark_no_name_in_german_nor_for_versailles_or_a_holiday() -> None:
    assert covered("Wann öffnet das Schloss am Samstag? Wir kommen mit dem Zug.", "de", HOURS)
    assert covered("We're staying in Versailles: when does the palace open on Easter Monday?", "en", HOURS)


@pytest.mark.parametrize(
    "question",
    [
        "宮殿のレストランは何時に開きますか？",  # a restaurant, in the glossary
        "宮殿のカフェテリア・アンジェリーナは何時に開きますか？",  # a name no list holds
    ],
)
def test_katakana_left_unexplained_is_another_subject_in_japanese(question: str) -> None:
    assert not covered(question, "ja", HOURS)


def test_katakana_touching_a_place_s_name_is_part_of_it() -> None:
    assert covered("グランド・トリアノンは何時に開きますか？", "ja", TRIANON_HOURS)


def test_a_bracket_that_tells_the_day_again_is_the_day() -> None:
    assert covered("2027年4月5日（月曜日、イースター休暇）に宮殿は開いていますか？", "ja", HOURS)
    assert not covered("Is the palace open on 5 April (we come with the Big Bus)?", "en", HOURS)


@pytest.mark.parametrize(
    ("question", "language", "facts"),
    [
        ("Le 4 mai on va visiter les jardins en famille. Est-ce que ça vaut le coup ?", "fr", GARDEN_HOURS),
        ("We'll visit the palace on Friday 8 May. Where should we start?", "en", HOURS),
        ("Am 25. Juli besuchen wir das Schloss. Was sollten wir unbedingt sehen?", "de", HOURS),
    ],
)
def test_facts_read_in_the_scene_do_not_answer_another_question(
    question: str, language: str, facts: StatedFacts
) -> None:
    assert unexplained(question, language, facts) == []  # no word of a subject the facts lack
    assert not covered(question, language, facts)  # but what is asked is not what they state


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Nous visitons le château samedi. À quelle heure ouvre-t-il ?", "fr"),
        ("We visit the palace on Saturday. What time?", "en"),
        ("Wir sind am 25. Dezember in Paris: hat das Schloss geöffnet?", "de"),
    ],
)
def test_a_question_asking_the_facts_after_its_scene_is_covered(question: str, language: str) -> None:
    assert covered(question, language, HOURS)


def test_a_full_stop_after_a_day_s_number_ends_no_sentence() -> None:
    assert asked_sentences("Am 25. Juli besuchen wir das Schloss. Ist es offen?") == (
        "Ist es offen?",
        "Am 25. Juli besuchen wir das Schloss.",
    )
    assert asked_sentences("Is it open at 10.30 on Monday?") == ("", "")


def test_the_question_a_follow_up_is_read_with_is_not_a_scene() -> None:
    question = "Und für meinen Sohn von 10 Jahren? (Was kostet der Eintritt ins Schloss)"
    assert asked_sentences(question) == ("", "")
    assert covered(question, "de", StatedFacts(frozenset({"palace"}), frozenset({"price"}), True))


PARK_HOURS = StatedFacts(places=frozenset({"park"}), aspects=frozenset({"hours"}))


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Jusqu'à quelle heure roule le train touristique du parc dimanche ?", "fr"),
        ("Wann fährt der Bus im Park am Samstag los?", "de"),
        ("Fino a che ora passa l'autobus nel parco sabato?", "it"),
    ],
)
def test_a_vehicle_the_line_is_not_about_leaves_it_uncovered(question: str, language: str) -> None:
    assert not covered(question, language, PARK_HOURS)


def test_a_vehicle_in_a_sentence_asking_nothing_of_the_facts_is_the_visitor_s_circumstance() -> None:
    assert covered("Hasta qué hora está abierto el parque el sábado? Llegamos en coche.", "es", PARK_HOURS)


def test_needing_a_ticket_on_a_day_is_covered_by_the_free_entry_line() -> None:
    question = "On Friday 11 December, do we need tickets to walk round the park?"
    assert covered(question, "en", StatedFacts(places=frozenset({"park"}), aspects=frozenset({"free"})))


def test_a_place_written_in_katakana_is_that_place_in_japanese() -> None:
    assert covered("土曜日、ガーデンは何時に閉まりますか？", "ja", GARDEN_HOURS)


@pytest.mark.parametrize(
    ("question", "language", "facts", "topic"),
    [
        ("Le château est-il ouvert dimanche pour prendre des photos ?", "fr", HOURS, "photo"),
        ("Is the palace open on Saturday for a smoke break outside?", "en", HOURS, "smoking"),
        ("¿Los jardines abren el lunes con lluvia?", "es", GARDEN_HOURS, "rain"),
        ("Ab wann fährt der Aufzug im Schloss?", "de", HOURS, "lift"),
        ("Quando apre la Reggia per vedere la collezione di dipinti?", "it", HOURS, "painting"),
    ],
)
def test_a_topic_of_its_own_the_line_does_not_state_leaves_it_uncovered(
    question: str, language: str, facts: StatedFacts, topic: str
) -> None:
    """A glossary concept with no role is a topic of its own (the roles file's definition): a line
    of hours or prices does not answer what the question asks of it."""
    assert topic in unexplained(question, language, facts)
    assert not covered(question, language, facts)


@pytest.mark.parametrize(
    ("question", "language", "facts"),
    [
        ("Peut-on se promener dans le parc le 1er mai ?", "fr", PARK_CLOSED),
        ("Can we walk into the gardens on Christmas Day?", "en", GARDENS_CLOSED),
        ("Wir kommen am Samstag an: ab wann darf man ins Schloss?", "de", HOURS),
        ("Em que horário se pode entrar no palácio na terça?", "pt", HOURS),
    ],
)
def test_how_the_visitor_comes_is_the_question_s_form_not_a_topic(
    question: str, language: str, facts: StatedFacts
) -> None:
    """Walking, being allowed in, arriving: how a visit is said, which the line's place and day answer."""
    assert covered(question, language, facts)


def test_a_visitor_named_where_no_word_asks_the_facts_is_what_the_question_is_about() -> None:
    assert not covered("Notre chien peut-il venir au parc dimanche ?", "fr", PARK_CLOSED)
    assert not covered("Kann unser Hund am Sonntag mit in den Park?", "de", PARK_CLOSED)
    # the same visitor beside a word asking the hours is the visitor's circumstance
    on_sunday = replace(PARK_CLOSED, on_a_day=True)  # the calendar's line for that Sunday
    assert covered("On vient avec notre chien : le parc ouvre à quelle heure dimanche ?", "fr", on_sunday)


def _on_no_day(aspect: str, answering: frozenset[int] = frozenset()) -> StatedFacts:
    """The palace's lines on no day, answering ``aspect``; the weekdays the lines answering it name."""
    return StatedFacts(places=frozenset({"palace"}), aspects=frozenset({aspect}), weekdays=answering)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Un samedi de décembre, le billet du château coûte combien ?", "fr"),
        ("We come on a Sunday in February. How much is the palace then?", "en"),
        ("日曜日に宮殿へ行くと入場料はいくらですか？", "ja"),
    ],
)
def test_a_price_on_a_day_is_not_covered_by_lines_on_no_day(question: str, language: str) -> None:
    """What a visitor pays turns on the day (the first Sundays are free): a price line on no day
    does not account for the day named; a line for that day does."""
    assert not covered(question, language, _on_no_day("price"))
    on_the_day = StatedFacts(places=frozenset({"palace"}), aspects=frozenset({"price"}), on_a_day=True)
    assert covered(question, language, on_the_day)


def test_a_closing_on_a_weekday_no_answering_line_names_is_not_covered() -> None:
    question = "Le château est-il fermé les jeudis en hiver ?"
    assert not covered(question, "fr", _on_no_day("closed", answering=frozenset({0})))  # Mondays
    assert covered(question, "fr", _on_no_day("closed", answering=frozenset({3})))  # Thursdays


def test_hours_asked_on_a_weekday_are_covered_by_lines_on_no_day() -> None:
    """The season's hours hold on every weekday they do not close; on Mondays, the weekly closing
    naming Monday is the line that answers (``agents.offline.reply`` heads the answer with it)."""
    assert covered("Wann öffnet das Schloss donnerstags?", "de", _on_no_day("hours"))
    assert covered("Wann öffnet das Schloss montags?", "de", _on_no_day("hours", answering=frozenset({0})))
