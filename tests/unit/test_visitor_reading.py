"""Reading who a question asks for in the nine languages: an age beside the glossary's age or year
word or just after a person, a country by Babel's names, and the glossary's visitor concepts."""

from __future__ import annotations

import pytest

from agents.offline.reading.visitor import age_in, country_in, visitor_asked, visitor_in, visitor_spans
from rag.lexicon.folding import blanked

# Our own phrasings: an age in digits or in words, a country, a customer type.
SAID = {
    "fr": ("Ma fille a neuf ans, faut-il payer le château ?", {"age": 9}),
    "en": ("Our boy is 7 years old: does he pay for the Palace?", {"age": 7}),
    "es": ("Tengo 24 años y vivo en Italia, ¿pago la entrada del Palacio?", {"age": 24, "country": "IT"}),
    "de": ("Meine Tochter ist 16 Jahre alt, was kostet das Schloss?", {"age": 16}),
    "it": ("Sono uno studente di 21 anni della Germania", {"age": 21, "country": "DE", "student": True}),
    "pt": ("A minha mãe tem deficiência, quanto custa o palácio?", {"disabled": True}),
    "nl": ("Wij zijn twee studenten van 19 jaar uit België", {"age": 19, "country": "BE", "student": True}),
    "ja": ("カナダから来た20歳の大学生です", {"age": 20, "country": "CA", "student": True}),
    "zh": ("我的儿子十一岁，宫殿门票多少钱？", {"age": 11}),
}


@pytest.mark.parametrize("language", list(SAID))
def test_the_visitor_is_read_in_each_language(language: str) -> None:
    question, expected = SAID[language]
    visitor = visitor_in(question, language)
    assert visitor is not None and visitor.said() == expected


@pytest.mark.parametrize(
    ("question", "language", "age"),
    [
        ("Mein Sohn ist 12, zahlt er?", "de", 12),  # just after a person, no age word
        ("un enfant de quatorze ans", "fr", 14),  # in words (num2words)
        ("dos niñas de seis años", "es", 6),  # the head count is not the age
        ("a 15-year-old", "en", 15),
        ("十五歳の息子", "ja", 15),  # CJK numerals
    ],
)
def test_an_age_is_a_number_beside_an_age_word_or_a_person(question: str, language: str, age: int) -> None:
    assert age_in(question, language) == age


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("What is the minimum age for the virtual reality headset?", "en"),  # an age word, no number
        ("Is the Palace free for a group of 12?", "en"),  # a party's size is no age
        ("Mon fils voudrait venir le 12 juillet", "fr"),  # a day of the month
        ("Combien coûte la carte 1 an à Versailles ?", "fr"),  # a number inside an offer's name
        ("My son and 2 friends want to visit", "en"),  # a count, not the end of a clause
        ("Wir kommen zu 4 Personen um 10 Uhr", "de"),
    ],
)
def test_numbers_that_are_not_an_age_give_none(question: str, language: str) -> None:
    assert age_in(question, language) is None


def test_a_country_is_read_by_its_name_in_the_question_language_or_in_english() -> None:
    assert country_in("Nous habitons en Suisse", "fr") == "CH"
    assert country_in("we live in Brazil", "en") == "BR"
    assert country_in("我们来自日本", "zh") == "JP"
    assert country_in("Is the Palace open on Sunday?", "en") is None


def test_a_visitor_the_rules_do_not_read_whole_is_left_to_the_knowledge_base() -> None:
    assert visitor_asked("Is the Palace free for a large family of five?", "en", ["free"]) is None
    assert visitor_asked("Do seniors over 65 pay less at the Palace?", "en", ["price"]) is None
    assert visitor_asked("I am 70 and use a wheelchair, is the Palace free?", "en", ["free"]) is None
    assert (
        visitor_asked("Meine Tochter ist 16 Jahre alt, was kostet das Schloss?", "de", ["price"]) is not None
    )
    # only a question on free entry or a price asks for a visitor
    assert visitor_asked("Meine Tochter ist 16 Jahre alt, wann öffnet das Schloss?", "de", ["hours"]) is None


def test_who_the_visitor_is_is_blanked_from_the_question_whole() -> None:
    question = "Somos tres estudiantes de 22 años de Francia, ¿cuánto cuesta el Palacio?"
    rest = blanked(question, visitor_spans(question, "es"))
    assert rest.replace(",", " ").split() == ["¿cuánto", "cuesta", "el", "Palacio?"]


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("We live outside the EU and I am 22: how much is the palace?", "en"),
        ("Nous n'habitons pas dans l'Union européenne, j'ai 20 ans : combien coûte le château ?", "fr"),
        ("Ich bin 22 und wohne nicht in der EU. Was kostet das Schloss?", "de"),
    ],
)
def test_residence_in_the_eu_is_read_from_a_country_only(question: str, language: str) -> None:
    """Naming the EU says nothing of which side of it the visitor lives: no EU residence is read,
    so no rule for EU residents answers for them."""
    visitor = visitor_in(question, language)
    assert visitor is None or visitor.eu_resident is None
